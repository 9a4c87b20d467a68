"""Reference for tosa_more.mlir, from the TOSA specification's definition of
each op, in numpy (float results computed in float64, rounded once)."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Vector approximations of cos, sin, erf, log and pow are within a few
# float32 ulps; integer, boolean and data movement results are exact.
# tolerance: rtol=1e-5 atol=1e-6


def f32(v):
    return np.asarray(v, dtype=np.float64).astype(np.float32)


def u32(a):
    return a.astype(np.int64) & 0xFFFFFFFF


def i32(u):
    u = np.asarray(u, dtype=np.int64) & 0xFFFFFFFF
    return np.where(u >= 1 << 31, u - (1 << 32), u).astype(np.int32)


def build(ref):
    g = ru.rng(6262)
    a = ru.ints(g, (4, 16), -(1 << 31), (1 << 31) - 1)
    a[0, :4] = [0, -1, 1, -(1 << 31)]
    b = ru.ints(g, (4, 16), -1000, 1000)
    b[b == 0] = 7
    s = ru.ints(g, (4, 16), 0, 31)
    clz = np.array([32 - int(v).bit_length() for v in u32(a).ravel()],
                   dtype=np.int32).reshape(a.shape)
    # intdiv truncates toward zero; INT_MIN / -1 (undefined) cannot occur:
    # INT_MIN's divisor is 3.
    b[0, 3] = 3
    div = np.array([(abs(int(x)) // abs(int(y))) * (1 if (x >= 0) == (y >= 0) else -1)
                    for x, y in zip(a.ravel(), b.ravel())], dtype=np.int64)
    ref.add("int_ops", [a, b, s], [
        a & b, a | b, a ^ b, ~a, a >> s, i32(u32(a) << s), i32(u32(a) >> s), clz,
        div.astype(np.int32).reshape(a.shape)])

    x = ru.uniform(g, (4, 16), -2.0, 2.0)
    x[0, :4] = [1.0, -1.0, 0.5, -0.5]  # exact integers and halves
    y = ru.uniform(g, (4, 16), -2.0, 2.0)
    p = ru.uniform(g, (4, 16), 0.1, 3.0)
    wx, wy, wp = (v.astype(np.float64) for v in (x, y, p))
    erf = np.vectorize(math.erf)
    ref.add("float_ops", [x, y, p], [
        np.ceil(x), np.floor(x), f32(np.cos(wx)), f32(np.sin(wx)), f32(erf(wx)),
        f32(np.log(wp)), f32(wp ** wy), np.maximum(x, y), np.minimum(x, y), -x])

    y2 = y.copy()
    y2[:, :4] = x[:, :4]  # some equal pairs
    pb = g.integers(0, 2, size=(4, 16)).astype(np.bool_)
    qb = g.integers(0, 2, size=(4, 16)).astype(np.bool_)
    pb[1, :] = True  # one row all true, so reduce_all has a true result
    ref.add("compare_logic", [x, y2, pb, qb], [
        x == y2, x >= y2, pb & qb, pb | qb, pb ^ qb,
        pb.all(axis=1, keepdims=True), pb.any(axis=0, keepdims=True)])

    r = ru.uniform(g, (4, 16), -1.5, 1.5)
    ref.add("reductions", [r], [r.min(axis=1, keepdims=True),
                                f32(r.astype(np.float64).prod(axis=0, keepdims=True))])

    v = ru.uniform(g, (2, 8, 3))
    idx = ru.ints(g, (2, 5), 0, 7)
    gather = np.stack([v[n, idx[n], :] for n in range(2)])
    ref.add("data_movement", [x, v, idx], [
        np.ascontiguousarray(x[:, ::-1]), np.tile(x, (2, 3)), gather, x])


if __name__ == "__main__":
    ru.main(build)
