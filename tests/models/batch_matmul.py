"""Reference for batch_matmul.mlir (linalg.batch_matmul, f32 and f64)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# At most 16-term dot products of values in [-1, 1]; the f32 case bounds the error
# (~16 * eps_f32), the f64 case is far below it.
# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(303)

    a = ru.uniform(g, (4, 8, 16))
    b = ru.uniform(g, (4, 16, 12))
    r = np.matmul(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
    ref.add("bmm_f32", [a, b], [r])

    a = ru.uniform(g, (3, 5, 9), dtype=np.float64)
    b = ru.uniform(g, (3, 9, 2), dtype=np.float64)
    ref.add("bmm_f64", [a, b], [np.matmul(a, b)])


if __name__ == "__main__":
    ru.main(build)
