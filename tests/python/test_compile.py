"""mlir_aot.compile(): aot-compile run on a .mlir file, the library loaded;
compile errors carry the compiler's diagnostics; aot-compile is found from
$AOT_COMPILE or beside an installed package; external weights are loaded
with the library.

Environment: AOT_COMPILE (aot-compile), AOT_MODELS_DIR (tests/models),
AOT_MODEL_LIBRARIES_DIR (const_weights.so)."""

import os
import shutil
import subprocess
import sys
import unittest

import numpy as np

import mlir_aot
from support import TempDir, env, model_library

ADD_SCALE = """
func.func @add_scale(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>, %s: f32) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<?x8xf32>, tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    %u = arith.mulf %t, %s : f32
    linalg.yield %u : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
"""

BROKEN = """
func.func @broken(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %x, %undefined : tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


class Compile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        env("AOT_COMPILE")

    def setUp(self):
        self.tmp = TempDir()
        self.dir = self.tmp.__enter__()

    def tearDown(self):
        self.tmp.__exit__(None, None, None)

    def inputs(self):
        rng = np.random.default_rng(3)
        return (rng.random((5, 8), dtype=np.float32),
                rng.random((5, 8), dtype=np.float32))

    def test_compile_into_a_temporary_directory_and_call(self):
        source = write(os.path.join(self.dir, "add_scale.mlir"), ADD_SCALE)
        m = mlir_aot.compile(source)
        self.assertEqual(m.name, "add_scale")
        self.assertEqual(m.functions, ("add_scale",))
        # The temporary library is gone; the loaded code stays.
        self.assertFalse(os.path.exists(m.path))
        x, y = self.inputs()
        np.testing.assert_allclose(m.add_scale(x, y, 3.0), (x + y) * 3,
                                   rtol=1e-6)

    def test_options(self):
        source = write(os.path.join(self.dir, "add_scale.mlir"), ADD_SCALE)
        x, y = self.inputs()
        for opt, threads, target in ((0, None, None), (3, 1, "host"),
                                     (2, 2, None)):
            output = os.path.join(self.dir, "m%d.so" % opt)
            m = mlir_aot.compile(source, opt=opt, threads=threads,
                                 target=target, output=output)
            self.assertEqual(m.path, output)
            self.assertTrue(os.path.isfile(output))
            self.assertEqual(mlir_aot.read_manifests(output), [m.manifest])
            np.testing.assert_allclose(m.add_scale(x, y, 0.5),
                                       (x + y) * 0.5, rtol=1e-6)
        with self.assertRaises(ValueError):
            mlir_aot.compile(source, opt=4)
        with self.assertRaises(ValueError):
            mlir_aot.compile(source, threads=-1)

    def test_a_compile_error_carries_the_diagnostics(self):
        source = write(os.path.join(self.dir, "broken.mlir"), BROKEN)
        with self.assertRaises(mlir_aot.CompileError) as caught:
            mlir_aot.compile(source)
        e = caught.exception
        self.assertIsInstance(e, RuntimeError)
        self.assertIn("aot-compile failed on %s" % source, str(e))
        self.assertIn("broken.mlir:3", str(e))
        self.assertIn("error: use of undeclared SSA value name", str(e))
        self.assertIn("broken.mlir:3", e.stderr)
        self.assertNotEqual(e.returncode, 0)
        self.assertEqual(os.listdir(self.dir), ["broken.mlir"])

    def test_a_missing_source(self):
        with self.assertRaises(mlir_aot.CompileError) as caught:
            mlir_aot.compile(os.path.join(self.dir, "none.mlir"))
        self.assertIn("none.mlir: no such file", str(caught.exception))

    def test_a_bad_AOT_COMPILE(self):
        saved = os.environ["AOT_COMPILE"]
        os.environ["AOT_COMPILE"] = os.path.join(self.dir, "nothing")
        try:
            with self.assertRaises(mlir_aot.Error) as caught:
                mlir_aot.find_compiler()
            self.assertIn("$AOT_COMPILE names", str(caught.exception))
        finally:
            os.environ["AOT_COMPILE"] = saved

    def test_not_found(self):
        child = dict(os.environ, PATH="/nonexistent")
        del child["AOT_COMPILE"]
        found = subprocess.run(
            [sys.executable, "-c",
             "import mlir_aot; mlir_aot.find_compiler()"],
            env=child, stderr=subprocess.PIPE, text=True)
        self.assertNotEqual(found.returncode, 0)
        self.assertIn("mlir_aot.Error: cannot find aot-compile: set "
                      "$AOT_COMPILE to its path or put it on PATH",
                      found.stderr)

    def test_found_beside_an_installed_package(self):
        package = os.path.dirname(mlir_aot.__file__)
        for libdir in ("lib", "lib/x86_64-linux-gnu"):
            prefix = os.path.join(self.dir, libdir.replace("/", "_"))
            site = os.path.join(prefix, libdir, "python3", "dist-packages")
            shutil.copytree(package, os.path.join(site, "mlir_aot"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            os.makedirs(os.path.join(prefix, "bin"))
            compiler = os.path.join(prefix, "bin", "aot-compile")
            os.symlink(os.environ["AOT_COMPILE"], compiler)
            child = dict(os.environ, PYTHONPATH=site, PATH="/nonexistent")
            del child["AOT_COMPILE"]
            found = subprocess.run(
                [sys.executable, "-c",
                 "import mlir_aot; print(mlir_aot.find_compiler())"],
                env=child, check=True, stdout=subprocess.PIPE, text=True)
            self.assertEqual(found.stdout.strip(), compiler)

    def test_external_weights(self):
        source = os.path.join(env("AOT_MODELS_DIR"), "const_weights.mlir")
        weights = os.path.join(self.dir, "weights.safetensors")
        m = mlir_aot.compile(source, opt=2, output=os.path.join(
            self.dir, "external.so"),
            extra_args=["--external-weights=" + weights])
        self.assertIn("weights", m.manifest)
        embedded = mlir_aot.load(model_library("const_weights"))
        x = np.random.default_rng(4).random((4, 64), dtype=np.float32)
        for name in ("f32_weight", "bf16_weight"):
            if name in m:
                np.testing.assert_array_equal(m[name](x), embedded[name](x))
        # Loaded with the library: a missing file fails the load.
        again = os.path.join(self.dir, "again")
        os.mkdir(again)
        subprocess.run([mlir_aot.find_compiler(), source, "-o",
                        os.path.join(again, "m.so"),
                        "--external-weights=" + os.path.join(
                            again, "w.safetensors")], check=True)
        os.remove(os.path.join(again, "w.safetensors"))
        with self.assertRaises(mlir_aot.LoadError) as caught:
            mlir_aot.load(os.path.join(again, "m.so"))
        self.assertIn("cannot load module 'const_weights'",
                      str(caught.exception))
        self.assertIn("w.safetensors", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
