"""Reference for libc_names.mlir (exported names that clash with C library functions)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Every result is exact (copies, fabs, integer division).
# tolerance: rtol=0 atol=0


def build(ref):
    g = ru.rng(1111)

    x = ru.ints(g, (4,), -1000, 1000)
    ref.add("dup", [x], [x.copy(), x.copy()])

    x = ru.uniform(g, (8,), -3.0, 3.0)
    x[0] = -0.0
    ref.add("abs", [x], [np.abs(x)])

    a = np.array([7, -7, 7, -7, 100, -1], np.int32)
    b = np.array([2, 2, -2, -2, 7, 3], np.int32)
    q = (np.abs(a) // np.abs(b)) * np.sign(a) * np.sign(b)  # truncates toward zero
    ref.add("div", [a, b], [q.astype(np.int32)])


if __name__ == "__main__":
    ru.main(build)
