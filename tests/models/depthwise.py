"""Reference for depthwise.mlir: depthwise 3x3 convolutions (stride 1 and
2), a 1x1 convolution and 2x2 min pooling, all NHWC."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Sums of at most 24 f32 products in [-1, 1], in another order than numpy's
# float64: a few f32 roundings.
# tolerance: rtol=1e-5 atol=1e-5


def depthwise(x, w, stride):
    n, h, wd, c = x.shape
    kh, kw, _ = w.shape
    oh = (h - kh) // stride + 1
    ow = (wd - kw) // stride + 1
    out = np.zeros((n, oh, ow, c), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, i:i + stride * (oh - 1) + 1:stride,
                      j:j + stride * (ow - 1) + 1:stride, :]
            out += patch.astype(np.float64) * w[i, j].astype(np.float64)
    return out.astype(np.float32)


def build(ref):
    g = ru.rng(4242)
    x = ru.uniform(g, (2, 15, 15, 40))
    w = ru.uniform(g, (3, 3, 40))
    ref.add("depthwise3x3", [x, w], [depthwise(x, w, 1)])

    x = ru.uniform(g, (1, 19, 19, 16))
    w = ru.uniform(g, (3, 3, 16))
    ref.add("depthwise3x3_stride2", [x, w], [depthwise(x, w, 2)])

    x = ru.uniform(g, (1, 10, 10, 24))
    w = ru.uniform(g, (1, 1, 24, 40))
    out = np.einsum("nhwc,cf->nhwf", x.astype(np.float64),
                    w[0, 0].astype(np.float64))
    ref.add("pointwise", [x, w], [out.astype(np.float32)])

    x = ru.uniform(g, (1, 14, 14, 40))
    out = x.reshape(1, 7, 2, 7, 2, 40).min(axis=(2, 4))
    ref.add("min_pool", [x], [out.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
