"""Reference for math_more.mlir, computed in float64 by numpy (and Python's
math module) and rounded to float32 once."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Polynomial approximations and libm are within a few float32 ulps; rounding,
# classification and integer results are exact.
# tolerance: rtol=1e-5 atol=1e-6


def f32(values):
    return np.asarray(values, dtype=np.float64).astype(np.float32)


def cbrt(x):
    return np.cbrt(x)


def erfc(x):
    return np.array([math.erfc(v) for v in x])


def round_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def bits(n, fn):
    return np.array([fn(int(v) & 0xFFFFFFFF) for v in n], dtype=np.int32)


def ctlz(u):
    return 32 - u.bit_length()


def cttz(u):
    return 32 if u == 0 else (u & -u).bit_length() - 1


def build(ref):
    g = ru.rng(5151)
    x = ru.uniform(g, (64,), -0.9, 0.9)
    w = x.astype(np.float64)
    ref.add("unary", [x], [f32(f(w)) for f in (
        np.arccos, np.arcsin, np.arcsinh, np.arctan, np.arctanh, cbrt, np.cos,
        np.cosh, erfc, np.exp2, np.sinh, np.tan)])

    p = ru.uniform(g, (64,), 0.05, 4.0)
    ref.add("logs", [p], [f32(np.log10(p.astype(np.float64))),
                          f32(np.log2(p.astype(np.float64)))])

    # Ties (x.5) both ways, and values that round without one.
    r = ru.uniform(g, (64,), -3.0, 3.0)
    r[:8] = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.0, -0.0]
    ref.add("rounding", [r], [np.ceil(r), np.floor(r), f32(round_half_away(r)),
                              np.round(r), np.trunc(r)])

    a = ru.uniform(g, (64,), 1.1, 3.0)
    ref.add("inverse_cosh", [a], [f32(np.arccosh(a.astype(np.float64)))])

    y = ru.uniform(g, (64,), -0.9, 0.9)
    z = ru.uniform(g, (64,), 0.5, 2.0)
    wx, wy, wz = (v.astype(np.float64) for v in (x, y, z))
    ref.add("binary", [x, y, z], [f32(np.arctan2(wx, wy)),
                                  np.copysign(x, y),
                                  f32(wz ** wx),
                                  f32(wx * wy + wz)])

    c = ru.uniform(g, (64,), -2.0, 2.0)
    tiny = np.float32(1e-39)  # subnormal in float32
    c[:8] = [np.nan, np.inf, -np.inf, tiny, -tiny, 0.0,
             np.finfo(np.float32).tiny, np.finfo(np.float32).max]
    ref.add("classify", [c], [np.isnan(c), np.isinf(c), np.isfinite(c),
                              np.isfinite(c) & (np.abs(c) >= np.finfo(np.float32).tiny)])

    n = ru.ints(g, (64,), -(1 << 31), (1 << 31) - 1)
    n[:4] = [0, -1, -(1 << 31), 1]
    n[4:16] = ru.ints(g, (12,), -7, 7)  # small bases for ipowi
    power = ru.ints(g, (64,), 0, 5)
    ref.add("integer", [n, power], [
        np.abs(n),  # int32: |INT_MIN| wraps to INT_MIN, as in the IR
        bits(n, ctlz), bits(n, cttz), bits(n, lambda u: bin(u).count("1")),
        ipowi_of(n, power)])

    fx = ru.uniform(g, (64,), 0.5, 1.5)
    fp = ru.ints(g, (64,), -4, 4)
    ref.add("fpowi", [fx, fp], [f32(fx.astype(np.float64) ** fp.astype(np.float64))])


def ipowi_of(n, power):
    """n ** power in wrapping 32-bit integer arithmetic, as the IR computes it."""
    out = []
    for v, e in zip(n, power):
        r = 1
        for _ in range(int(e)):
            r = (r * int(v)) & 0xFFFFFFFF
        out.append(r - (1 << 32) if r >= (1 << 31) else r)
    return np.array(out, dtype=np.int32)


if __name__ == "__main__":
    ru.main(build)
