"""Calling compiled functions: the Module's surface, signatures in help(),
dynamic dims, scalars in and out, dtypes, contiguous arrays passed without
a copy and others copied, calls from several threads.

Environment: AOT_MODEL_LIBRARIES_DIR (identity_multi, scalars, dynamic,
dtypes, arith_tensor_more, matmul .so), AOT_CC (optional)."""

import inspect
import io
import pydoc
import threading
import unittest

import numpy as np

import mlir_aot
from support import TempDir, build_fake, model_library


def load(name):
    return mlir_aot.load(model_library(name))


class ModuleSurface(unittest.TestCase):
    def test_manifest_and_functions(self):
        m = load("identity_multi")
        self.assertEqual(m.name, "identity_multi")
        self.assertEqual(m.target, "host")
        self.assertEqual(m.manifest["abi_version"], mlir_aot.ABI_VERSION)
        self.assertEqual(m.functions, ("identity", "identity_dyn_i64", "swap",
                                       "same_twice", "pass_and_double",
                                       "row_stats"))
        self.assertEqual(m.path, model_library("identity_multi"))
        self.assertIs(m.swap, m["swap"])
        self.assertIn("swap", m)
        self.assertEqual(list(m), list(m.functions))
        self.assertEqual(len(m), 6)
        self.assertIn("row_stats", dir(m))
        self.assertIn("'identity_multi'", repr(m))
        self.assertEqual(mlir_aot.read_manifests(m.path), [m.manifest])
        self.assertEqual(m.swap.manifest["name"], "swap")

    def test_help_shows_the_signature(self):
        m = load("dynamic")
        f = m.dyn_rowsum
        self.assertEqual(f.signature,
                         "dyn_rowsum(arg0: tensor<?x4xf32>) -> tensor<?xf32>")
        self.assertEqual(str(inspect.signature(f)),
                         "(arg0: tensor<?x4xf32>) -> tensor<?xf32>")
        self.assertTrue(f.__doc__.startswith(f.signature))
        self.assertEqual(f.__name__, "dyn_rowsum")
        text = pydoc.render_doc(f, renderer=pydoc.plaintext)
        self.assertIn("dyn_rowsum(arg0: tensor<?x4xf32>) -> tensor<?xf32>",
                      text)
        self.assertIn("numpy array of float32, shape (?, 4)", text)
        out = io.StringIO()
        pydoc.Helper(output=out).help(f)
        self.assertIn("dyn_rowsum(arg0: tensor<?x4xf32>)", out.getvalue())

    def test_signature_with_scalars_and_several_results(self):
        m = load("arith_tensor_more")
        self.assertEqual(m.switches.signature,
                         "switches(arg0: i32, arg1: f32) -> (f32, f32)")
        self.assertIn("arg0: i32 scalar (int)", m.switches.__doc__)
        self.assertIn("0: numpy float32 scalar", m.switches.__doc__)
        s = load("scalars")
        self.assertEqual(
            str(inspect.signature(s.axpy)),
            "(arg0: f32, arg1: tensor<16xf32>, arg2: tensor<16xf32>) -> "
            "tensor<16xf32>")


