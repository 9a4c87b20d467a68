"""What a careless or hostile file does to the Python module: a damaged
library, a manifest nested a million deep, a FIFO where a file belongs, a
library whose manifest disagrees with its code, compiled code that crashes.
Each is an mlir_aot.Error, and the interpreter survives.

Environment: AOT_COMPILE (aot-compile), AOT_MODEL_LIBRARIES_DIR."""

import os
import shutil
import stat
import struct
import subprocess
import sys
import time
import unittest

import numpy as np

import mlir_aot
from support import (LoadErrorCase, TempDir, env, model_library, read_bytes,
                     write_bytes)

HERE = os.path.dirname(os.path.abspath(__file__))
PATCH_MANIFEST = os.path.join(HERE, "..", "bad_input", "tools",
                              "patch-manifest.py")
WEIGHTS_MODEL = os.path.join(HERE, "..", "cli", "Inputs", "weights_model.py")

# Traps of the compiled code: an integer division by zero (SIGFPE on x86)
# and a failed cf.assert (abort).
TRAPS = """
func.func @divide(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @check(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %ok = arith.cmpi sge, %x, %zero : i32
  cf.assert %ok, "x must not be negative"
  return %x : i32
}
"""


def compile_to(directory, source_text, name, *options):
    source = os.path.join(directory, name + ".mlir")
    with open(source, "w") as f:
        f.write(source_text)
    out = os.path.join(directory, name + ".so")
    subprocess.run([env("AOT_COMPILE"), source, "-o", out] + list(options),
                   check=True)
    return out


class DamagedFiles(LoadErrorCase):
    def header_patched(self, name, offset, fmt, value):
        data = bytearray(read_bytes(model_library("identity_multi")))
        struct.pack_into(fmt, data, offset, value)
        return write_bytes(os.path.join(self.dir, name), bytes(data))

    def test_section_headers_far_past_the_end(self):
        # e_shoff = 2^60 (was: OSError from seek, or MemoryError).
        path = self.header_patched("far.so", 0x28, "<Q", 1 << 60)
        self.assertLoadError(path, "truncated ELF file", "beyond its end")

    def test_section_of_an_absurd_size(self):
        # The section name table's sh_size = 2^62 (was: MemoryError).
        data = read_bytes(model_library("identity_multi"))
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, _, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        path = self.header_patched("huge.so", shoff + shstrndx * shentsize
                                   + 32, "<Q", 1 << 62)
        self.assertLoadError(path, "truncated ELF file", "beyond its end")

    def test_manifest_nested_a_million_deep(self):
        objcopy = shutil.which("objcopy")
        if not objcopy:
            self.skipTest("objcopy (binutils) is not installed")
        obj = os.path.join(self.dir, "k.o")
        source = os.path.join(env("AOT_MODELS_DIR"), "identity_multi.mlir")
        subprocess.run([env("AOT_COMPILE"), source, "-o", obj], check=True)
        deep = write_bytes(os.path.join(self.dir, "deep.json"),
                           b"[" * 1000000 + b"\0")
        out = os.path.join(self.dir, "deep.o")
        subprocess.run([objcopy, "--update-section",
                        "aot_manifest=" + deep, obj, out], check=True)
        self.assertLoadError(out, "embedded manifest is not valid JSON",
                             "nested too deeply")

    def test_fifo_in_place_of_the_library(self):
        path = os.path.join(self.dir, "fifo.so")
        os.mkfifo(path)
        start = time.monotonic()
        self.assertLoadError(path, "it is a pipe or FIFO, not a regular file")
        self.assertLess(time.monotonic() - start, 10)


