"""Reference for int4.mlir: i4 values as int8 in -8..7, every result
computed on Python integers and wrapped to 4 bits as two's complement."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# tolerance: rtol=0 atol=0


def wrap(x):
    """Two's complement wrap to 4 bits, as int8."""
    return ((np.asarray(x, dtype=np.int64) + 8) % 16 - 8).astype(np.int8)


def unsigned(x):
    return np.asarray(x, dtype=np.int64) & 0xF


def trunc_div(a, b):
    """C division: the quotient rounded toward zero."""
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def build(ref):
    g = ru.rng(44)
    a = g.integers(-8, 8, 64).astype(np.int8)
    b = g.integers(-8, 8, 64).astype(np.int8)
    ia, ib = a.astype(np.int64), b.astype(np.int64)
    ref.add("wrapping", [a, b],
            [wrap(ia + ib), wrap(ia - ib), wrap(ia * ib), wrap(ia ^ ib),
             np.maximum(a, b)])

    d = g.integers(1, 8, 64) * np.where(g.random(64) < 0.5, -1, 1)
    d = d.astype(np.int8)
    idv = d.astype(np.int64)
    q = trunc_div(ia, idv)
    ref.add("division", [a, d],
            [wrap(q), wrap(ia - q * idv),
             wrap(unsigned(ia) // unsigned(idv)), wrap(unsigned(ia) % unsigned(idv))])

    s = g.integers(0, 4, 64).astype(np.int8)
    is_ = s.astype(np.int64)
    ref.add("shifts", [a, s],
            [wrap(ia << is_), wrap(ia >> is_), wrap(unsigned(ia) >> is_),
             unsigned(ia) < unsigned(is_)])

    w = g.integers(-1000, 1000, 64).astype(np.int32)
    f = g.uniform(-8.9, 7.9, 64).astype(np.float32)
    ref.add("conversions", [a, w, f],
            [ia.astype(np.int32), unsigned(ia).astype(np.int32), wrap(w),
             ia.astype(np.float32), unsigned(ia).astype(np.float32),
             np.trunc(f).astype(np.int8)])

    x = g.integers(-8, 8, (24, 40)).astype(np.int8)
    y = g.integers(-8, 8, (40, 16)).astype(np.int8)
    ref.add("matmul_i4", [x, y],
            [(x.astype(np.int32) @ y.astype(np.int32)).astype(np.int32)])
    x = g.integers(-128, 128, (13, 37)).astype(np.int8)
    y = g.integers(-8, 8, (37, 11)).astype(np.int8)
    ref.add("matmul_i8_i4_dyn", [x, y],
            [(x.astype(np.int32) @ y.astype(np.int32)).astype(np.int32)])

    c = g.integers(-8, 8, 4).astype(np.int8)
    ref.add("const_i4", [c], [wrap(c.astype(np.int64) + np.array([7, -8, 3, -1]))])


if __name__ == "__main__":
    ru.main(build)
