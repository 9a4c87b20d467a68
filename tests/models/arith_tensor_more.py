"""Reference for arith_tensor_more.mlir, from the ops' definitions in numpy
(unsigned and extended integer arithmetic in Python integers)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Integer, bit and data movement results are exact; remf too (fmod is exact).
# tolerance: rtol=0 atol=0

M = 1 << 32


def i32(values):
    v = np.asarray(values, dtype=np.int64) % M
    return np.where(v >= 1 << 31, v - M, v).astype(np.int32)


def build(ref):
    g = ru.rng(8484)
    a = ru.ints(g, (32,), -(1 << 31), (1 << 31) - 1)
    b = ru.ints(g, (32,), -(1 << 31), (1 << 31) - 1)
    a[:4] = [0, -1, 1, -(1 << 31)]
    b[:4] = [-1, -1, (1 << 31) - 1, -(1 << 31)]
    ua = [int(v) % M for v in a]
    ub = [int(v) % M for v in b]
    ref.add("integer", [a, b], [
        a & b,
        i32([max(x, y) for x, y in zip(ua, ub)]),
        i32([min(x, y) for x, y in zip(ua, ub)]),
        i32([x + y for x, y in zip(ua, ub)]),
        np.array([x + y >= M for x, y in zip(ua, ub)]),
        i32([(int(x) * int(y)) >> 32 for x, y in zip(a, b)]),
        i32([(x * y) >> 32 for x, y in zip(ua, ub)])])

    x = ru.uniform(g, (32,), -100.0, 100.0)
    y = ru.uniform(g, (32,), 0.5, 7.0)
    y[::2] *= -1
    ref.add("floats", [x, y], [np.fmod(x, y), np.trunc(np.abs(x)).astype(np.uint32).astype(np.int32),
                               x.view(np.int32)])

    s = ru.uniform(g, (4, 6))
    v = np.float32(0.75)
    ref.add("shapes", [s, v], [s.reshape(3, 8), np.full((2, 5), v, dtype=np.float32),
                               s * np.float32(2)])

    r = ru.uniform(g, (8, 5))
    ref.add("forall_rows", [r], [-r])

    # Case 1 squares, through scf.index_switch (an execute_region) and
    # cf.switch alike.
    k = np.int32(1)
    xv = np.float32(-1.25)
    ref.add("switches", [k, xv], [xv * xv, xv * xv])


if __name__ == "__main__":
    ru.main(build)
