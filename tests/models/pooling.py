"""Reference for pooling.mlir (linalg pooling ops, tosa.max_pool2d)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Max pooling is exact; sums have at most 9 f32 terms in [-1, 1], plus one division.
# tolerance: rtol=1e-6 atol=1e-6


def windows(x, k, stride):
    """All k x k windows of an NHWC array: shape (N, OH, OW, C, k, k)."""
    n, h, w, c = x.shape
    oh = (h - k) // stride + 1
    ow = (w - k) // stride + 1
    out = np.empty((n, oh, ow, c, k, k), x.dtype)
    for i in range(k):
        for j in range(k):
            out[..., i, j] = x[:, i: i + stride * (oh - 1) + 1: stride,
                               j: j + stride * (ow - 1) + 1: stride, :]
    return out


def pad_hw(x, lo, hi, value):
    return np.pad(x, ((0, 0), (lo, hi), (lo, hi), (0, 0)), constant_values=value)


def build(ref):
    g = ru.rng(505)

    x = ru.uniform(g, (1, 8, 8, 4), -4.0, 4.0)
    r = windows(pad_hw(x, 1, 1, -np.inf), 3, 2).max(axis=(4, 5))
    ref.add("maxpool_3x3_s2_pad", [x], [r.astype(np.float32)])

    x = ru.uniform(g, (2, 6, 6, 3))
    r = windows(x.astype(np.float64), 2, 2).sum(axis=(4, 5))
    ref.add("sumpool_2x2", [x], [r.astype(np.float32)])

    x = ru.uniform(g, (1, 5, 5, 2))
    s = windows(pad_hw(x.astype(np.float64), 1, 1, 0.0), 3, 1).sum(axis=(4, 5))
    r = (s.astype(np.float32) / np.float32(9.0)).astype(np.float32)
    ref.add("avgpool_3x3_pad", [x], [r])

    x = ru.ints(g, (1, 5, 5, 2), -1000, 1000)
    ref.add("maxpool_i32", [x], [windows(x, 2, 1).max(axis=(4, 5))])

    # All-negative inputs: a padded position counted as 0 would win and be visible.
    x = ru.uniform(g, (1, 7, 7, 3), -5.0, -1.0)
    r = windows(pad_hw(x, 1, 1, -np.inf), 3, 2).max(axis=(4, 5))
    assert r.shape == (1, 4, 4, 3)
    ref.add("tosa_maxpool", [x], [r.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
