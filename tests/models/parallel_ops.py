"""Reference for parallel_ops.mlir (ops large enough for threads)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Sums of up to 256 terms in [-1, 1] accumulated in f32 in any order: error
# ~ K * eps * sum|terms| stays below 1e-3 relative/absolute.
# tolerance: rtol=1e-3 atol=1e-3


def f64(x):
    return x.astype(np.float64)


def conv(x, w):
    n, h, wd, c = x.shape
    kh, kw, _, f = w.shape
    out = np.zeros((n, h - kh + 1, wd - kw + 1, f))
    for i in range(kh):
        for j in range(kw):
            patch = f64(x[:, i:i + out.shape[1], j:j + out.shape[2], :])
            out += np.einsum("nhwc,cf->nhwf", patch, f64(w[i, j]))
    return out.astype(np.float32)


def build(ref):
    g = ru.rng(919)
    a = ru.uniform(g, (127, 253))
    b = ru.uniform(g, (253, 61))
    ref.add("odd_matmul", [a, b], [(f64(a) @ f64(b)).astype(np.float32)])

    x = ru.uniform(g, (1, 30, 30, 16))
    w = ru.uniform(g, (3, 3, 16, 32))
    ref.add("conv", [x, w], [conv(x, w)])

    x = ru.uniform(g, (512, 300))
    bias = ru.uniform(g, (300,))
    ref.add("bias_add", [x, bias], [x + bias])

    x = ru.uniform(g, (256, 1533))
    ref.add("column_sum", [x], [f64(x).sum(axis=0).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
