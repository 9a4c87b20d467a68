"""Reference for softmax.mlir (stable softmax and log_softmax)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# exp/log may be libm calls or polynomial approximations (a few ulp), then a 32-term sum
# and a division: 1e-5 relative; atol covers log_softmax values near 0 (cancellation of
# terms of size ~10) and tiny probabilities.
# tolerance: rtol=1e-5 atol=1e-6


def softmax(x, axis):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis):
    x = x.astype(np.float64)
    d = x - x.max(axis=axis, keepdims=True)
    return d - np.log(np.exp(d).sum(axis=axis, keepdims=True))


def build(ref):
    g = ru.rng(707)

    # Rows with very different scales; row 0 has values up to 200 (exp overflows f32
    # without the max subtraction), row 1 is constant (uniform distribution).
    x = ru.uniform(g, (8, 32), -4.0, 4.0)
    x[0] = ru.uniform(g, (32,), 150.0, 200.0)
    x[1] = 3.0
    x[2] = ru.uniform(g, (32,), -200.0, -150.0)
    x[3] *= 10.0
    ref.add("softmax_rows", [x], [softmax(x, 1).astype(np.float32)])

    x = ru.uniform(g, (2, 4, 16), -5.0, 5.0)
    x[1, 2] += 120.0
    ref.add("log_softmax_3d", [x], [log_softmax(x, 2).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
