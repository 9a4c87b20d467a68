"""Reference for odd_sizes.mlir: static shapes that the tiles do not divide
(prime sizes, 70, 1000), computed in numpy."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Dot products of up to 269 f32 terms and row sums of up to 1021 terms in
# [-1, 1], summed in another order than float64 numpy; the integer matmul
# is exact.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(1021)
    f = lambda a: a.astype(np.float64)  # noqa: E731

    a = ru.uniform(g, (67, 61))
    b = ru.uniform(g, (61, 70))
    ref.add("odd_matmul", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (263, 269))
    b = ru.uniform(g, (269, 257))
    ref.add("odd_blocked", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.uniform(g, (3, 67, 61))
    b = ru.uniform(g, (3, 61, 70))
    ref.add("odd_batch_matmul", [a, b], [(f(a) @ f(b)).astype(np.float32)])

    a = ru.ints(g, (67, 62), -128, 127, np.int8)
    b = ru.ints(g, (62, 70), -128, 127, np.int8)
    ref.add("odd_int_matmul", [a, b],
            [a.astype(np.int32) @ b.astype(np.int32)])

    for name, (m, k, n) in (("odd_k_int_matmul", (67, 61, 70)),
                            ("odd_k_blocked_int_matmul", (40, 263, 64))):
        a = ru.ints(g, (m, k), -128, 127, np.int8)
        b = ru.ints(g, (k, n), -128, 127, np.int8)
        ref.add(name, [a, b], [a.astype(np.int32) @ b.astype(np.int32)])

    x = ru.uniform(g, (5, 1000))
    bias = ru.uniform(g, (1000,))
    ref.add("odd_bias_relu", [x, bias],
            [np.maximum(x + bias, np.float32(0)).astype(np.float32)])

    x = ru.uniform(g, (5, 1021))
    y = ru.uniform(g, (3, 1000))
    ref.add("odd_row_sums", [x, y],
            [f(x).sum(axis=1).astype(np.float32),
             f(y).sum(axis=1).astype(np.float32)])

    x = ru.uniform(g, (1, 15, 15, 6))
    w = ru.uniform(g, (3, 3, 6, 40))
    out = np.zeros((1, 13, 13, 40))
    for kh in range(3):
        for kw in range(3):
            out += f(x[:, kh:kh + 13, kw:kw + 13, :]) @ f(w[kh, kw])
    ref.add("odd_conv", [x, w], [out.astype(np.float32)])

    x = ru.uniform(g, (1, 15, 15, 20))
    w = ru.uniform(g, (3, 3, 20))
    depthwise = np.zeros((1, 13, 13, 20))
    pooled = np.full((1, 13, 13, 20), -np.inf)
    for kh in range(3):
        for kw in range(3):
            window = f(x[:, kh:kh + 13, kw:kw + 13, :])
            depthwise += window * f(w[kh, kw])
            pooled = np.maximum(pooled, window)
    ref.add("odd_depthwise_pool", [x, w],
            [depthwise.astype(np.float32), pooled.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
