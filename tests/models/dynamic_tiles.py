"""Reference for dynamic_tiles.mlir: dynamic shapes whose sizes leave a
partial register tile (odd and prime sizes)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Dot products of up to 253 f32 terms in [-1, 1], summed in another order
# than float64 numpy: errors of a few 1e-6 on values up to ~20.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(1237)
    f = lambda a: a.astype(np.float64)  # noqa: E731

    a = ru.uniform(g, (127, 253))
    b = ru.uniform(g, (253, 61))
    ref.add("odd_matmul", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (3, 37, 29))
    b = ru.uniform(g, (3, 29, 45))
    ref.add("odd_batch_matmul", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (33, 70))
    b = ru.uniform(g, (41, 70))
    ref.add("odd_matmul_bt", [a, b], [(f(a) @ f(b).T).astype(np.float32)])

    x = ru.uniform(g, (37, 45))
    bias = ru.uniform(g, (45,))
    ref.add("odd_bias_relu", [x, bias],
            [np.maximum(x + bias, np.float32(0)).astype(np.float32)])

    a = ru.ints(g, (37, 29), -128, 127, np.int8)
    b = ru.ints(g, (29, 45), -128, 127, np.int8)
    ref.add("odd_int_matmul", [a, b], [a.astype(np.int32) @ b.astype(np.int32)])


if __name__ == "__main__":
    ru.main(build)
