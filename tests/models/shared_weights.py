"""Reference for shared_weights.mlir (one weight and one bias read by several layers)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Three chained 4-term f32 dot products of values in [-1, 1] (up to ~10), in
# any summation order: 1e-5 relative with a matching absolute floor.
# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(3131)
    f = lambda a: a.astype(np.float64)  # noqa: E731
    x = ru.uniform(g, (2, 4))
    w = ru.uniform(g, (4, 4))
    b = ru.uniform(g, (4,))
    a1 = f(x) @ f(w) + f(b)
    a2 = a1 @ f(w) + f(b)
    m3 = a2 + f(x) @ f(w)
    ref.add("shared", [x, w, b], [m3.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
