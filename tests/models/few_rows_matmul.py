"""Reference for few_rows_matmul.mlir: matmuls with B stored N x K and few
rows of A (dot products along K), the first row count that packs, and one
row of A by B stored K x N."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Dot products of up to 300 f32 terms in [-1, 1], summed in vector-wide
# partial sums in another order than float64 numpy.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(4711)
    f = lambda a: a.astype(np.float64)  # noqa: E731

    a = ru.uniform(g, (1, 300))
    b = ru.uniform(g, (257, 300))
    ref.add("vector_times_transposed", [a, b],
            [(f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (7, 64))
    b = ru.uniform(g, (40, 64))
    c = ru.uniform(g, (7, 40))
    ref.add("few_rows_transposed", [a, b, c],
            [(f(c) + f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (2, 96))
    b = ru.uniform(g, (36, 96))
    ref.add("two_rows_transposed", [a, b],
            [(f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (8, 70))
    b = ru.uniform(g, (45, 70))
    ref.add("eight_rows_transposed", [a, b],
            [(f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (2, 3, 70))
    b = ru.uniform(g, (2, 45, 70))
    ref.add("batch_few_rows_transposed", [a, b],
            [(f(a) @ f(b).transpose(0, 2, 1)).astype(np.float32)])

    a = ru.uniform(g, (1, 300))
    b = ru.uniform(g, (300, 520))
    ref.add("vector_times_matrix", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (3, 1, 70))
    b = ru.uniform(g, (3, 70, 45))
    c = ru.uniform(g, (3, 1, 45))
    ref.add("batch_vector_times_matrix", [a, b, c],
            [(f(c) + f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (2, 70), dtype=np.float64)
    b = ru.uniform(g, (36, 70), dtype=np.float64)
    ref.add("two_rows_transposed_f64", [a, b], [a @ b.T])

    a = ru.uniform(g, (1, 70), dtype=np.float64)
    b = ru.uniform(g, (70, 200), dtype=np.float64)
    c = ru.uniform(g, (1, 200), dtype=np.float64)
    ref.add("vector_times_matrix_f64", [a, b, c], [c + a @ b])

    a = ru.uniform(g, (6, 80))
    b = ru.uniform(g, (29, 80))
    ref.add("six_rows_dynamic_n", [a, b], [(f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (5, 120))
    b = ru.uniform(g, (120, 300))
    c = ru.uniform(g, (5, 300))
    ref.add("five_rows_times_matrix", [a, b, c],
            [(f(c) + f(a) @ f(b)).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
