"""mlir_aot.torch: PyTorch modules exported to ONNX (names, dynamic dims,
opset), compiled and called against PyTorch's own outputs on several batch
sizes; the reference .npz that add_aot_target's generated test reads; the
command line that add_aot_target runs; and the errors of each.

Exits 77 (skipped), saying why, where torch or onnx is missing or mlir-aot
was built without the ONNX importer (AOT_ONNX=0).

Environment: AOT_COMPILE (aot-compile), AOT_ONNX (1: the importer is in)."""

import os
import subprocess
import sys
import unittest
from unittest import mock

try:
    import onnx
    import torch
except ImportError as e:
    print("skipped: %s (Debian: apt install python3-torch python3-onnx)" % e)
    sys.exit(77)
if os.environ.get("AOT_ONNX", "1") != "1":
    print("skipped: mlir-aot was built without the ONNX importer (Debian: "
          "libonnx-dev libprotobuf-dev)")
    sys.exit(77)

import numpy as np

import mlir_aot
import mlir_aot.torch as aot_torch
from support import TempDir, env

RTOL, ATOL = 1e-4, 1e-5


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = torch.nn.Linear(8, 16)
        self.norm = torch.nn.LayerNorm(16)
        self.l2 = torch.nn.Linear(16, 4)

    def forward(self, x):
        return self.l2(torch.nn.functional.gelu(self.norm(self.l1(x))))


class TwoResults(torch.nn.Module):
    """Two inputs, the second with two open dims; two results."""

    def forward(self, x, y):
        s = x @ y
        return s, torch.softmax(s, dim=-1)


class Preprocess(torch.nn.Module):
    """A batch of uint8 images (NHWC) in; float, uint8 and bool out."""

    def __init__(self):
        super().__init__()
        self.register_buffer(
            "mean", torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1))
        self.register_buffer(
            "std", torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1))

    def forward(self, image):
        nchw = image.permute(0, 3, 1, 2)
        return ((nchw.float() / 255 - self.mean) / self.std,
                torch.clamp(nchw, 16, 235), nchw > 200)


class Unused(torch.nn.Module):
    def forward(self, x, y):
        return x * 2


class Unexportable(torch.nn.Module):
    """An op torch 1.13 cannot export to ONNX opset 17."""

    def forward(self, x):
        return torch.linalg.svd(x)[1]


def mlp():
    torch.manual_seed(0)
    return Mlp()


LOADER = '''
import torch
from mlir_aot.torch import LoaderOutput


class Scale(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x) * 3 - 1


def load():
    torch.manual_seed(1)
    return LoaderOutput(Scale(), [torch.randn(3, 5)], dynamic_dims=[[0]])


def wrong():
    return (Scale(), [torch.randn(3, 5)])
'''


def assert_close(test, got, want):
    test.assertEqual(tuple(got.shape), tuple(want.shape))
    np.testing.assert_allclose(np.asarray(got), want, rtol=RTOL, atol=ATOL)


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = TempDir()
        self.dir = self.tmp.__enter__()

    def tearDown(self):
        self.tmp.__exit__(None, None, None)

    def path(self, name):
        return os.path.join(self.dir, name)


