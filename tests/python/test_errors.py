"""Every mistake a caller can make is a Python exception of the documented
type whose message names the function, the argument and what was expected;
nothing reaches the compiled code.

Environment: AOT_MODEL_LIBRARIES_DIR (identity_multi.so, scalars.so,
dtypes.so), AOT_CC (optional: a C compiler for the hand-made libraries)."""

import os
import subprocess
import unittest

import numpy as np

import mlir_aot
from support import (LoadErrorCase, TempDir, build_fake, c_compiler,
                     model_library, read_bytes, write_bytes)


class CallErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m = mlir_aot.load(model_library("identity_multi"))
        cls.s = mlir_aot.load(model_library("scalars"))
        cls.d = mlir_aot.load(model_library("dtypes"))
        cls.x = np.zeros((6, 5), np.float32)

    def raises(self, types, *fragments):
        """A context asserting an exception of all `types` whose message
        holds every fragment."""
        test = self

        class Check:
            def __enter__(self):
                return self

            def __exit__(self, kind, value, tb):
                test.assertIsNotNone(kind, "no exception raised")
                for t in types:
                    test.assertIsInstance(value, t)
                for f in fragments:
                    test.assertIn(f, str(value))
                return True

        return Check()

    def test_wrong_dtype(self):
        with self.raises((mlir_aot.ArgumentTypeError, TypeError,
                          mlir_aot.Error),
                         "row_stats: argument 0 has dtype float64, but the "
                         "function takes tensor<6x5xf32>"):
            self.m.row_stats(np.zeros((6, 5)))

    def test_wrong_dtype_is_not_cast_even_when_lossless(self):
        with self.raises((TypeError,), "argument 1 has dtype int8",
                         "tensor<5xi16>"):
            self.m.swap(np.zeros((2, 3), np.float32), np.zeros(5, np.int8))

    def test_byte_order_is_part_of_the_dtype(self):
        with self.raises((TypeError,), "argument 0 has dtype >f4"):
            self.m.row_stats(np.zeros((6, 5), ">f4"))

    def test_bf16_takes_uint16_bits(self):
        with self.raises((TypeError,), "dt_bf16: argument 0 has dtype "
                         "float32", "tensor<4x8xbf16>", "uint16"):
            self.d.dt_bf16(np.zeros((4, 8), np.float32),
                           np.zeros((4, 8), np.uint16))

    def test_wrong_rank(self):
        with self.raises((mlir_aot.ArgumentValueError, ValueError),
                         "row_stats: argument 0 has rank 1 (shape (30,)), "
                         "but the function takes tensor<6x5xf32>"):
            self.m.row_stats(np.zeros(30, np.float32))

    def test_wrong_static_dim(self):
        with self.raises((mlir_aot.ArgumentValueError, ValueError),
                         "row_stats: argument 0 has shape (6, 4), but the "
                         "function takes tensor<6x5xf32> (dim 1 must be 5)"):
            self.m.row_stats(np.zeros((6, 4), np.float32))

    def test_missing_argument(self):
        with self.raises((mlir_aot.ArgumentTypeError, TypeError),
                         "swap: missing argument 1 (tensor<5xi16>)",
                         "1 argument given, but the function takes 2"):
            self.m.swap(np.zeros((2, 3), np.float32))

    def test_extra_argument(self):
        with self.raises((mlir_aot.ArgumentTypeError, TypeError),
                         "row_stats: 2 arguments given, but the function "
                         "takes 1: row_stats(arg0: tensor<6x5xf32>)"):
            self.m.row_stats(self.x, self.x)

    def test_keyword_arguments(self):
        with self.raises((TypeError,), "row_stats: has no argument named "
                         "'arg1'"):
            self.m.row_stats(self.x, arg1=self.x)
        with self.raises((TypeError,), "row_stats: argument 0 (arg0) given "
                         "twice"):
            self.m.row_stats(self.x, arg0=self.x)
        with self.raises((TypeError,), "row_stats: has no argument named "
                         "'x'"):
            self.m.row_stats(x=self.x)

    def test_scalar_where_a_tensor_is_expected(self):
        with self.raises((mlir_aot.ArgumentTypeError, TypeError),
                         "row_stats: argument 0 is a float, but the function "
                         "takes tensor<6x5xf32>"):
            self.m.row_stats(1.0)
        with self.raises((TypeError,), "argument 0 is a numpy float32 "
                         "scalar"):
            self.m.row_stats(np.float32(1))
        with self.raises((TypeError,), "argument 0 is a list"):
            self.m.row_stats([[0.0] * 5] * 6)

    def test_tensor_where_a_scalar_is_expected(self):
        with self.raises((mlir_aot.ArgumentTypeError, TypeError),
                         "add_i32_scalar: argument 1 is a numpy array of "
                         "dtype int32 and shape (2,), but the function takes "
                         "a scalar of type i32"):
            self.s.add_i32_scalar(np.zeros(8, np.int32),
                                  np.zeros(2, np.int32))

    def test_scalar_of_the_wrong_kind(self):
        with self.raises((TypeError,), "add_i32_scalar: argument 1 is a "
                         "float, but the function takes a scalar of type "
                         "i32"):
            self.s.add_i32_scalar(np.zeros(8, np.int32), 1.0)
        with self.raises((TypeError,), "argument 1 is a bool"):
            self.s.add_i32_scalar(np.zeros(8, np.int32), True)
        with self.raises((TypeError,), "axpy: argument 0 is a str"):
            self.s.axpy("2", np.zeros(16, np.float32),
                        np.zeros(16, np.float32))

    def test_integer_scalar_out_of_range(self):
        with self.raises((mlir_aot.ArgumentValueError, ValueError),
                         "add_i32_scalar: argument 1 = 2147483648 is out of "
                         "range for i32 [-2147483648, 2147483647]"):
            self.s.add_i32_scalar(np.zeros(8, np.int32), 2 ** 31)
        args = [True, 1, 1, 1, 1, 1.0, 1.0]
        for i, bad, text in ((0, 2, "[0, 1]"), (1, 128, "[-128, 127]"),
                             (1, np.int64(-129), "[-128, 127]"),
                             (2, 1 << 15, "[-32768, 32767]"),
                             (4, 1 << 63, "[-9223372036854775808, "
                                          "9223372036854775807]")):
            call = list(args)
            call[i] = bad
            with self.raises((ValueError,), "pack_scalars: argument %d = " % i,
                             "out of range", text):
                self.s.pack_scalars(*call)

    def test_float_scalar_overflow(self):
        with self.raises((ValueError,), "axpy: argument 0 = 1e+39 is out of "
                         "range for f32"):
            self.s.axpy(1e39, np.zeros(16, np.float32),
                        np.zeros(16, np.float32))

    def test_unknown_function(self):
        with self.raises((mlir_aot.UnknownFunctionError, AttributeError),
                         "module 'identity_multi'", "has no function 'nope'",
                         "its functions: identity, identity_dyn_i64, swap, "
                         "same_twice, pass_and_double, row_stats"):
            self.m.nope
        with self.raises((KeyError,), "has no function 'nope'"):
            self.m["nope"]
        self.assertFalse(hasattr(self.m, "nope"))
        self.assertNotIn("nope", self.m)

    def test_nothing_was_called_after_an_error(self):
        # A failed check leaves the arguments alone and later calls work.
        x = np.arange(30, dtype=np.float32).reshape(6, 5)
        with self.assertRaises(TypeError):
            self.m.row_stats(x, x)
        lo, hi, centred, total = self.m.row_stats(x)
        np.testing.assert_array_equal(lo, x.min(axis=1))
        self.assertEqual(float(total), float(x.sum()))


