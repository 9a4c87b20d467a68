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


def past_2048(g, rows):
    """`rows` x 64 by 64 x 40 f16 whose sums start at 2048, then add small
    values and +1s, which a sum kept in f16 would lose: inputs, results."""
    a = ru.ints(g, (rows, 64), -3, 3).astype(np.float16)
    a[:, 0] = 2048
    b = ru.ints(g, (64, 40), 0, 2).astype(np.float16)
    b[0, :] = 1
    return [a, b], [matmul_f16(a, b)]


def build(ref):
    g = ru.rng(2048)

    ref.add("mm_f16_acc", *past_2048(g, 8))

    a = ru.ints(g, (260, 300), -2, 2).astype(np.float16)
    b = ru.ints(g, (300, 70), -2, 2).astype(np.float16)
    c = ru.ints(g, (260, 70), -100, 100).astype(np.float16)
    ref.add("mm_f16_blocked", [a, b, c], [matmul_f16(a, b, c)])

    a = ru.ints(g, (3, 9, 40), -4, 4).astype(np.float16)
    b = ru.ints(g, (3, 40, 35), -4, 4).astype(np.float16)
    ref.add("bmm_f16", [a, b], [matmul_f16(a, b)])

    # Few rows of A: B read as f16 or bf16, converted as it is read.
    a = ru.ints(g, (1, 300), -3, 3).astype(np.float16)
    b = ru.ints(g, (40, 300), -3, 3).astype(np.float16)
    ref.add("mv_f16_transposed", [a, b],
            [(a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)])

    a = ru.ints(g, (1, 200), -4, 4).astype(np.float32)
    b = ru.ints(g, (200, 70), -4, 4).astype(np.float32)
    ref.add("mv_bf16", [ru.bf16_bits(a), ru.bf16_bits(b)],
            [(a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)])

    ref.add("few_f16_acc", *past_2048(g, 3))

    # Sums of 200 to 900, which bf16 (8 significant bits) holds only to a
    # multiple of 2 or 4: rounded once, from the exact sum.
    a = ru.ints(g, (5, 100), -3, 3).astype(np.float32)
    a[:, 0] = 200
    b = ru.ints(g, (24, 100), -3, 3).astype(np.float32)
    b[:, 0] = ru.ints(g, (24,), 1, 3)
    exact = (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)
    ref.add("few_bf16_transposed", [ru.bf16_bits(a), ru.bf16_bits(b)],
            [ru.bf16_bits(exact)])

    a = ru.ints(g, (2, 1, 40), -4, 4).astype(np.float16)
    b = ru.ints(g, (2, 40, 35), -4, 4).astype(np.float16)
    ref.add("bmm_f16_few", [a, b],
            [(a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