class Export(Base):
    def test_names_opset_and_dynamic_axes(self):
        path = self.path("m.onnx")
        self.assertEqual(aot_torch.export(mlp(), torch.randn(3, 8), path,
                                          dynamic_dims={0: [0]}), path)
        model = onnx.load(path)
        self.assertIn(17, [o.version for o in model.opset_import
                           if o.domain in ("", "ai.onnx")])
        self.assertEqual([i.name for i in model.graph.input], ["input0"])
        self.assertEqual([o.name for o in model.graph.output], ["output0"])
        dims = model.graph.input[0].type.tensor_type.shape.dim
        self.assertEqual(dims[0].dim_param, "x0_d0")
        self.assertEqual(dims[1].dim_value, 8)

    def test_dims_as_a_list_per_input_and_negative_dims(self):
        path = self.path("m.onnx")
        aot_torch.export(TwoResults(), (torch.randn(2, 3), torch.randn(3, 4)),
                         path, dynamic_dims=[None, [-2, 1]])
        inputs = onnx.load(path).graph.input
        self.assertEqual([d.dim_value for d in
                          inputs[0].type.tensor_type.shape.dim], [2, 3])
        self.assertEqual([d.dim_param for d in
                          inputs[1].type.tensor_type.shape.dim],
                         ["x1_d0", "x1_d1"])

    def test_an_unchanged_model_leaves_the_file_alone(self):
        path = self.path("m.onnx")
        x = torch.randn(3, 8)
        aot_torch.export(mlp(), x, path)
        before = os.stat(path)
        aot_torch.export(mlp(), x, path)
        after = os.stat(path)
        self.assertEqual((before.st_ino, before.st_mtime_ns),
                         (after.st_ino, after.st_mtime_ns))
        self.assertEqual(after.st_mode & 0o777, 0o666 & ~self.umask())

    @staticmethod
    def umask():
        mask = os.umask(0)
        os.umask(mask)
        return mask

    def test_exports_in_eval_mode_with_gradients_enabled(self):
        model = torch.nn.Sequential(torch.nn.Linear(4, 4),
                                    torch.nn.Dropout(0.5)).train()
        seen = []
        model.register_forward_hook(
            lambda *_: seen.append(torch.is_grad_enabled()))
        with torch.no_grad():
            aot_torch.export(model, torch.randn(2, 4), self.path("m.onnx"))
        self.assertFalse(model.training)
        self.assertTrue(seen and all(seen))
        # No Dropout made it into the graph: eval mode.
        ops = {n.op_type for n in onnx.load(self.path("m.onnx")).graph.node}
        self.assertNotIn("Dropout", ops)


class ExportErrors(Base):
    def test_missing_torch_or_onnx_names_the_package(self):
        model, x = mlp(), torch.randn(1, 8)
        for missing in ("torch", "onnx"):
            with mock.patch.dict(sys.modules, {missing: None}):
                with self.assertRaises(mlir_aot.ExportError) as caught:
                    aot_torch.export(model, x, self.path("m.onnx"))
            message = str(caught.exception)
            self.assertIn(missing, message)
            self.assertIn("python3-torch python3-onnx", message)
        self.assertTrue(issubclass(mlir_aot.ExportError, mlir_aot.Error))

    def test_a_failed_export(self):
        with self.assertRaisesRegex(mlir_aot.ExportError,
                                    r"torch.onnx.export \(opset 17\) failed "
                                    r"for Unexportable: "
                                    r"UnsupportedOperatorError"):
            aot_torch.export(Unexportable(), torch.randn(3, 3),
                             self.path("m.onnx"))
        self.assertEqual(os.listdir(self.dir), [])

    def test_an_input_the_model_does_not_use(self):
        with self.assertRaisesRegex(mlir_aot.ExportError,
                                    "does not use input1"):
            aot_torch.export(Unused(), (torch.randn(2), torch.randn(2)),
                             self.path("m.onnx"))

    def test_inputs_and_dims(self):
        x = torch.randn(2, 8)
        cases = [
            ([1.0, 2.0], None, mlir_aot.ExportError, "input 0 is a float"),
            (x, {0: [2]}, ValueError, "input 0 has rank 2, no dim 2"),
            (x, {1: [0]}, ValueError, "names input 1; the model has 1"),
            (x, [[0], [0]], ValueError, "2 entries for 1 inputs"),
            (x, "0", ValueError, "must be a dict"),
        ]
        for inputs, dims, error, message in cases:
            with self.subTest(message):
                with self.assertRaisesRegex(error, message):
                    aot_torch.export(mlp(), inputs, self.path("m.onnx"),
                                     dynamic_dims=dims)


