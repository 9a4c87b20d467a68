"""Reference for dynamic_rows_matmul.mlir: matmuls whose rows of A are
dynamic, called with few rows (1 to 7) and with many; B stored N x K and
K x N, f32, i8 and f16, and batches of matrices."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Dot products of up to 96 f32 terms in [-1, 1], summed in vector-wide
# partial sums in another order than float64 numpy; integers exact.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(4712)
    f = lambda a: a.astype(np.float64)  # noqa: E731

    b = ru.uniform(g, (40, 80))
    for name, rows in (("dynamic_rows_transposed", 3),
                       ("dynamic_rows_transposed_many", 11),
                       ("dynamic_rows_transposed_seven", 7)):
        a = ru.uniform(g, (rows, 80))
        ref.add(name, [a, b], [(f(a) @ f(b).T).astype(np.float32)])

    b = ru.uniform(g, (96, 70))
    for name, rows in (("dynamic_rows_times_matrix", 5),
                       ("dynamic_rows_times_matrix_many", 9),
                       ("dynamic_rows_seven", 7),
                       ("dynamic_rows_six", 6),
                       ("dynamic_rows_three", 3)):
        a = ru.uniform(g, (rows, 96))
        c = ru.uniform(g, (rows, 70))
        ref.add(name, [a, b, c], [(f(c) + f(a) @ f(b)).astype(np.float32)])

    a = ru.ints(g, (2, 64), -128, 127, dtype=np.int8)
    b = ru.ints(g, (24, 64), -128, 127, dtype=np.int8)
    ref.add("dynamic_rows_i8_transposed", [a, b],
            [a.astype(np.int32) @ b.astype(np.int32).T])

    b = ru.ints(g, (64, 128), -128, 127, dtype=np.int8)
    for name, rows in (("dynamic_rows_i8", 3), ("dynamic_rows_i8_six", 6)):
        a = ru.ints(g, (rows, 64), -128, 127, dtype=np.int8)
        ref.add(name, [a, b], [a.astype(np.int32) @ b.astype(np.int32)])

    a = ru.uniform(g, (2, 64)).astype(np.float16)
    b = ru.uniform(g, (64, 50)).astype(np.float16)
    ref.add("dynamic_rows_f16", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (2, 3, 48))
    b = ru.uniform(g, (2, 20, 48))
    ref.add("dynamic_rows_batch_transposed", [a, b],
            [(f(a) @ f(b).transpose(0, 2, 1)).astype(np.float32)])

    a = ru.uniform(g, (2, 3, 48))
    b = ru.uniform(g, (2, 48, 20))
    c = ru.uniform(g, (2, 3, 20))
    ref.add("dynamic_rows_batch", [a, b, c],
            [(f(c) + f(a) @ f(b)).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
