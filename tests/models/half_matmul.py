"""Reference for half_matmul.mlir: f16 matmuls accumulated in f32 and
rounded to f16 once. Every input is an integer, so the sums are exact in
float64 and in f32, and the result is the sum rounded to f16 (to nearest,
ties to even) by numpy."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Exact: integer sums below 2^24 in f32, one rounding to f16.
# tolerance: rtol=0 atol=0


def matmul_f16(a, b, c=None):
    """(c +) a @ b in float64, rounded to f16 once."""
    out = a.astype(np.float64) @ b.astype(np.float64)
    if c is not None:
        out = out + c.astype(np.float64)
    return out.astype(np.float16)


def build(ref):
    g = ru.rng(2048)

    a = ru.ints(g, (8, 64), -3, 3).astype(np.float16)
    a[:, 0] = 2048
    b = ru.ints(g, (64, 40), 0, 2).astype(np.float16)
    b[0, :] = 1
    ref.add("mm_f16_acc", [a, b], [matmul_f16(a, b)])

    a = ru.ints(g, (260, 300), -2, 2).astype(np.float16)
    b = ru.ints(g, (300, 70), -2, 2).astype(np.float16)
    c = ru.ints(g, (260, 70), -100, 100).astype(np.float16)
    ref.add("mm_f16_blocked", [a, b, c], [matmul_f16(a, b, c)])

    a = ru.ints(g, (3, 9, 40), -4, 4).astype(np.float16)
    b = ru.ints(g, (3, 40, 35), -4, 4).astype(np.float16)
    ref.add("bmm_f16", [a, b], [matmul_f16(a, b)])


if __name__ == "__main__":
    ru.main(build)
