"""Reference for inplace.mlir (results computed into argument tensors).

The compiled functions must not modify their inputs: the stored inputs are the values
before the call, and a test may check that they are unchanged after it."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# matmul_acc adds 16-term f32 dot products of values in [-1, 1] to C; the rest is exact.
# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(1919)

    a = ru.uniform(g, (8, 16))
    b = ru.uniform(g, (16, 4))
    c = ru.uniform(g, (8, 4))
    r = c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    ref.add("matmul_acc", [a, b, c], [r.astype(np.float32)])

    x = ru.ints(g, (5, 5), -1000, 1000)
    ref.add("update_arg", [x], [(x * 3 + 1).astype(np.int32)])

    x = ru.uniform(g, (6,))
    v = ru.uniform(g, (2,))
    n = x.copy()
    n[3:5] = v
    ref.add("old_and_new", [x, v], [x.copy(), n])


if __name__ == "__main__":
    ru.main(build)
