"""Reference for int_ops.mlir (integer division, shifts, wrapping, comparisons, casts).

Integers are stored signed; unsigned MLIR ops are modelled by viewing the same bits as
numpy unsigned types."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Integer and bool results are compared exactly.
# tolerance: rtol=0 atol=0


def trunc_div(a, b):
    """C-style division truncating toward zero, on python ints."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def build(ref):
    g = ru.rng(1616)

    a = ru.ints(g, (16,), -1000, 1000)
    b = ru.ints(g, (16,), -20, 20)
    b[b == 0] = 3
    a[:8] = [7, -7, 7, -7, 6, -6, 0, -1]
    b[:8] = [2, 2, -2, -2, 3, 3, 5, 5]
    q = np.array([trunc_div(int(x), int(y)) for x, y in zip(a, b)], np.int32)
    r = (a - q * b).astype(np.int32)
    fl = np.floor_divide(a, b).astype(np.int32)
    ce = (-np.floor_divide(-a, b)).astype(np.int32)
    ref.add("divisions", [a, b], [q, r, fl, ce])

    a = ru.ints(g, (12,), -(1 << 62), 1 << 62, np.int64)
    b = ru.ints(g, (12,), 1, 1000, np.int64)
    a[:3] = [-1, -(1 << 63), 12345]
    b[:3] = [7, -2, 10]  # -2 is 2**64 - 2 as an unsigned divisor
    s = ru.ints(g, (12,), 0, 63, np.int64)
    s[:3] = [0, 63, 1]
    au, bu, su = a.view(np.uint64), b.view(np.uint64), s.view(np.uint64)
    ref.add("unsigned_and_shifts", [a, b, s],
            [(au // bu).view(np.int64), (au % bu).view(np.int64),
             (au << su).view(np.int64), a >> s, (au >> su).view(np.int64)])

    a = ru.ints(g, (16,), -128, 127, np.int8)
    b = ru.ints(g, (16,), -128, 127, np.int8)
    a[:2], b[:2] = [127, -128], [1, -1]
    ref.add("wrap_i8", [a, b], [(a + b).astype(np.int8), (a * b).astype(np.int8),
                                (a - b).astype(np.int8)])

    a = ru.ints(g, (10,), -32768, 32767, np.int16)
    b = ru.ints(g, (10,), -32768, 32767, np.int16)
    slt = a < b
    ult = a.view(np.uint16) < b.view(np.uint16)
    ref.add("compare_select", [a, b], [slt, ult, np.where(slt, a, b).astype(np.int16),
                                       slt.astype(np.int32), -slt.astype(np.int32)])

    a = ru.ints(g, (8,), -128, 127, np.int8)
    a[:2] = [-1, -128]
    b = ru.ints(g, (8,), -(1 << 31), (1 << 31) - 1, np.int32)
    b[:2] = [255, 128]
    ref.add("int_casts", [a, b], [a.astype(np.int32), a.view(np.uint8).astype(np.int32),
                                  b.astype(np.int8)])

    # Rows of 127 and 37 elements and a dynamic length of 45: each ends in a
    # partial tile (no divisor is zero).
    a = ru.ints(g, (3, 127), -1000, 1000)
    b = ru.ints(g, (3, 127), -20, 20)
    b[b == 0] = 7
    q = np.array([trunc_div(int(x), int(y)) for x, y in zip(a.ravel(), b.ravel())],
                 np.int32).reshape(a.shape)
    c = ru.ints(g, (37,), -(1 << 62), 1 << 62, np.int64)
    d = ru.ints(g, (37,), 1, 1 << 40, np.int64)
    e = ru.ints(g, (45,), -128, 127, np.int8)
    f = ru.ints(g, (45,), 1, 127, np.int8)
    f[::2] *= -1
    r = np.array([x - trunc_div(int(x), int(y)) * y for x, y in zip(e.astype(int), f.astype(int))],
                 np.int8)
    ref.add("divisions_ragged", [a, b, c, d, e, f],
            [q, np.floor_divide(a, b).astype(np.int32),
             (c.view(np.uint64) % d.view(np.uint64)).view(np.int64), r])


if __name__ == "__main__":
    ru.main(build)
