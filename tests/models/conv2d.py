"""Reference for conv2d.mlir (linalg.conv_2d_nhwc_hwcf with tensor.pad)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Each output sums at most 3*3*3 = 27 products of values in [-1, 1] in f32 (any order).
# tolerance: rtol=1e-5 atol=1e-5


def conv_nhwc_hwcf(x, w, stride=1, dilation=1):
    """Direct convolution, no padding, accumulated in float64."""
    n, h, wd, c = x.shape
    kh, kw, c2, f = w.shape
    assert c == c2
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd - dilation * (kw - 1) - 1) // stride + 1
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    out = np.zeros((n, oh, ow, f), np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = x64[:, i * dilation: i * dilation + stride * (oh - 1) + 1: stride,
                        j * dilation: j * dilation + stride * (ow - 1) + 1: stride, :]
            out += np.einsum("nhwc,cf->nhwf", patch, w64[i, j])
    return out


def build(ref):
    g = ru.rng(404)

    x = ru.uniform(g, (1, 8, 8, 3))
    w = ru.uniform(g, (3, 3, 3, 4))
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=0.0)
    ref.add("conv_same_pad", [x, w], [conv_nhwc_hwcf(xp, w).astype(np.float32)])

    x = ru.uniform(g, (2, 10, 10, 2))
    w = ru.uniform(g, (3, 3, 2, 5))
    bias = ru.uniform(g, (5,))
    xp = np.pad(x, ((0, 0), (2, 1), (2, 1), (0, 0)), constant_values=0.5)
    r = conv_nhwc_hwcf(xp, w, stride=2) + bias.astype(np.float64)
    assert r.shape == (2, 6, 6, 5)
    ref.add("conv_stride2_bias", [x, w, bias], [r.astype(np.float32)])

    x = ru.uniform(g, (1, 7, 7, 1))
    w = ru.uniform(g, (2, 2, 1, 2))
    r = conv_nhwc_hwcf(x, w, dilation=2)
    assert r.shape == (1, 5, 5, 2)
    ref.add("conv_dilated", [x, w], [r.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