class Weights(unittest.TestCase):
    def setUp(self):
        self.tmp = TempDir()
        self.dir = self.tmp.__enter__()
        model = subprocess.run([sys.executable, WEIGHTS_MODEL], check=True,
                               capture_output=True, text=True).stdout
        self.built = os.path.join(self.dir, "built")
        os.mkdir(self.built)
        self.library = compile_to(
            self.built, model, "w",
            "--external-weights=" + os.path.join(self.built,
                                                 "w.safetensors"))
        self.x = (np.arange(256, dtype=np.float32) % 7).reshape(4, 64)

    def tearDown(self):
        self.tmp.__exit__(None, None, None)

    def test_library_moved_with_its_weights(self):
        # Not loaded before the move: the dynamic loader would hand back the
        # library it has (the same file), known by its old path.
        moved = os.path.join(self.dir, "moved")
        os.rename(self.built, moved)
        after = mlir_aot.load(os.path.join(moved, "w.so")).f(self.x)
        w = np.array([((k * 37) % 101 - 50) / 64 for k in range(2048)],
                     np.float32).reshape(64, 32)
        np.testing.assert_allclose(after, self.x @ w + np.arange(32),
                                   rtol=1e-5)

    def test_weights_replaced_by_a_fifo(self):
        weights = os.path.join(self.built, "w.safetensors")
        os.remove(weights)
        os.mkfifo(weights)
        start = time.monotonic()
        with self.assertRaises(mlir_aot.LoadError) as caught:
            mlir_aot.load(self.library)
        self.assertIn("is not a regular file (a FIFO)", str(caught.exception))
        self.assertLess(time.monotonic() - start, 10)


class CompiledCodeThatCrashes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = TempDir()
        cls.dir = cls.tmp.__enter__()
        cls.m = mlir_aot.load(compile_to(cls.dir, TRAPS, "traps"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.__exit__(None, None, None)

    def test_division_by_zero(self):
        a = np.array([8, 9, 10, 11], np.int32)
        with self.assertRaises(mlir_aot.CrashError) as caught:
            self.m.divide(a, np.array([1, 0, 1, 1], np.int32))
        self.assertIsInstance(caught.exception, mlir_aot.Error)
        self.assertEqual(caught.exception.signal, 8)  # SIGFPE
        self.assertIn("divide: the compiled code crashed: SIGFPE",
                      str(caught.exception))
        # The interpreter and the module go on.
        np.testing.assert_array_equal(
            self.m.divide(a, np.array([2, 3, 5, 1], np.int32)),
            [4, 3, 2, 11])

    def test_failed_assertion_aborts_the_call_only(self):
        with self.assertRaises(mlir_aot.CrashError) as caught:
            self.m.check(-1)
        self.assertIn("SIGABRT", str(caught.exception))
        self.assertEqual(self.m.check(7), 7)


class ManifestDisagreesWithCode(unittest.TestCase):
    def test_result_descriptors_are_checked(self):
        with TempDir() as d:
            source = os.path.join(env("AOT_MODELS_DIR"), "..", "cli",
                                  "Inputs", "kernels.mlir")
            k = os.path.join(d, "k.so")
            subprocess.run([env("AOT_COMPILE"), source, "-o", k], check=True)
            a = np.ones((4, 8), np.float32)
            for shape, problem in (([4, 9], "the code returned shape (4, 8)"),
                                   ([32], "a descriptor of a higher rank"),
                                   ([4, 8, 1], "a descriptor of a lower rank")):
                out = os.path.join(d, "patched%d.so" % len(shape))
                subprocess.run([sys.executable, PATCH_MANIFEST, k, out,
                                "m['functions'][0]['results'][0]['shape'] = "
                                + repr(shape)], check=True)
                with self.assertRaises(mlir_aot.CallError) as caught:
                    mlir_aot.load(out).add(a, a)
                self.assertIn("add: result 0 is not of the type its manifest "
                              "says", str(caught.exception))
                self.assertIn(problem, str(caught.exception))
            # The library as compiled.
            np.testing.assert_array_equal(mlir_aot.load(k).add(a, a), 2 * a)


if __name__ == "__main__":
    unittest.main()
