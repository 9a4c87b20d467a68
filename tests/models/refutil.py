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
  * i4 is stored as int8 holding its value (-8..7).
  * the 8-bit floats (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ) are stored as uint8
    arrays of their bit patterns (f8_bits / f8_to_f32 below).
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
# 8-bit float helpers, from the formats' definitions: every code decoded by
# its fields, and rounding done by searching the decoded values.
# ---------------------------------------------------------------------------

# name: (mantissa bits, exponent bias, specials), specials one of
#   "ieee"  the top exponent holds inf (mantissa 0) and NaN (f8E5M2)
#   "fn"    no inf; only S.1111.111 is NaN (f8E4M3FN)
#   "fnuz"  no inf, no -0: 0x80 is the only NaN
F8_FORMATS = {
    "f8E4M3FN": (3, 7, "fn"),
    "f8E5M2": (2, 15, "ieee"),
    "f8E4M3FNUZ": (3, 8, "fnuz"),
    "f8E5M2FNUZ": (2, 16, "fnuz"),
}


def f8_decode_table(fmt):
    """The float64 value of each of the 256 codes of `fmt` (NaN where NaN)."""
    mant, bias, specials = F8_FORMATS[fmt]
    top = 0x7F >> mant
    values = np.empty(256, dtype=np.float64)
    for code in range(256):
        sign = -1.0 if code & 0x80 else 1.0
        mag = code & 0x7F
        e, m = mag >> mant, mag & ((1 << mant) - 1)
        if e == 0:
            v = m * 2.0 ** (1 - bias - mant)
        else:
            v = (1 + m / 2.0 ** mant) * 2.0 ** (e - bias)
        if specials == "ieee" and e == top:
            v = np.inf if m == 0 else np.nan
        if specials == "fn" and mag == 0x7F:
            v = np.nan
        if specials == "fnuz" and code == 0x80:
            v = np.nan
        values[code] = sign * v
    return values


def f8_to_f32(bits, fmt):
    """Widen bit patterns (uint8) of `fmt` to float32 values (exact)."""
    return f8_decode_table(fmt)[np.asarray(bits, dtype=np.uint8)].astype(np.float32)


def f8_bits(x, fmt):
    """Round values to `fmt`, to nearest with ties to the even code; past the
    largest finite value (at or beyond half an ulp more, ties to even) to inf
    for f8E5M2, to NaN for the others. Returns uint8 bit patterns."""
    mant, bias, specials = F8_FORMATS[fmt]
    table = f8_decode_table(fmt)
    codes = np.array([c for c in range(128) if np.isfinite(table[c])])
    values = table[codes]
    order = np.argsort(values)
    codes, values = codes[order], values[order]
    top_ulp = 2.0 ** (np.floor(np.log2(values[-1])) - mant)
    halfway = values[-1] + top_ulp / 2
    nan_code = {"ieee": 0x7E, "fn": 0x7F, "fnuz": 0x80}[specials]
    over_code = 0x7C if specials == "ieee" else nan_code
    out = []
    for v in np.asarray(x, dtype=np.float64).ravel():
        sign = 0x80 if np.signbit(v) else 0
        a = abs(v)
        if np.isnan(v):
            code = nan_code | (0 if specials == "fnuz" else sign)
        elif a > halfway or (a == halfway and codes[-1] % 2 == 1):
            code = over_code | (0 if specials == "fnuz" else sign)
        else:
            i = np.searchsorted(values, a)
            if i == len(values):
                code = codes[-1]
            elif values[i] == a or i == 0:
                code = codes[i]
            else:
                lo, hi = values[i - 1], values[i]
                if a - lo < hi - a or (a - lo == hi - a and codes[i - 1] % 2 == 0):
                    code = codes[i - 1]
                else:
                    code = codes[i]
            if specials == "fnuz" and code == 0:
                sign = 0
            code = int(code) | sign
        out.append(code)
    return np.array(out, dtype=np.uint8).reshape(np.shape(x))


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
    "i4": np.dtype(np.int8),  # values, -8..7
    "f8E4M3FN": np.dtype(np.uint8),  # bit patterns
    "f8E5M2": np.dtype(np.uint8),
    "f8E4M3FNUZ": np.dtype(np.uint8),
    "f8E5M2FNUZ": np.dtype(np.uint8),
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
