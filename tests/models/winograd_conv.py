"""Reference for winograd_conv.mlir: 3 x 3 convolutions of unit strides,
accumulated in float64 by numpy, directly (no Winograd)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402
from conv2d import conv_nhwc_hwcf  # noqa: E402

# Each output sums 3*3*C (up to 288) products of inputs in [-1, 1] and
# weights in [-1/2, 1/2]; F(2 x 2, 3 x 3) adds and subtracts up to 16 input
# values per transformed element, and its coefficients of 1/2 and 1/4 are
# exact: rounding of sums whose terms reach about 10 in magnitude.
# tolerance: rtol=1e-5 atol=2e-5


def filt(c, f, seed):
    r, s, ci, fi = np.meshgrid(range(3), range(3), range(c), range(f),
                               indexing="ij")
    return (((r * 7 + s * 3 + ci * 5 + fi * 11 + seed) % 17 - 8) / 16.0)


def build(ref):
    g = ru.rng(2323)

    x = ru.uniform(g, (5, 14, 14, 16))
    ref.add("even", [x],
            [conv_nhwc_hwcf(x, filt(16, 32, 0)).astype(np.float32)])

    x = ru.uniform(g, (2, 13, 15, 16))
    r = conv_nhwc_hwcf(x, filt(16, 16, 5)) + 0.5
    assert r.shape == (2, 11, 13, 16)
    ref.add("odd", [x], [r.astype(np.float32)])

    x = ru.uniform(g, (1, 14, 14, 16))
    acc = ru.uniform(g, (1, 12, 12, 16))
    r = conv_nhwc_hwcf(x, filt(16, 16, 9)) + acc.astype(np.float64)
    ref.add("accumulate", [x, acc], [r.astype(np.float32)])

    x = ru.uniform(g, (2, 14, 14, 32))
    bias = ru.uniform(g, (32,))
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    r = np.maximum(conv_nhwc_hwcf(xp, filt(32, 32, 3)) + bias, 0.0)
    ref.add("padded_relu", [x, bias], [r.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