class Compile(Base):
    @classmethod
    def setUpClass(cls):
        env("AOT_COMPILE")

    def test_dynamic_batch_matches_torch_on_several_sizes(self):
        model = mlp()
        f = aot_torch.compile(model, torch.randn(5, 8), dynamic_dims={0: [0]},
                              opt=2, threads=1)
        self.assertEqual(f.module.name, "mlp")
        self.assertEqual(f.module.functions, (f.name,))
        for batch in (5, 1, 13):
            x = torch.randn(batch, 8)
            want = model(x).detach().numpy()
            got = f(x)
            self.assertIsInstance(got, torch.Tensor)
            assert_close(self, got.numpy(), want)
            got = f(x.numpy())
            self.assertIsInstance(got, np.ndarray)
            assert_close(self, got, want)

    def test_several_inputs_and_results(self):
        model = TwoResults()
        x, y = torch.randn(2, 3), torch.randn(3, 4)
        f = aot_torch.compile(model, (x, y), dynamic_dims={1: [1]})
        y = torch.randn(3, 7, requires_grad=True)
        got = f(x, y)
        want = model(x, y)
        self.assertIsInstance(got, tuple)
        self.assertEqual(len(got), 2)
        for g, w in zip(got, want):
            assert_close(self, g.numpy(), w.detach().numpy())

    def test_uint8_images_in_and_out(self):
        model = Preprocess()
        image = torch.randint(0, 256, (2, 24, 20, 3), dtype=torch.uint8)
        f = aot_torch.compile(model, image, dynamic_dims={0: [0]})
        signature = f.module.manifest["functions"][0]
        self.assertEqual([a["dtype"] for a in signature["args"]], ["u8"])
        self.assertEqual([r["dtype"] for r in signature["results"]],
                         ["f32", "u8", "i1"])
        for batch in (2, 5):
            image = torch.randint(0, 256, (batch, 24, 20, 3),
                                  dtype=torch.uint8)
            got, want = f(image), model(image)
            for g, w in zip(got, want):
                self.assertEqual(g.dtype, w.dtype)
            assert_close(self, got[0].numpy(), want[0].numpy())
            np.testing.assert_array_equal(got[1].numpy(), want[1].numpy())
            np.testing.assert_array_equal(got[2].numpy(), want[2].numpy())
        # The bytes as int8 are refused, not read as negative numbers.
        with self.assertRaises(mlir_aot.ArgumentError):
            f(image.numpy().view(np.int8))

    def test_static_dims_reject_another_size(self):
        f = aot_torch.compile(mlp(), torch.randn(5, 8))
        with self.assertRaises(mlir_aot.ArgumentValueError):
            f(torch.randn(6, 8))

    def test_output_keeps_the_library_and_the_onnx_beside_it(self):
        library = self.path("mlp.so")
        f = aot_torch.compile(mlp(), torch.randn(2, 8), output=library)
        self.assertEqual(sorted(os.listdir(self.dir)),
                         ["mlp.onnx", "mlp.so"])
        again = mlir_aot.load(library)
        x = np.ones((2, 8), np.float32)
        np.testing.assert_array_equal(again[f.name](x), f(x))


class Reference(Base):
    def test_layout_is_the_generated_tests_and_values_are_torchs(self):
        model = mlp()
        x = torch.randn(4, 8)
        loaded = aot_torch.LoaderOutput(model, [x], dynamic_dims={0: [0]})
        path = self.path("ref.npz")
        self.assertEqual(aot_torch.reference(loaded, path), path)
        f = aot_torch.compile(model, [x], dynamic_dims={0: [0]})
        with np.load(path) as ref:
            self.assertEqual(sorted(ref.files),
                             ["%s/arg0" % f.name, "%s/result0" % f.name])
            np.testing.assert_array_equal(ref["%s/arg0" % f.name], x.numpy())
            # PyTorch's outputs, bit for bit.
            np.testing.assert_array_equal(ref["%s/result0" % f.name],
                                          model(x).detach().numpy())
            assert_close(self, f(ref["%s/arg0" % f.name]),
                         ref["%s/result0" % f.name])

    def test_other_sizes_change_every_dynamic_dim(self):
        model = mlp()
        x = torch.randn(4, 8)
        loaded = aot_torch.LoaderOutput(model, [x], dynamic_dims={0: [0]})
        path = aot_torch.reference(loaded, self.path("other.npz"),
                                   function="f", other_sizes=True)
        with np.load(path) as ref:
            arg = ref["f/arg0"]
            # One row less than the sample's four, the other dim as it was.
            self.assertEqual(arg.shape, (3, 8))
            self.assertFalse(np.array_equal(arg, x.numpy()[:3]))
            np.testing.assert_array_equal(
                ref["f/result0"],
                model(torch.from_numpy(arg)).detach().numpy())

    def test_other_sizes_of_tokens_stay_in_the_samples_range(self):
        model = torch.nn.Embedding(10, 4)
        tokens = torch.tensor([[0, 9, 3], [2, 2, 7]])
        loaded = aot_torch.LoaderOutput(model, [tokens],
                                        dynamic_dims={0: [0, 1]})
        path = aot_torch.reference(loaded, self.path("tokens.npz"),
                                   function="f", other_sizes=True)
        with np.load(path) as ref:
            arg = ref["f/arg0"]
            # Both dims: 2 -> 3 and 3 -> 2.
            self.assertEqual(arg.shape, (3, 2))
            self.assertEqual(arg.dtype, np.int64)
            self.assertTrue(((arg >= 0) & (arg <= 9)).all())

    def test_other_sizes_without_dynamic_dims_are_the_sample(self):
        model = mlp()
        x = torch.randn(2, 8)
        loaded = aot_torch.LoaderOutput(model, [x])
        path = aot_torch.reference(loaded, self.path("same.npz"),
                                   function="f", other_sizes=True)
        with np.load(path) as ref:
            np.testing.assert_array_equal(ref["f/arg0"], x.numpy())

    def test_function_name_follows_the_importer(self):
        self.assertEqual(aot_torch.function_name("torch_jit"), "torch_jit")
        self.assertEqual(aot_torch.function_name("main graph"), "main_graph")
        self.assertEqual(aot_torch.function_name("__x"), "_x")
        self.assertEqual(aot_torch.function_name("3d"), "main_3d")
        self.assertEqual(aot_torch.function_name(""), "main")

    def test_given_function_name_and_several_results(self):
        model = TwoResults()
        x, y = torch.randn(2, 3), torch.randn(3, 4)
        path = aot_torch.reference(aot_torch.LoaderOutput(model, (x, y)),
                                   self.path("ref"), function="f")
        with np.load(path) as ref:
            self.assertEqual(sorted(ref.files),
                             ["f/arg0", "f/arg1", "f/result0", "f/result1"])
            np.testing.assert_array_equal(ref["f/result1"],
                                          model(x, y)[1].detach().numpy())


