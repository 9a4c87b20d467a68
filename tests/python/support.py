"""Shared by the Python tests: where things are (environment variables the
ctest registration sets), the numerical comparison of the C++ tests
(aot/abi/Compare.h) in numpy, and the process's resident memory."""

import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np


def env(name):
    value = os.environ.get(name)
    if not value:
        raise unittest.SkipTest("environment variable %s is not set" % name)
    return value


def model_library(name):
    """The shared library of model NAME, as aot-compile -O2 wrote it."""
    return os.path.join(env("AOT_MODEL_LIBRARIES_DIR"), name + ".so")


def c_compiler():
    cc = os.environ.get("AOT_CC") or shutil.which("cc")
    if not cc:
        raise unittest.SkipTest("no C compiler: set AOT_CC")
    return cc


def build_fake(directory, *defines):
    """tests/python/fake_abi.c as a shared library (see its header)."""
    out = os.path.join(directory, "fake_abi%s.so" % "".join(
        "_" + d.split("=")[0].lower() for d in defines))
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "fake_abi.c")
    subprocess.run([c_compiler(), "-shared", "-fPIC", "-o", out, source]
                   + ["-D" + d for d in defines], check=True)
    return out


class TempDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="mlir_aot_test-")
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


class LoadErrorCase(unittest.TestCase):
    """A test case with a temporary directory (self.dir) and a check that
    loading a file fails as it should."""

    def setUp(self):
        self.tmp = TempDir()
        self.dir = self.tmp.__enter__()

    def tearDown(self):
        self.tmp.__exit__(None, None, None)

    def assertLoadError(self, path, *fragments):
        """mlir_aot.load(path) raises a LoadError (an OSError and an
        mlir_aot.Error) whose message names the path and holds every
        fragment."""
        import mlir_aot
        with self.assertRaises(mlir_aot.LoadError) as caught:
            mlir_aot.load(path)
        self.assertIsInstance(caught.exception, OSError)
        self.assertIsInstance(caught.exception, mlir_aot.Error)
        message = str(caught.exception)
        self.assertIn(str(path), message)
        for f in fragments:
            self.assertIn(f, message)


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# ---- comparison ------------------------------------------------------------

_BITS = {np.dtype(np.float16): np.uint16, np.dtype(np.float32): np.uint32,
         np.dtype(np.float64): np.uint64}


def _as_float(a, dtype_name):
    """Values as float64 and bit patterns (for ULP distances) of a float
    array; bf16 arrives as uint16 bits."""
    if dtype_name == "bf16":
        bits = a.astype(np.uint16)
        values = (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)
        return values.astype(np.float64), bits.astype(np.uint64), 16
    bits = a.view(_BITS[a.dtype])
    return a.astype(np.float64), bits.astype(np.uint64), 8 * a.itemsize


def _ulp_distance(a_bits, e_bits, width):
    sign = np.uint64(1) << np.uint64(width - 1)
    ma, me = a_bits & ~sign, e_bits & ~sign
    same = (a_bits & sign) == (e_bits & sign)
    return np.where(same, np.where(ma > me, ma - me, me - ma), ma + me)


def compare(actual, expected, dtype_name, rtol, atol, ulp=-1):
    """(ok, message): integers and bool exactly; floats when both NaN, the
    same infinity, |a - e| <= atol + rtol * |e|, or (ulp >= 0) at most ulp
    units in the last place of the element's own format apart."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    if actual.dtype != expected.dtype:
        return False, "dtype mismatch: actual %s, expected %s" % (
            actual.dtype, expected.dtype)
    if actual.shape != expected.shape:
        return False, "shape mismatch: actual %s, expected %s" % (
            actual.shape, expected.shape)
    if dtype_name in ("f16", "bf16", "f32", "f64"):
        a, a_bits, width = _as_float(actual, dtype_name)
        e, e_bits, _ = _as_float(expected, dtype_name)
        with np.errstate(invalid="ignore", over="ignore"):
            an, en = np.isnan(a), np.isnan(e)
            inf = np.isinf(a) | np.isinf(e)
            finite = ~(an | en | inf)
            diff = np.where(finite, np.abs(a - e), 0.0)
            close = diff <= atol + rtol * np.abs(e)
            if ulp >= 0:
                close |= _ulp_distance(a_bits, e_bits, width) <= np.uint64(ulp)
            ok = np.where(an | en, an & en,
                          np.where(inf, a == e, close))
        max_abs = float(diff.max()) if diff.size else 0.0
        rule = "rtol %g, atol %g%s" % (rtol, atol,
                                        ", ulp %d" % ulp if ulp >= 0 else "")
    else:
        ok = actual == expected
        a, e, max_abs, rule = actual, expected, 0.0, "exact"
    bad = np.flatnonzero(~np.asarray(ok).reshape(-1))
    if bad.size == 0:
        return True, "all %d elements match" % actual.size
    first = np.unravel_index(bad[0], actual.shape)
    return False, ("%d of %d elements differ (%s); first at %s: actual %r, "
                   "expected %r; max abs error %g"
                   % (bad.size, actual.size, rule, list(first),
                      a[first], e[first], max_abs))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path
