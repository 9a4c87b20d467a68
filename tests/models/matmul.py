"""Reference for matmul.mlir (linalg.matmul, f32)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Dot products of up to 64 terms in [-1, 1] accumulated in f32 in any order (tiling,
# vectorization, FMA): error grows ~ K * eps * sum|a*b|, so allow 1e-4 relative/absolute.
# tolerance: rtol=1e-4 atol=1e-4


def mm(a, b):
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def build(ref):
    g = ru.rng(202)

    a = ru.uniform(g, (64, 64))
    b = ru.uniform(g, (64, 64))
    ref.add("matmul_64", [a, b], [mm(a, b)])

    a = ru.uniform(g, (5, 7))
    b = ru.uniform(g, (7, 3))
    ref.add("matmul_rect", [a, b], [mm(a, b)])

    a = ru.uniform(g, (16, 32))
    b = ru.uniform(g, (32, 24))
    bias = ru.uniform(g, (24,))
    r = (a.astype(np.float64) @ b.astype(np.float64) + bias).astype(np.float32)
    ref.add("matmul_bias", [a, b, bias], [r])


if __name__ == "__main__":
    ru.main(build)
