"""Reference for coverage_conv_more.mlir: grouped, 3-D depthwise and quantized
convolutions with numpy's sliding windows (float64 sums for f32, int64 for
the quantized ones), and unsigned poolings on the bytes as uint8."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
from numpy.lib.stride_tricks import sliding_window_view as windows  # noqa: E402
import refutil as ru  # noqa: E402

# tolerance: rtol=1e-5 atol=1e-5

# name: (x shape, k shape, window axes of x, einsum of (windows, k))
F32 = {
    "grouped_ngchw_fgchw": ((1, 2, 3, 5, 5), (4, 2, 3, 2, 2), (3, 4),
                            "ngchwab,fgcab->ngfhw"),
    "grouped_ngchw_gfchw": ((1, 2, 3, 5, 5), (2, 4, 3, 2, 2), (3, 4),
                            "ngchwab,gfcab->ngfhw"),
    "grouped_nhwgc_gfhwc": ((1, 5, 5, 2, 3), (2, 4, 2, 2, 3), (1, 2),
                            "nhwgcab,gfabc->nhwgf"),
    "depthwise_3d_ncdhw": ((1, 2, 4, 5, 5), (2, 2, 2, 2), (2, 3, 4),
                           "ncdhwabe,cabe->ncdhw"),
    "depthwise_3d_multiplier": ((1, 4, 5, 5, 2), (2, 2, 2, 2, 3), (1, 2, 3),
                                "ndhwcabe,abecm->ndhwcm"),
}
QUANT = {
    "conv_nchw_q": ((1, 2, 5, 5), (4, 2, 3, 3), (2, 3), "nchwab,fcab->nfhw"),
    "conv_nhwc_fhwc_q": ((1, 5, 5, 2), (4, 3, 3, 2), (1, 2),
                         "nhwcab,fabc->nhwf"),
    "depthwise_q": ((1, 5, 5, 3), (3, 3, 3), (1, 2), "nhwcab,abc->nhwc"),
    "depthwise_multiplier_q": ((1, 5, 5, 3), (3, 3, 3, 2), (1, 2),
                               "nhwcab,abcm->nhwcm"),
    "conv3d_q": ((1, 4, 4, 4, 2), (2, 2, 2, 2, 3), (1, 2, 3),
                 "ndhwcabe,abecf->ndhwf"),
    "grouped_ngchw_gfchw_q": ((1, 2, 3, 5, 5), (2, 4, 3, 2, 2), (3, 4),
                              "ngchwab,gfcab->ngfhw"),
    "grouped_nhwgc_gfhwc_q": ((1, 5, 5, 2, 3), (2, 4, 2, 2, 3), (1, 2),
                              "nhwgcab,gfabc->nhwgf"),
}


def window_shape(k_shape, spec, axes):
    """The window's extent along each of `axes`, read from the kernel's
    letters in the einsum `spec`."""
    xs, ks = spec.split("->")[0].split(",")
    letters = xs[len(xs) - len(axes):]
    return tuple(k_shape[ks.index(c)] for c in letters)


def build(ref):
    g = ru.rng(1618)
    for name, (xs, kshape, axes, spec) in F32.items():
        x = ru.uniform(g, xs)
        k = ru.uniform(g, kshape)
        w = windows(x.astype(np.float64), window_shape(kshape, spec, axes),
                    axis=axes)
        ref.add(name, [x, k], [np.einsum(spec, w, k).astype(np.float32)])
    for name, (xs, kshape, axes, spec) in QUANT.items():
        x = ru.ints(g, xs, -128, 127, np.int8)
        k = ru.ints(g, kshape, -128, 127, np.int8)
        xzp = np.int32(g.integers(-8, 8))
        kzp = np.int32(g.integers(-8, 8))
        w = windows(x.astype(np.int64) - xzp,
                    window_shape(kshape, spec, axes), axis=axes)
        out = np.einsum(spec, w, k.astype(np.int64) - kzp)
        ref.add(name, [x, k, xzp, kzp], [out.astype(np.int32)])

    x = ru.ints(g, (1, 6, 2), -128, 127, np.int8)
    y = ru.ints(g, (1, 4, 4, 2), -128, 127, np.int8)
    pmax = windows(x.view(np.uint8), 2, axis=1).max(axis=3).view(np.int8)
    pmin = windows(y.view(np.uint8), (2, 2), axis=(1, 2)).min(
        axis=(4, 5)).view(np.int8)
    ref.add("pool_unsigned_more", [x, y], [pmax, pmin])


if __name__ == "__main__":
    ru.main(build)
