"""Reference for linalg_named.mlir: each named op from its definition (the
indexing of its opdsl body), in numpy, float sums in float64 rounded once."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Sums of up to 54 products and the vector approximations of exp, log,
# tanh, erf and powf stay within 1e-5 relative; integers are exact.
# tolerance: rtol=1e-5 atol=1e-5


def f32(v):
    return np.asarray(v, dtype=np.float64).astype(np.float32)


def windows(x, axes, sizes):
    """x with a window axis appended for each of `axes` (valid positions)."""
    v = np.lib.stride_tricks.sliding_window_view(x, sizes, axis=axes)
    return v


def build(ref):
    g = ru.rng(7373)
    a = ru.uniform(g, (8, 16), 0.1, 2.5)
    a[0, :4] = [0.5, 1.5, 2.5, 1.0]  # ties for round
    w = a.astype(np.float64)
    erf = np.vectorize(math.erf)
    ref.add("unary", [a], [
        f32(np.exp(w)), f32(np.log(w)), f32(np.sqrt(w)), f32(1 / np.sqrt(w)),
        f32(np.tanh(w)), np.abs(a), -a, np.floor(a), np.ceil(a),
        f32(np.sign(w) * np.floor(np.abs(w) + 0.5)), f32(w * w), f32(1 / w),
        f32(erf(w)), a])

    b = ru.uniform(g, (8, 16), -1.5, 1.5)
    ref.add("binary", [a, b], [a - b, np.maximum(a, b), np.minimum(a, b),
                               f32(w ** b.astype(np.float64))])

    c = g.integers(0, 2, size=(8, 16)).astype(np.bool_)
    ref.add("select_map", [c, a, b], [np.where(c, a, b), f32(w * b + w)])

    m = ru.uniform(g, (24, 40))
    x = ru.uniform(g, (40,))
    y = ru.uniform(g, (24,))
    bm = ru.uniform(g, (3, 24, 40))
    bx = ru.uniform(g, (3, 40))
    d = lambda v: v.astype(np.float64)  # noqa: E731
    ref.add("vectors", [m, x, y, bm, bx], [
        f32(d(m) @ d(x)), f32(d(y) @ d(m)), f32(np.dot(d(x), d(x))),
        f32(np.einsum("bmk,bk->bm", d(bm), d(bx)))])

    pa = ru.uniform(g, (3, 5, 4, 2))
    pb = ru.uniform(g, (6, 5, 8, 2))
    ref.add("mmt4d", [pa, pb], [f32(np.einsum("pkmx,qknx->pqmn", d(pa), d(pb)))])

    x1 = ru.uniform(g, (2, 20, 3))
    w1 = ru.uniform(g, (5, 3, 4))
    xc = ru.uniform(g, (1, 3, 10, 10))
    wc = ru.uniform(g, (4, 3, 3, 3))
    xn = ru.uniform(g, (1, 10, 10, 3))
    wf = ru.uniform(g, (4, 3, 3, 3))
    dw = ru.uniform(g, (3, 3))
    dm = ru.uniform(g, (3, 3, 3, 2))
    x3 = ru.uniform(g, (1, 6, 6, 6, 2))
    w3 = ru.uniform(g, (2, 2, 2, 2, 3))
    c1 = np.einsum("nwck,kcf->nwf", windows(d(x1), 1, 5), d(w1))
    c2 = np.einsum("nchwij,fcij->nfhw", windows(d(xc), (2, 3), (3, 3)), d(wc))
    c3 = np.einsum("nhwcij,fijc->nhwf", windows(d(xn), (1, 2), (3, 3)), d(wf))
    c4 = np.einsum("nwck,kc->nwc", windows(d(x1), 1, 3), d(dw))
    c5 = np.einsum("nhwcij,ijcm->nhwcm", windows(d(xn), (1, 2), (3, 3)), d(dm))
    c6 = np.einsum("ndhwcijk,ijkcf->ndhwf", windows(d(x3), (1, 2, 3), (2, 2, 2)), d(w3))
    ref.add("convolutions", [x1, w1, xc, wc, xn, wf, dw, dm, x3, w3],
            [f32(c1), f32(c2), f32(c3), f32(c4), f32(c5), f32(c6)])

    p1 = windows(xc, (2, 3), (3, 3)).max(axis=(-2, -1))
    p2 = windows(d(x1), 1, 4).sum(axis=-1)
    ref.add("pooling", [xc, x1], [p1, f32(p2)])

    qa = ru.ints(g, (6, 10), -128, 127, dtype=np.int8)
    qb = ru.ints(g, (10, 7), -128, 127, dtype=np.int8)
    q = (qa.astype(np.int64) - 3) @ (qb.astype(np.int64) + 2)
    ref.add("quantized", [qa, qb], [q.astype(np.int32)])


if __name__ == "__main__":
    ru.main(build)
