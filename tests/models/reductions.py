"""Reference for reductions.mlir (linalg.reduce, generic reductions, TOSA reductions)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Sums of up to 64 f32 terms in [-1, 1] in any order (the reference sums in f64);
# max/min and integer reductions are exact.
# tolerance: rtol=1e-5 atol=1e-5


def f64sum(x, axis):
    return x.astype(np.float64).sum(axis=axis).astype(np.float32)


def build(ref):
    g = ru.rng(606)

    x = ru.uniform(g, (16, 32))
    ref.add("sum_axis1", [x], [f64sum(x, 1)])

    x = ru.uniform(g, (16, 32), -10.0, 10.0)
    ref.add("max_axis0", [x], [x.max(axis=0)])

    x = ru.uniform(g, (8, 8))
    ref.add("sum_all", [x], [np.array(f64sum(x, None), dtype=np.float32)])

    x = ru.uniform(g, (2, 3, 10))
    r = (f64sum(x, 2) / np.float32(10.0)).astype(np.float32)
    ref.add("mean_axis2", [x], [r])

    x = ru.ints(g, (5, 7), -10000, 10000, np.int32)
    y = ru.ints(g, (4, 6), -(1 << 40), 1 << 40, np.int64)
    ref.add("int_sum_min", [x, y], [x.sum(axis=0, dtype=np.int32), y.min(axis=1)])

    x = ru.uniform(g, (4, 6))
    ref.add("tosa_reduce", [x], [f64sum(x, 1)[:, None], x.max(axis=0)[None, :]])


if __name__ == "__main__":
    ru.main(build)
