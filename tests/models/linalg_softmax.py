"""Reference for linalg_softmax.mlir: softmax along an axis,
exp(x - max) / sum(exp(x - max)), in float64 then rounded to f32."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# exp in f32 (a polynomial when vectorized) and sums of up to 37 terms.
# tolerance: rtol=1e-5 atol=1e-6


def softmax(x, axis):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).astype(np.float32)


def build(ref):
    g = ru.rng(2718)
    x = ru.uniform(g, (5, 37), -8.0, 8.0)
    ref.add("softmax_rows", [x], [softmax(x, 1)])
    x = ru.uniform(g, (19, 6), -8.0, 8.0)
    ref.add("softmax_cols", [x], [softmax(x, 0)])
    x = ru.uniform(g, (7, 45), -8.0, 8.0)
    ref.add("softmax_dynamic", [x], [softmax(x, 1)])


if __name__ == "__main__":
    ru.main(build)
