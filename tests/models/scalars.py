"""Reference for scalars.mlir (scalar arguments passed by value)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# At most a multiply and an add per element in f32 (an FMA would differ by an ulp);
# the packing of scalars into f64 is exact.
# tolerance: rtol=1e-6 atol=1e-6


def build(ref):
    g = ru.rng(1212)
    f32 = np.float32

    a = ru.scalar(1.75, np.float32)
    x = ru.uniform(g, (16,))
    y = ru.uniform(g, (16,))
    ref.add("axpy", [a, x, y], [(a * x + y).astype(np.float32)])

    x = ru.ints(g, (8,), -1000, 1000)
    k = ru.scalar(-123, np.int32)
    ref.add("add_i32_scalar", [x, k], [(x + k).astype(np.int32)])

    x = ru.uniform(g, (4, 4))
    s = ru.scalar(-0.5, np.float32)
    n = ru.scalar(7, np.int32)
    ref.add("scale_shift", [x, s, n], [(x * s + f32(n)).astype(np.float32)])

    args = [ru.scalar(True, np.bool_), ru.scalar(-100, np.int8), ru.scalar(-30000, np.int16),
            ru.scalar(2000000000, np.int32), ru.scalar(-(1 << 40) - 3, np.int64),
            ru.scalar(0.1, np.float32), ru.scalar(-2.5e100, np.float64)]
    packed = np.array([1.0, -100.0, -30000.0, 2000000000.0, float(-(1 << 40) - 3),
                       float(np.float32(0.1)), -2.5e100], np.float64)
    ref.add("pack_scalars", args, [packed])

    x = ru.uniform(g, (10,))
    flag = ru.scalar(False, np.bool_)
    ref.add("select_by_flag", [x, flag], [-x if not flag else np.maximum(x, 0)])

    x = ru.uniform(g, (10,))
    s = ru.scalar(0.25, np.float64)
    i = ru.scalar(-3, np.int8)
    r = (x * np.float32(s)).astype(np.float32) * np.float32(i)
    ref.add("call_private", [x, s, i], [r.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
