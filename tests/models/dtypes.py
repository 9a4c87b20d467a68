"""Reference for dtypes.mlir (one function per element type).

bf16 tensors are stored as uint16 bit patterns (see refutil.py); the bf16 reference is
computed in float32 and rounded to bf16 (round to nearest even on the bit pattern),
which is the correctly rounded bf16 result for a single add/mul/div.
The f16 reference is computed in numpy float16 (likewise correctly rounded).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Every result is exact: integer ops without overflow, sums of values exactly
# representable in the element type, and single correctly rounded float operations.
# tolerance: rtol=0 atol=0


def build(ref):
    g = ru.rng(1414)

    a = g.integers(0, 2, size=(4, 8)).astype(np.bool_)
    b = g.integers(0, 2, size=(4, 8)).astype(np.bool_)
    b[2] = a[2]  # this row xors to all false
    x = a ^ b
    ref.add("dt_i1", [a, b], [x, x.any(axis=1)])

    a = ru.ints(g, (4, 8), -60, 60, np.int8)
    b = ru.ints(g, (4, 8), -60, 60, np.int8)
    s = (a + b).astype(np.int8)
    ref.add("dt_i8", [a, b], [s, s.max(axis=1)])

    a = ru.ints(g, (4, 8), -50, 50, np.int16)
    b = ru.ints(g, (4, 8), -50, 50, np.int16)
    p = (a * b).astype(np.int16)
    ref.add("dt_i16", [a, b], [p, p.sum(axis=1, dtype=np.int16)])

    a = ru.ints(g, (4, 8), -(1 << 27), 1 << 27, np.int32)
    b = ru.ints(g, (4, 8), -(1 << 27), 1 << 27, np.int32)
    d = (a - b).astype(np.int32)
    ref.add("dt_i32", [a, b], [d, d.sum(axis=0, dtype=np.int32)])

    a = ru.ints(g, (4, 8), -(1 << 30), 1 << 30, np.int64)
    b = ru.ints(g, (4, 8), -(1 << 20), 1 << 20, np.int64)
    p = a * b
    ref.add("dt_i64", [a, b], [p, p.sum(axis=1)])

    # multiples of 0.25 in [-8, 8]: sums of 8 such values are exact in f16
    a = (ru.ints(g, (4, 8), -32, 32) * 0.25).astype(np.float16)
    b = (ru.ints(g, (4, 8), -32, 32) * 0.25).astype(np.float16)
    s = (a + b).astype(np.float16)
    ref.add("dt_f16", [a, b], [s, s.astype(np.float64).sum(axis=1).astype(np.float16)])

    # multiples of 0.5 in [-2, 2] times integers in [-3, 3]: products and their sums
    # (|sum| <= 48, step 0.5) are exact in bf16
    af = (ru.ints(g, (4, 8), -4, 4) * 0.5).astype(np.float32)
    bf = ru.ints(g, (4, 8), -3, 3).astype(np.float32)
    p = af * bf
    assert np.array_equal(ru.bf16_round(p), p)
    r = p.astype(np.float64).sum(axis=1).astype(np.float32)
    assert np.array_equal(ru.bf16_round(r), r)
    ref.add("dt_bf16", [ru.bf16_bits(af), ru.bf16_bits(bf)], [ru.bf16_bits(p), ru.bf16_bits(r)])

    a = ru.uniform(g, (4, 8), -4.0, 4.0)
    b = ru.uniform(g, (4, 8), -4.0, 4.0)
    p = (a * b).astype(np.float32)
    ref.add("dt_f32", [a, b], [p, p.max(axis=1)])

    a = ru.uniform(g, (4, 8), -4.0, 4.0, np.float64)
    b = ru.uniform(g, (4, 8), 0.5, 4.0, np.float64) * np.where(g.random((4, 8)) < 0.5, -1, 1)
    q = a / b
    ref.add("dt_f64", [a, b], [q, q.min(axis=0)])

    # single roundings of random values
    a = ru.uniform(g, (16,), -10.0, 10.0).astype(np.float16)
    b = ru.uniform(g, (16,), 0.1, 10.0).astype(np.float16)
    ref.add("round_f16", [a, b], [(a + b).astype(np.float16), (a * b).astype(np.float16),
                                  (a / b).astype(np.float16)])

    a = ru.bf16_round(ru.uniform(g, (16,), -10.0, 10.0))
    b = ru.bf16_round(ru.uniform(g, (16,), 0.1, 10.0))
    b[0] = ru.bf16_round(np.float32(1e-30))  # tiny divisor: large quotient
    ref.add("round_bf16", [ru.bf16_bits(a), ru.bf16_bits(b)],
            [ru.bf16_bits(a + b), ru.bf16_bits(a * b), ru.bf16_bits(a / b)])


if __name__ == "__main__":
    ru.main(build)
