"""Reference for identity_multi.mlir (pass-through results, multiple results)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Pass-through results are exact; row_stats sums 5 (and then 6 row-sum) f32 terms.
# tolerance: rtol=1e-5 atol=1e-6


def build(ref):
    g = ru.rng(1010)

    x = ru.uniform(g, (3, 4))
    ref.add("identity", [x], [x.copy()])

    x = ru.ints(g, (10,), -(1 << 50), 1 << 50, np.int64)
    ref.add("identity_dyn_i64", [x], [x.copy()])

    a = ru.uniform(g, (2, 3))
    b = ru.ints(g, (5,), -30000, 30000, np.int16)
    ref.add("swap", [a, b], [b.copy(), a.copy()])

    x = ru.ints(g, (4,), -1000, 1000)
    ref.add("same_twice", [x], [x.copy(), x.copy()])

    x = ru.ints(g, (4,), -1000, 1000)
    ref.add("pass_and_double", [x], [x.copy(), x + x])

    x = ru.uniform(g, (6, 5))
    s = x.astype(np.float64).sum(axis=1)
    mean = (s.astype(np.float32) / np.float32(5.0)).astype(np.float64)
    ref.add("row_stats", [x],
            [x.min(axis=1), x.max(axis=1),
             (x.astype(np.float64) - mean[:, None]).astype(np.float32),
             np.array(s.sum(), dtype=np.float32)])


if __name__ == "__main__":
    ru.main(build)
