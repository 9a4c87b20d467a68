"""Reference for blocked_matmul.mlir: static contractions cut into cache
blocks (K or N above 256), and matmuls whose blocks of B are packed (B
stored transposed, batch matmuls and dynamic shapes included)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Dot products of up to 520 f32 terms in [-1, 1], summed in blocks in
# another order than float64 numpy.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(5150)
    f = lambda a: a.astype(np.float64)  # noqa: E731

    a = ru.uniform(g, (72, 520))
    b = ru.uniform(g, (520, 300))
    ref.add("big_k_n", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (8, 520))
    b = ru.uniform(g, (520, 512))
    ref.add("eight_rows", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (24, 520))
    b = ru.uniform(g, (520, 512))
    ref.add("three_tiles", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (64, 384))
    b = ru.uniform(g, (320, 384))
    ref.add("big_transposed", [a, b], [(f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (2, 40, 300))
    b = ru.uniform(g, (2, 300, 272))
    ref.add("big_batch", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (260, 520))
    b = ru.uniform(g, (520, 300))
    ref.add("packed_panels", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (300, 300))
    b = ru.uniform(g, (300, 70))
    c = ru.uniform(g, (300, 70))
    ref.add("packed_dynamic", [a, b, c],
            [(f(c) + f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (260, 300))
    b = ru.uniform(g, (270, 300))
    ref.add("packed_transposed", [a, b], [(f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (100, 64))
    b = ru.uniform(g, (40, 64))
    ref.add("small_transposed", [a, b], [(f(a) @ f(b).T).astype(np.float32)])

    a = ru.uniform(g, (2, 260, 130))
    b = ru.uniform(g, (2, 130, 300))
    ref.add("packed_batch", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (3, 70, 50))
    b = ru.uniform(g, (3, 45, 50))
    c = ru.uniform(g, (3, 70, 45))
    ref.add("dynamic_batch_transposed", [a, b, c],
            [(f(c) + f(a) @ f(b).transpose(0, 2, 1)).astype(np.float32)])

    d = np.float64
    a = ru.uniform(g, (260, 520), dtype=d)
    b = ru.uniform(g, (520, 300), dtype=d)
    ref.add("packed_panels_f64", [a, b], [a @ b])

    a = ru.uniform(g, (260, 300), dtype=d)
    b = ru.uniform(g, (270, 300), dtype=d)
    ref.add("packed_transposed_f64", [a, b], [a @ b.T])

    a = ru.uniform(g, (100, 64), dtype=d)
    b = ru.uniform(g, (40, 64), dtype=d)
    c = ru.uniform(g, (100, 40), dtype=d)
    ref.add("small_transposed_f64", [a, b, c], [c + a @ b.T])


if __name__ == "__main__":
    ru.main(build)
