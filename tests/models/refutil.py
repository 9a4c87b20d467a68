"""Shared helpers for the numpy reference scripts of the model zoo.

Every model NAME.mlir in this directory has a script NAME.py, run as

    /usr/bin/python3 NAME.py OUT.npz

which writes OUT.npz (np.savez, uncompressed) holding, for every public function FUNC
of the module:

    "FUNC/arg0", "FUNC/arg1", ...        the inputs, in argument order
    "FUNC/result0", "FUNC/result1", ...  the expected results, in result order

Conventions:
  * integers are signless in MLIR and are stored as signed numpy integers
    (i8 -> int8, i16 -> int16, i32 -> int32, i64 -> int64); i1 is numpy bool.
  * f16 is numpy float16, f32 float32, f64 float64.
  * bf16 has no numpy dtype: bf16 tensors are stored as uint16 arrays holding the bf16
    bit patterns (the upper 16 bits of the equivalent float32).
  * scalar arguments (f32, i32, ...) are stored as 0-d arrays of the scalar's dtype.
  * a rank-0 tensor result (tensor<f32>) is a 0-d array.

Each script also carries its comparison tolerance as a comment line of the form
    # tolerance: rtol=1e-5 atol=1e-6
(optionally followed by " ulp=N"), read by the numerics tests. Integer and bool results
are always compared exactly.
"""

import sys

import numpy as np

# ---------------------------------------------------------------------------
# bf16 helpers
# ---------------------------------------------------------------------------


def bf16_bits(x):
    """Round float values to bf16 (round to nearest, ties to even, on the float32 bit
    pattern) and return the bf16 bit patterns as uint16. NaN stays a quiet NaN."""
    f = np.asarray(x, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    sh = np.uint64(16)
    lsb = (u >> sh) & np.uint64(1)
    rounded = ((u + np.uint64(0x7FFF) + lsb) >> sh).astype(np.uint16)
    quiet = ((u >> sh) | np.uint64(0x0040)).astype(np.uint16)
    return np.asarray(np.where(np.isnan(f), quiet, rounded), dtype=np.uint16)


def bf16_to_f32(bits):
    """Widen bf16 bit patterns (uint16) to float32 values (exact)."""
    b = np.asarray(bits, dtype=np.uint16).astype(np.uint32) << np.uint32(16)
    return np.asarray(b).view(np.float32)


def bf16_round(x):
    """Round float values to the nearest bf16 value, returned as float32."""
    return bf16_to_f32(bf16_bits(x))


# ---------------------------------------------------------------------------
# reference collection
# ---------------------------------------------------------------------------

# The element types a model may use, and the numpy dtype each is stored as.
NUMPY_DTYPE = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(np.uint16),  # bit patterns
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
}


def scalar(value, dtype):
    """A scalar argument: a 0-d array of the scalar's numpy dtype."""
    return np.array(value, dtype=dtype)


def arg_key(func, i):
    return "%s/arg%d" % (func, i)


def result_key(func, i):
    return "%s/result%d" % (func, i)


class Reference:
    """Collects inputs and expected results of the public functions of one module."""

    def __init__(self):
        self.arrays = {}
        self.funcs = []

    def add(self, func, args, results):
        """Record one function. `args` and `results` are lists of numpy arrays (or
        numpy scalars, which become 0-d arrays). The dtypes must already be the stored
        dtypes (bf16 as uint16 bit patterns)."""
        if func in self.funcs:
            raise ValueError("function %s recorded twice" % func)
        self.funcs.append(func)
        for i, a in enumerate(args):
            self.arrays[arg_key(func, i)] = _checked(func, "arg", i, a)
        for i, r in enumerate(results):
            self.arrays[result_key(func, i)] = _checked(func, "result", i, r)

    def save(self, path):
        np.savez(path, **self.arrays)


def _checked(func, kind, i, a):
    a = np.asarray(a)
    if a.dtype not in NUMPY_DTYPE.values():
        raise TypeError("%s %s%d: unsupported dtype %s" % (func, kind, i, a.dtype))
    return np.array(a, order="C")  # (np.ascontiguousarray would turn 0-d into 1-d)


def main(build):
    """Entry point of a reference script: `build(ref)` fills a Reference, which is
    written to the path given as the single command-line argument."""
    if len(sys.argv) != 2:
        sys.stderr.write("usage: %s OUT.npz\n" % sys.argv[0])
        sys.exit(2)
    ref = Reference()
    with np.errstate(all="ignore"):
        build(ref)
    ref.save(sys.argv[1])


def rng(seed):
    return np.random.default_rng(seed)


def uniform(g, shape, lo=-1.0, hi=1.0, dtype=np.float32):
    return g.uniform(lo, hi, size=shape).astype(dtype)


def ints(g, shape, lo, hi, dtype=np.int32):
    """Random integers in [lo, hi] (inclusive)."""
    return g.integers(lo, hi, size=shape, endpoint=True).astype(dtype)
