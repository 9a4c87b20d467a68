"""Reference for tosa_ops.mlir (TOSA conv2d, avg_pool2d, unary ops, cast, select,
argmax, slice/pad/concat)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# conv2d sums 27 f32 products plus a bias; exp/reciprocal/rsqrt/tanh may be libm calls or
# approximations (a few ulp); casts, selects, argmax and data movement are exact.
# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(2222)
    f64 = lambda a: a.astype(np.float64)  # noqa: E731

    x = ru.uniform(g, (1, 6, 6, 3))
    w = ru.uniform(g, (4, 3, 3, 3))  # OHWI
    b = ru.uniform(g, (4,))
    xp = np.pad(f64(x), ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((1, 6, 6, 4))
    for i in range(3):
        for j in range(3):
            out += np.einsum("nhwc,oc->nhwo", xp[:, i:i + 6, j:j + 6, :], f64(w[:, i, j, :]))
    out += f64(b)
    ref.add("conv2d", [x, w, b], [out.astype(np.float32)])

    # TOSA average pooling divides by the number of non-padding elements in the window.
    x = ru.uniform(g, (1, 5, 5, 2))
    xp = np.pad(f64(x), ((0, 0), (1, 1), (1, 1), (0, 0)))
    ones = np.pad(np.ones((1, 5, 5, 2)), ((0, 0), (1, 1), (1, 1), (0, 0)))
    s = np.zeros((1, 5, 5, 2))
    n = np.zeros((1, 5, 5, 2))
    for i in range(3):
        for j in range(3):
            s += xp[:, i:i + 5, j:j + 5, :]
            n += ones[:, i:i + 5, j:j + 5, :]
    ref.add("avg_pool", [x], [(s / n).astype(np.float32)])

    x = ru.uniform(g, (3, 5), -3.0, 3.0)
    ref.add("transpose_unary", [x],
            [np.ascontiguousarray(x.T), np.exp(-f64(x)).astype(np.float32),
             (1.0 / np.sqrt(np.abs(f64(x)))).astype(np.float32), np.tanh(f64(x)).astype(np.float32)])

    x = np.array([2.5, 3.5, -2.5, -3.5, 0.5, -0.5, 1.4999, -1.6, 300.0, -300.0, 1e10, -1e10],
                 np.float32)
    r = np.rint(f64(x))  # round half to even
    ref.add("cast_round", [x], [np.clip(r, -2 ** 31, 2 ** 31 - 1).astype(np.int32),
                                np.clip(r, -128, 127).astype(np.int8)])

    a = ru.uniform(g, (4, 6))
    b = ru.uniform(g, (4, 6))
    gt = a > b
    ref.add("greater_select_argmax", [a, b],
            [gt, np.where(gt, a, b), np.argmax(a, axis=1).astype(np.int32)])

    x = ru.ints(g, (4, 5), -100, 100)
    s = x[1:3, 1:4]
    p = np.pad(s, ((1, 1), (0, 0)), constant_values=-7)
    c = np.concatenate([p, x], axis=1)
    ref.add("slice_pad_concat", [x], [np.ascontiguousarray(c[:, 1:8])])


if __name__ == "__main__":
    ru.main(build)
