"""Reference for dynamic_reductions.mlir: reductions of dynamic shape and
along columns, at sizes that leave partial vectors."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Sums of up to 1021 f32 terms in [-1, 1] in another order than float64
# numpy: errors of a few 1e-6 on values up to ~30; the softmax's
# polynomial exp is within a few ulp. Integer sums are exact.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(4241)
    f64 = lambda a: a.astype(np.float64)  # noqa: E731
    f32 = lambda a: a.astype(np.float32)  # noqa: E731

    x = ru.uniform(g, (37, 1021))
    ref.add("row_sums", [x], [f32(f64(x).sum(axis=1))])

    x = ru.uniform(g, (5, 13))
    ref.add("row_max", [x], [x.max(axis=1)])

    x = ru.uniform(g, (300, 2100))
    ref.add("column_sums", [x], [f32(f64(x).sum(axis=0))])

    x = ru.uniform(g, (70, 1021))
    ref.add("column_min", [x], [x.min(axis=0)])

    x = ru.uniform(g, (3, 50, 37))
    ref.add("middle_sums", [x], [f32(f64(x).sum(axis=1))])

    x = ru.ints(g, (29, 45), -1000, 1000)
    ref.add("int_column_sums", [x], [x.sum(axis=0, dtype=np.int32)])

    x = 4 * ru.uniform(g, (33, 1000))
    e = np.exp(f64(x) - f64(x).max(axis=1, keepdims=True))
    ref.add("softmax_rows", [x], [f32(e / e.sum(axis=1, keepdims=True))])


if __name__ == "__main__":
    ru.main(build)
