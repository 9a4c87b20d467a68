"""Reference for coverage_structured.mlir, written from the ops' definitions
(the TOSA specification for resize and apply_scale)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
from numpy.lib.stride_tricks import sliding_window_view as windows  # noqa: E402
import refutil as ru  # noqa: E402

# tolerance: rtol=1e-5 atol=1e-5


def resize(x, scale, mode):
    """TOSA resize with zero offset and border, in float64."""
    sy_n, sy_d, sx_n, sx_d = scale
    n, ih, iw, c = x.shape
    oh = (ih - 1) * sy_n // sy_d + 1
    ow = (iw - 1) * sx_n // sx_d + 1
    out = np.zeros((n, oh, ow, c))
    for oy in range(oh):
        y = oy * sy_d
        iy, dy = y // sy_n, y % sy_n
        iy0, iy1 = max(iy, 0), min(iy + 1, ih - 1)
        for ox in range(ow):
            xx = ox * sx_d
            ix, dx = xx // sx_n, xx % sx_n
            ix0, ix1 = max(ix, 0), min(ix + 1, iw - 1)
            if mode == "nearest":
                out[:, oy, ox] = x[:, iy1 if 2 * dy >= sy_n else iy0,
                                   ix1 if 2 * dx >= sx_n else ix0]
            else:
                fy, fx = dy / sy_n, dx / sx_n
                out[:, oy, ox] = (x[:, iy0, ix0] * (1 - fy) * (1 - fx) +
                                  x[:, iy0, ix1] * (1 - fy) * fx +
                                  x[:, iy1, ix0] * fy * (1 - fx) +
                                  x[:, iy1, ix1] * fy * fx)
    return out.astype(np.float32)


def build(ref):
    g = ru.rng(4242)
    f32, f64 = np.float32, np.float64

    a, b = ru.uniform(g, (6, 8)), ru.uniform(g, (5, 8))
    ref.add("contract_bt", [a, b],
            [(a.astype(f64) @ b.astype(f64).T).astype(f32)])

    a, b = ru.uniform(g, (4, 6)), ru.uniform(g, (4, 6))
    ref.add("elementwise", [a, b], [a + b, np.exp(a.astype(f64)).astype(f32)])

    a, b = ru.uniform(g, (2, 3, 4, 2, 3)), ru.uniform(g, (2, 5, 4, 4, 3))
    out = np.einsum("bmkxy,bnkzy->bmnxz", a.astype(f64), b.astype(f64))
    ref.add("batch_mmt4d", [a, b], [out.astype(f32)])

    x, w = ru.uniform(g, (1, 4, 4, 4, 2)), ru.uniform(g, (3, 2, 2, 2, 2))
    bias = ru.uniform(g, (3,))
    win = windows(x.astype(f64), (2, 2, 2), axis=(1, 2, 3))  # n d h w c a b e
    out = np.einsum("ndhwcabe,oabec->ndhwo", win, w) + bias
    ref.add("conv3d", [x, w, bias], [out.astype(f32)])

    x, w = ru.uniform(g, (1, 3, 3, 2)), ru.uniform(g, (4, 2, 2, 2))
    bias = ru.uniform(g, (4,))
    out = np.zeros((1, 6, 6, 4)) + bias
    for iy in range(3):
        for ix in range(3):
            for ky in range(2):
                for kx in range(2):
                    out[:, 2 * iy + ky, 2 * ix + kx] += (
                        x[:, iy, ix].astype(f64) @ w[:, ky, kx].astype(f64).T)
    ref.add("transpose_conv", [x, w, bias], [out.astype(f32)])

    x = ru.uniform(g, (1, 2, 3, 2))
    ref.add("resize", [x], [resize(x, (2, 1, 2, 1), "nearest"),
                            resize(x, (2, 1, 2, 1), "bilinear")])

    v = ru.ints(g, (16,), -(1 << 20), 1 << 20, np.int32)
    m = ru.ints(g, (16,), 1 << 29, 1 << 30, np.int32)
    s = ru.ints(g, (16,), 30, 40, np.int8)
    sh = s.astype(np.int64)
    out = (v.astype(np.int64) * m + (np.int64(1) << (sh - 1))) >> sh
    ref.add("apply_scale", [v, m, s], [out.astype(np.int32)])


if __name__ == "__main__":
    ru.main(build)
