"""Reference for fill_and_copy.mlir. fill_rng_2d follows linalg's definition
of the op: per element (i, j), r1 = (i + seed) * 1103515245 + 12345 and
r2 = (j + r1) * 1103515245 + 12345 in wrapping i32 arithmetic, then
(2147483647 + r2) * (max - min) * 2.3283064e-10 + min in f64, cast to f32."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# tolerance: rtol=1e-6 atol=1e-7


def wrap32(v):
    return ((int(v) + 2**31) % 2**32) - 2**31


def fill_rng_2d(shape, lo, hi, seed):
    out = np.zeros(shape, np.float32)
    for i in range(shape[0]):
        r1 = wrap32(wrap32(i + seed) * 1103515245 + 12345)
        for j in range(shape[1]):
            r2 = wrap32(wrap32(j + r1) * 1103515245 + 12345)
            scaling = (hi - lo) * 2.3283064e-10
            out[i, j] = np.float32((2147483647.0 + float(r2)) * scaling + lo)
    return out


def conv_nhwc_hwcf(x, k):
    """A stride-1, undilated convolution summed in int64."""
    kh, kw = k.shape[:2]
    oh, ow = x.shape[1] - kh + 1, x.shape[2] - kw + 1
    out = np.zeros((x.shape[0], oh, ow, k.shape[3]), np.int64)
    for a in range(kh):
        for b in range(kw):
            window = x[:, a:a + oh, b:b + ow, :].astype(np.int64)
            out += np.einsum("nhwc,cf->nhwf", window, k[a, b].astype(np.int64))
    return out


def build(ref):
    g = ru.rng(99)
    x = ru.uniform(g, (4, 5))
    ref.add("alloc_and_copy", [x], [np.ones((4, 5), np.float32), x])
    lo, hi, seed = np.float64(-1.5), np.float64(2.5), np.int32(-7)
    ref.add("rng", [lo, hi, seed], [fill_rng_2d((3, 4), lo, hi, int(seed))])
    ref.add("zero_fill_odd_rows", [], [np.zeros((3, 4, 54, 33), np.float32)])
    x = ru.ints(g, (3, 8, 58, 32), -128, 127, np.int8)
    k = ru.ints(g, (5, 5, 32, 33), -128, 127, np.int8)
    out = conv_nhwc_hwcf(x, k)
    assert np.abs(out).max() < 2**31
    ref.add("conv_i8_odd_channels", [x, k], [out.astype(np.int32)])


if __name__ == "__main__":
    ru.main(build)
