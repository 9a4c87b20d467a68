"""Reference for tosa_mlp.mlir (TOSA MLP: matmul, broadcast add, clamp, sigmoid)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Two chained f32 matmuls (16 and 32 terms, values ~1) in any summation order, and a
# sigmoid through exp: 1e-5 relative with a matching absolute floor.
# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(808)

    x = ru.uniform(g, (4, 16))
    w1 = ru.uniform(g, (16, 32), -0.5, 0.5)
    b1 = ru.uniform(g, (32,), -0.5, 0.5)
    w2 = ru.uniform(g, (32, 8), -0.5, 0.5)
    b2 = ru.uniform(g, (8,), -0.5, 0.5)
    f = lambda a: a.astype(np.float64)  # noqa: E731
    h = np.maximum(f(x) @ f(w1) + f(b1), 0.0)
    y = h @ f(w2) + f(b2)
    ref.add("mlp", [x, w1, b1, w2, b2], [y.astype(np.float32)])

    a = ru.uniform(g, (2, 3, 5), -2.0, 2.0)
    b = ru.uniform(g, (2, 5, 4), -2.0, 2.0)
    m = np.matmul(f(a), f(b))
    ref.add("bmm_relu6_sigmoid", [a, b],
            [np.clip(m, 0.0, 6.0).astype(np.float32),
             (1.0 / (1.0 + np.exp(-m))).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
