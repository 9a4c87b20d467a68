"""Reference for layernorm.mlir (layer normalisation, tanh GELU)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# 32-term f32 sums for mean and variance, rsqrt and tanh (libm or approximations): the
# normalised values are O(1), so 1e-5 relative with a 1e-5 absolute floor (GELU near 0).
# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(2020)

    x = ru.uniform(g, (6, 32), -3.0, 3.0)
    x[1] += 50.0  # a large mean
    x[2] *= 0.01  # a small variance
    gamma = ru.uniform(g, (32,), 0.5, 1.5)
    beta = ru.uniform(g, (32,), -0.5, 0.5)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=1, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + 1e-5) * gamma + beta
    ref.add("layernorm", [x, gamma, beta], [y.astype(np.float32)])

    x = ru.uniform(g, (4, 16), -5.0, 5.0)
    v = x.astype(np.float64)
    r = 0.5 * v * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (v + 0.044715 * v ** 3)))
    ref.add("gelu_tanh", [x], [r.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
