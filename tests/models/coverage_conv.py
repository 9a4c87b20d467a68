"""Reference for coverage_conv.mlir: convolutions and poolings computed with
numpy's sliding windows (float64 sums for f32; exact integers)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
from numpy.lib.stride_tricks import sliding_window_view as windows  # noqa: E402
import refutil as ru  # noqa: E402

# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(2718)
    f32, f64 = np.float32, np.float64

    x = ru.uniform(g, (5, 6, 7))
    k = ru.uniform(g, (2, 3, 2))
    out = np.einsum("dhwabc,abc->dhw", windows(x.astype(f64), k.shape), k)
    ref.add("conv3d_plain", [x, k], [out.astype(f32)])

    x = ru.uniform(g, (1, 2, 4, 5, 5))
    k = ru.uniform(g, (3, 2, 2, 2, 2))
    w = windows(x.astype(f64), (2, 2, 2), axis=(2, 3, 4))  # n c d h w a b e
    out = np.einsum("ncdhwabe,fcabe->nfdhw", w, k)
    ref.add("conv3d_ncdhw", [x, k], [out.astype(f32)])

    x = ru.uniform(g, (1, 3, 5, 6))
    k = ru.uniform(g, (3, 2, 3))
    w = windows(x.astype(f64), (2, 3), axis=(2, 3))  # n c h w a b
    out = np.einsum("nchwab,cab->nchw", w, k)
    ref.add("depthwise_nchw", [x, k], [out.astype(f32)])

    x = ru.uniform(g, (1, 8, 3))
    k = ru.uniform(g, (3, 3, 2))
    w = windows(x.astype(f64), 3, axis=1)  # n w c a
    out = np.einsum("nwca,acm->nwcm", w, k)
    ref.add("depthwise_1d_multiplier", [x, k], [out.astype(f32)])

    x = ru.uniform(g, (1, 4, 5, 5, 2))
    k = ru.uniform(g, (2, 2, 2, 2))
    w = windows(x.astype(f64), (2, 2, 2), axis=(1, 2, 3))  # n d h w c a b e
    out = np.einsum("ndhwcabe,abec->ndhwc", w, k)
    ref.add("depthwise_3d", [x, k], [out.astype(f32)])

    x = ru.uniform(g, (1, 4, 4, 4, 2))
    w = windows(x, (2, 2, 2), axis=(1, 2, 3))
    ref.add("pool3d", [x], [w.max(axis=(5, 6, 7)), w.min(axis=(5, 6, 7)),
                            w.astype(f64).sum(axis=(5, 6, 7)).astype(f32)])

    x = ru.uniform(g, (1, 8, 3))
    ref.add("pool1d_max", [x], [windows(x, 3, axis=1).max(axis=3)])

    x = ru.ints(g, (1, 4, 4, 2), -128, 127, np.int8)
    y = ru.ints(g, (1, 6, 2), -128, 127, np.int8)
    ux, uy = x.view(np.uint8), y.view(np.uint8)
    pmax = windows(ux, (2, 2), axis=(1, 2)).max(axis=(4, 5)).view(np.int8)
    pmin = windows(uy, 2, axis=1).min(axis=3).view(np.int8)
    ref.add("pool_unsigned", [x, y], [pmax, pmin])

    x = ru.ints(g, (1, 5, 5, 2), -128, 127, np.int8)
    k = ru.ints(g, (3, 3, 2, 4), -128, 127, np.int8)
    xzp, kzp = np.int32(-3), np.int32(5)
    w = windows(x.astype(np.int64) - xzp, (3, 3), axis=(1, 2))  # n h w c a b
    out = np.einsum("nhwcab,abcf->nhwf", w, k.astype(np.int64) - kzp)
    ref.add("conv_q", [x, k, xzp, kzp], [out.astype(np.int32)])

    a = ru.ints(g, (2, 3, 5), -128, 127, np.int8)
    b = ru.ints(g, (2, 5, 4), -128, 127, np.int8)
    azp, bzp = np.int32(7), np.int32(-2)
    out = (a.astype(np.int64) - azp) @ (b.astype(np.int64) - bzp)
    ref.add("batch_matmul_q", [a, b, azp, bzp], [out.astype(np.int32)])


if __name__ == "__main__":
    ru.main(build)