class Arguments(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.fake = mlir_aot.load(build_fake(cls.tmp.__enter__()))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def test_contiguous_arrays_are_not_copied(self):
        # The hand-made identity returns the very buffer it was given.
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        r = self.fake.identity(x)
        self.assertEqual(r.__array_interface__["data"][0],
                         x.__array_interface__["data"][0])
        # A contiguous slice too (a view, not the start of its base).
        rows = np.arange(24, dtype=np.float32).reshape(6, 4)[3:]
        r = self.fake.identity(rows)
        self.assertEqual(r.__array_interface__["data"][0],
                         rows.__array_interface__["data"][0])

    def test_non_contiguous_arrays_are_copied(self):
        for x in (np.arange(12, dtype=np.float32).reshape(4, 3).T,
                  np.arange(24, dtype=np.float32).reshape(3, 8)[:, ::2],
                  np.arange(12, dtype=np.float32)[::-1].reshape(3, 4)):
            r = self.fake.identity(x)
            self.assertFalse(np.shares_memory(r, x))
            np.testing.assert_array_equal(r, x)
            self.assertTrue(r.flags.c_contiguous)

    def test_misaligned_arrays_are_copied(self):
        raw = np.zeros(12 * 4 + 1, np.uint8)
        x = np.frombuffer(raw.data, dtype=np.float32, count=12,
                          offset=1).reshape(3, 4)
        self.assertFalse(x.flags.aligned)
        r = self.fake.identity(x)
        self.assertTrue(r.flags.aligned)
        np.testing.assert_array_equal(r, x)

    def test_non_contiguous_input_gives_the_right_result(self):
        m = load("dynamic")
        rng = np.random.default_rng(1)
        a = rng.random((12, 10), dtype=np.float32)
        # A transposed and a strided argument.
        lhs = a.T                        # 10 x 12, transposed
        rhs = rng.random((24, 7), dtype=np.float32)[::2]  # 12 x 7, strided
        self.assertFalse(lhs.flags.c_contiguous or rhs.flags.c_contiguous)
        np.testing.assert_allclose(m.dyn_matmul(lhs, rhs), lhs @ rhs,
                                   rtol=1e-5, atol=1e-5)
        x = rng.random((5, 5), dtype=np.float32)
        np.testing.assert_array_equal(m.dyn_transpose(x.T), x)

    def test_dynamic_dims_take_the_arrays_size(self):
        m = load("dynamic")
        for rows in (1, 3, 17):
            x = np.arange(rows * 4, dtype=np.float32).reshape(rows, 4)
            np.testing.assert_array_equal(m.dyn_rowsum(x), x.sum(axis=1))
        self.assertEqual(m.dyn_rowsum(np.zeros((0, 4), np.float32)).shape,
                         (0,))

    def test_no_results_is_none(self):
        self.assertEqual(self.fake.noop.signature, "noop(arg0: f32) -> None")
        self.assertIsNone(self.fake.noop(1.5))

    def test_arguments_by_name(self):
        s = load("scalars")
        x = np.arange(16, dtype=np.float32)
        y = np.ones(16, np.float32)
        np.testing.assert_array_equal(s.axpy(2.0, arg2=y, arg1=x), 2 * x + y)


class Scalars(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = load("scalars")

    def test_every_scalar_type(self):
        r = self.s.pack_scalars(True, -128, 32767, -(2 ** 31), 2 ** 40, 1.5,
                                -2.25)
        np.testing.assert_array_equal(
            r, [1, -128, 32767, -(2 ** 31), 2 ** 40, 1.5, -2.25])

    def test_numpy_scalars_and_zero_d_arrays(self):
        r = self.s.pack_scalars(np.bool_(False), np.int8(-3), np.int64(7),
                                np.array(9, np.int32), np.uint8(5),
                                np.float64(0.5), np.float32(0.25))
        np.testing.assert_array_equal(r, [0, -3, 7, 9, 5, 0.5, 0.25])

    def test_integers_for_floats_and_bools(self):
        r = self.s.pack_scalars(1, 0, 0, 0, 0, 3, np.int16(4))
        np.testing.assert_array_equal(r, [1, 0, 0, 0, 0, 3, 4])

    def test_i1_selects(self):
        x = np.arange(10, dtype=np.float32)
        self.assertFalse(np.array_equal(self.s.select_by_flag(x, True),
                                        self.s.select_by_flag(x, False)))

    def test_scalar_results_are_numpy_scalars(self):
        m = load("arith_tensor_more")
        a, b = m.switches(np.int32(1), 2.5)
        self.assertIsInstance(a, np.float32)
        self.assertIsInstance(b, np.float32)

    def test_rank_0_tensor_results_are_0_d_arrays(self):
        *_, total = load("identity_multi").row_stats(
            np.ones((6, 5), np.float32))
        self.assertIsInstance(total, np.ndarray)
        self.assertEqual(total.shape, ())
        self.assertEqual(float(total), 30.0)


class DTypes(unittest.TestCase):
    def test_bf16_travels_as_uint16_bits(self):
        d = load("dtypes")
        one = np.full((4, 8), 0x3F80, np.uint16)  # bf16 1.0
        two = np.full((4, 8), 0x4000, np.uint16)  # bf16 2.0
        results = d.dt_bf16(one, two)
        for r in results:
            self.assertEqual(r.dtype, np.uint16)

    def test_bf16_from_ml_dtypes(self):
        try:
            import ml_dtypes
        except ImportError:
            self.skipTest("ml_dtypes is not installed (it is optional)")
        d = load("dtypes")
        a = np.ones((4, 8), ml_dtypes.bfloat16)
        bits = a.view(np.uint16)
        for x, y in zip(d.dt_bf16(a, a), d.dt_bf16(bits, bits)):
            np.testing.assert_array_equal(x, y)

    def test_i1_is_bool(self):
        d = load("dtypes")
        a = np.array([[True, False] * 4] * 4)
        results = d.dt_i1(a, ~a)
        for r in results:
            self.assertEqual(r.dtype, np.bool_)
        with self.assertRaises(TypeError):
            d.dt_i1(a.astype(np.uint8), a)

    def test_dtype_table(self):
        self.assertEqual(mlir_aot.DTYPES["bf16"].numpy, np.uint16)
        self.assertEqual(mlir_aot.DTYPES["i1"].numpy, np.bool_)
        self.assertEqual(mlir_aot.DTYPES["f16"].numpy, np.float16)


class Threads(unittest.TestCase):
    def test_concurrent_calls(self):
        m = load("dynamic")
        rng = np.random.default_rng(2)
        inputs = [(rng.random((40, 30), dtype=np.float32),
                   rng.random((30, 20), dtype=np.float32)) for _ in range(8)]
        expected = [m.dyn_matmul(a, b) for a, b in inputs]
        failures = []

        def work(k):
            for _ in range(50):
                a, b = inputs[k]
                if not np.array_equal(m.dyn_matmul(a, b), expected[k]):
                    failures.append(k)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])


if __name__ == "__main__":
    unittest.main()
