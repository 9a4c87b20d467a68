"""Reference for dynamic.mlir (dynamically shaped arguments and results).

The reference picks the concrete sizes: they are the shapes of the stored arrays."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# At most 11-term f32 dot products/sums of values in [-1, 1]; the rest is exact or one rounding.
# tolerance: rtol=1e-5 atol=1e-6


def build(ref):
    g = ru.rng(909)
    f = lambda a: a.astype(np.float64)  # noqa: E731

    a = ru.uniform(g, (5, 7))
    b = ru.uniform(g, (5, 7))
    ref.add("dyn_axpb", [a, b], [(a * np.float32(2.0) + b).astype(np.float32)])

    a = ru.uniform(g, (6, 11))
    b = ru.uniform(g, (11, 3))
    ref.add("dyn_matmul", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    x = ru.uniform(g, (9, 4))
    ref.add("dyn_rowsum", [x], [f(x).sum(axis=1).astype(np.float32)])

    x = ru.uniform(g, (3, 8))
    ref.add("dyn_transpose", [x], [np.ascontiguousarray(x.T)])

    x = ru.ints(g, (7, 3), -100, 100)
    ref.add("dyn_first_half_neg", [x], [-x[:3]])


if __name__ == "__main__":
    ru.main(build)
