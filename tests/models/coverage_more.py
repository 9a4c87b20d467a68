"""Reference for coverage_more.mlir: each op written out from its
definition in numpy."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# tolerance: rtol=1e-5 atol=1e-5


def windows(x, axis, size, stride=1):
    """The windows of `size` along `axis`, stacked on a new last axis."""
    n = (x.shape[axis] - size) // stride + 1
    parts = [np.take(x, range(k, k + stride * (n - 1) + 1, stride), axis=axis)
             for k in range(size)]
    return np.stack(parts, axis=-1)


def build(ref):
    g = ru.rng(31337)
    f64 = np.float64
    x = ru.uniform(g, (16,), -3.0, 3.0)
    ref.add("bits", [x], [x.view(np.int32)])

    x = ru.uniform(g, (64,), -4.0, 4.0)
    ref.add("sin_and_cos", [x], [np.sin(x), np.cos(x)])

    a = ru.uniform(g, (40,))
    ref.add("parallel_sum", [a], [np.float32(a.astype(f64).sum())])

    v, m = ru.uniform(g, (3, 5)), ru.uniform(g, (3, 5, 4))
    a, b = ru.uniform(g, (3, 6, 5)), ru.uniform(g, (3, 5, 4))
    ref.add("batched", [v, m, a, b],
            [np.einsum("bk,bkn->bn", v.astype(f64), m).astype(np.float32),
             np.einsum("bmk,bkn->mn", a.astype(f64), b).astype(np.float32)])

    x1, k1 = ru.uniform(g, (10,)), ru.uniform(g, (3,))
    x2, k2 = ru.uniform(g, (6, 7)), ru.uniform(g, (2, 3))
    xn, kn, kd = ru.uniform(g, (2, 3, 9)), ru.uniform(g, (4, 3, 2)), ru.uniform(g, (3, 2))
    c1 = np.array([sum(x1[i + k] * f64(k1[k]) for k in range(3)) for i in range(8)])
    c2 = np.array([[np.sum(x2[i:i + 2, j:j + 3].astype(f64) * k2) for j in range(5)]
                   for i in range(5)])
    w = windows(xn.astype(f64), 2, 2)              # n, c, w, k
    c3 = np.einsum("ncwk,fck->nfw", w, kn)
    c4 = np.einsum("ncwk,ck->ncw", w, kd)
    ref.add("convs", [x1, k1, x2, k2, xn, kn, kd],
            [c.astype(np.float32) for c in (c1, c2, c3, c4)])

    x, y, z4 = ru.uniform(g, (2, 9, 3)), ru.uniform(g, (2, 3, 9)), ru.uniform(g, (1, 2, 6, 6))
    p1 = windows(x, 1, 2).min(axis=-1)
    p2 = windows(y, 2, 2).max(axis=-1)
    p3 = windows(y.astype(f64), 2, 2).sum(axis=-1)
    p4 = z4.astype(f64).reshape(1, 2, 3, 2, 3, 2).sum(axis=(3, 5))
    ref.add("pools", [x, y, z4],
            [p1, p2, p3.astype(np.float32), p4.astype(np.float32)])

    a = g.integers(-2**31, 2**31, (4, 6), dtype=np.int64).astype(np.int32)
    b = g.integers(1, 2**31, (4, 6), dtype=np.int64).astype(np.int32)
    b[0, :3] = -b[0, :3]                              # large as unsigned
    q = (a.view(np.uint32) // b.view(np.uint32)).view(np.int32)
    idx = np.multiply.outer(np.arange(4), np.arange(6)).astype(np.int32)
    ref.add("unsigned_index", [a, b], [q, idx])

    x, w, bias = ru.uniform(g, (1, 5, 5, 2)), ru.uniform(g, (3, 3, 2, 2)), ru.uniform(g, (4,))
    out = np.zeros((1, 3, 3, 4))
    for h in range(3):
        for ww in range(3):
            patch = x[0, h:h + 3, ww:ww + 3, :].astype(f64)          # kh, kw, c
            out[0, h, ww] = np.einsum("abc,abcm->cm", patch, w).reshape(4) + bias
    ref.add("tosa_depthwise", [x, w, bias], [out.astype(np.float32)])

    x = g.integers(-128, 128, 32).astype(np.int8)
    t = g.integers(-128, 128, 256).astype(np.int8)
    ref.add("tosa_table", [x, t], [t[x.astype(np.int64) + 128]])

    vals = ru.uniform(g, (2, 6, 3))
    ind = np.array([[4, 1], [0, 5]], dtype=np.int32)
    upd = ru.uniform(g, (2, 2, 3))
    out = vals.copy()
    for n in range(2):
        for k in range(2):
            out[n, ind[n, k]] = upd[n, k]
    ref.add("tosa_scatter", [vals, ind, upd], [out])

    x = ru.uniform(g, (4, 6))
    shape = np.array([8, 3], dtype=np.int64)
    ref.add("reshape_dynamic", [x, shape], [x.reshape(8, 3)])


if __name__ == "__main__":
    ru.main(build)