class CommandLine(Base):
    def run_cli(self, *args):
        with open(self.path("loader_mod.py"), "w") as f:
            f.write(LOADER)
        return subprocess.run(
            [sys.executable, "-m", "mlir_aot.torch",
             "--pythonpath", self.dir] + list(args),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def test_writes_the_onnx_and_the_reference(self):
        onnx_path, npz = self.path("out/m.onnx"), self.path("out/m.npz")
        run = self.run_cli("--loader", "loader_mod:load", "--onnx", onnx_path,
                           "--reference", npz)
        self.assertEqual(run.returncode, 0, run.stderr)
        graph = onnx.load(onnx_path).graph
        self.assertEqual(
            graph.input[0].type.tensor_type.shape.dim[0].dim_param, "x0_d0")
        name = aot_torch.function_name(graph.name)
        torch.manual_seed(1)
        x = torch.randn(3, 5)
        with np.load(npz) as ref:
            np.testing.assert_array_equal(ref[name + "/arg0"], x.numpy())
            np.testing.assert_array_equal(ref[name + "/result0"],
                                          (torch.relu(x) * 3 - 1).numpy())

    def test_writes_the_reference_at_other_sizes(self):
        other = self.path("out/m.other.npz")
        run = self.run_cli("--loader", "loader_mod:load", "--onnx",
                           self.path("out/m.onnx"), "--other-sizes", other)
        self.assertEqual(run.returncode, 0, run.stderr)
        with np.load(other) as ref:
            (arg,) = [k for k in ref.files if k.endswith("/arg0")]
            (result,) = [k for k in ref.files if k.endswith("/result0")]
            x = ref[arg]
            self.assertEqual(x.shape, (2, 5))
            np.testing.assert_array_equal(
                ref[result], (torch.relu(torch.from_numpy(x)) * 3 - 1).numpy())

    def test_errors(self):
        out = ["--onnx", self.path("m.onnx")]
        cases = [
            ("loader_mod", "must be MODULE:FUNCTION"),
            ("nothere:load", "cannot import the loader's module 'nothere'"),
            ("loader_mod:absent", "has no function 'absent'"),
            ("loader_mod:wrong", "returned a tuple, not a mlir_aot.torch."
                                 "LoaderOutput"),
        ]
        for loader, message in cases:
            with self.subTest(loader):
                run = self.run_cli("--loader", loader, *out)
                self.assertEqual(run.returncode, 1, run.stderr)
                self.assertIn("mlir_aot.torch: error: ", run.stderr)
                self.assertIn(message, run.stderr)

    def test_import_mlir_aot_does_not_import_torch(self):
        run = subprocess.run(
            [sys.executable, "-c", "import sys, mlir_aot; "
             "print('torch' in sys.modules, 'onnx' in sys.modules)"],
            stdout=subprocess.PIPE, text=True, check=True)
        self.assertEqual(run.stdout.strip(), "False False")


if __name__ == "__main__":
    unittest.main()
