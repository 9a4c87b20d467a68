"""Reference for elementwise_bcast.mlir (broadcasting elementwise ops)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# At most two f32 roundings per element (a contracted x*y-y may differ by an ulp of x*y
# near a cancellation, hence the absolute floor); integer results are exact.
# tolerance: rtol=1e-6 atol=1e-6


def build(ref):
    g = ru.rng(101)

    x = ru.uniform(g, (8, 16))
    b = ru.uniform(g, (16,))
    s = ru.uniform(g, (8, 1), 0.5, 2.0)
    ref.add("bias_scale", [x, b, s], [((x + b[None, :]) * s).astype(np.float32)])

    a = ru.uniform(g, (8,))
    b = ru.uniform(g, (16,))
    ref.add("outer_sub", [a, b], [(a[:, None] - b[None, :]).astype(np.float32)])

    x = ru.ints(g, (6, 5), -100, 100)
    v = ru.ints(g, (5,), -50, 50)
    ref.add("bcast_max_i32", [x, v], [np.maximum(x, v[None, :])])

    x = ru.uniform(g, (4, 8, 16))
    y = ru.uniform(g, (1, 1, 16))
    ref.add("tosa_add_bcast", [x, y], [(x + y).astype(np.float32)])

    x = ru.uniform(g, (4, 1))
    y = ru.uniform(g, (1, 6))
    ref.add("tosa_mul_sub_bcast", [x, y], [(x * y - y).astype(np.float32)])

    x = ru.ints(g, (3, 7), -1000, 1000)
    y = ru.ints(g, (3, 1), -1000, 1000)
    ref.add("tosa_add_bcast_i32", [x, y], [x + y])


if __name__ == "__main__":
    ru.main(build)