class LoadErrors(LoadErrorCase):
    def patched(self, source, old, new, name="patched.so"):
        data = read_bytes(source)
        self.assertIn(old, data)
        return write_bytes(os.path.join(self.dir, name),
                           data.replace(old, new, 1))

    def test_missing_file(self):
        path = os.path.join(self.dir, "missing.so")
        self.assertLoadError(path, "cannot read", "No such file")

    def test_text_file(self):
        path = os.path.join(self.dir, "model.mlir")
        with open(path, "w") as f:
            f.write("func.func @f() { return }\n")
        self.assertLoadError(path, "holds no manifest", "not an ELF file",
                             "not compiled by mlir-aot")

    def test_plain_shared_library(self):
        source = os.path.join(self.dir, "plain.c")
        with open(source, "w") as f:
            f.write("int answer(void) { return 42; }\n")
        path = os.path.join(self.dir, "plain.so")
        subprocess.run([c_compiler(), "-shared", "-fPIC", "-o", path, source],
                       check=True)
        self.assertLoadError(path, "holds no manifest",
                             "no section 'aot_manifest'",
                             "not compiled by mlir-aot")

    def test_32_bit_elf(self):
        data = bytearray(read_bytes(model_library("identity_multi")))
        data[4] = 1  # ELFCLASS32
        path = write_bytes(os.path.join(self.dir, "elf32.so"), bytes(data))
        self.assertLoadError(path, "not a 64-bit little-endian ELF file")

    def test_truncated(self):
        data = read_bytes(model_library("identity_multi"))
        path = write_bytes(os.path.join(self.dir, "truncated.so"),
                           data[:4096])
        self.assertLoadError(path, "truncated ELF file")

    def test_other_machine(self):
        data = bytearray(read_bytes(model_library("identity_multi")))
        # e_machine: aarch64 on an x86-64 host, x86-64 elsewhere.
        other = 183 if data[0x12] == 62 else 62
        data[0x12:0x14] = other.to_bytes(2, "little")
        path = write_bytes(os.path.join(self.dir, "foreign.so"), bytes(data))
        self.assertLoadError(path, "code (target host), which cannot run in "
                             "this")

    def test_invalid_manifest_json(self):
        path = self.patched(model_library("identity_multi"),
                            b'{"abi_version"', b'X"abi_version"')
        self.assertLoadError(path, "embedded manifest is not valid JSON")

    def test_unknown_dtype_in_manifest(self):
        path = self.patched(model_library("identity_multi"),
                            b'"dtype":"f32"', b'"dtype":"f33"')
        self.assertLoadError(path, "manifest is invalid",
                             "unknown element type 'f33'")

    def test_manifest_without_a_module_name(self):
        path = self.patched(build_fake(self.dir), b'"module":"fake_abi"',
                            b'"module":1234567890')
        self.assertLoadError(path, "its manifest has no valid 'module'")

    def test_manifest_function_without_a_name(self):
        path = self.patched(build_fake(self.dir), b'"name":"identity"',
                            b'"nome":"identity"')
        self.assertLoadError(path, "manifest is invalid", "functions[0]",
                             'needs "name", "args" and "results"')

    def test_malformed_weights_entry(self):
        path = build_fake(self.dir, "FAKE_BAD_WEIGHTS")
        self.assertLoadError(path, "manifest is invalid", "weights: needs "
                             '"file" and "load" strings')

    def test_other_abi_version(self):
        path = build_fake(self.dir, "FAKE_ABI_VERSION=2")
        self.assertLoadError(path, "abi_version 2", "reads abi_version 1")

    def test_two_modules(self):
        path = build_fake(self.dir, "FAKE_TWO_MODULES")
        self.assertLoadError(path, "holds 2 modules; a shared library to "
                             "load holds one")

    def test_missing_entry_point(self):
        path = self.patched(build_fake(self.dir), b'"name":"identity"',
                            b'"name":"identitx"')
        self.assertLoadError(path, "has no symbol '_aot_invoke_identitx'")

    def test_object_file_is_not_loadable(self):
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              "fake_abi.c")
        path = os.path.join(self.dir, "fake_abi.o")
        subprocess.run([c_compiler(), "-c", "-fPIC", "-o", path, source],
                       check=True)
        self.assertEqual(mlir_aot.read_manifests(path)[0]["module"],
                         "fake_abi")
        self.assertLoadError(path, "cannot load")


class GpuErrors(unittest.TestCase):
    def test_a_failed_gpu_call_raises_with_the_runtime_error(self):
        with TempDir() as d:
            m = mlir_aot.load(build_fake(d, "FAKE_CUDA"))
            self.assertEqual(m.target, "cuda:sm_90")
            with self.assertRaises(mlir_aot.CallError) as caught:
                m.pass_and_double(np.arange(4, dtype=np.int32))
            self.assertEqual(caught.exception.status, 2)
            self.assertIn("pass_and_double: the call failed on the GPU: "
                          "cuMemAlloc of 64 bytes: CUDA_ERROR_OUT_OF_MEMORY",
                          str(caught.exception))


if __name__ == "__main__":
    unittest.main()
