"""Reference for control_flow.mlir (scf.for, scf.while, cf branches)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# The reference replays the f32 operations in program order; the slack covers a fused
# multiply-add in relax (10 contracting steps) and reassociation in the 4x4 matmuls.
# tolerance: rtol=1e-5 atol=1e-6


def build(ref):
    g = ru.rng(1313)
    f32 = np.float32

    x = ru.uniform(g, (8,))
    b = ru.uniform(g, (8,))
    n = ru.scalar(10, np.int32)
    r = x.copy()
    for _ in range(int(n)):
        r = (r * f32(0.5) + b).astype(np.float32)
    ref.add("relax", [x, b, n], [r])

    x = ru.uniform(g, (16,))
    r = np.empty(16, np.float32)
    run = f32(0.0)
    for i in range(16):
        run = f32(run + x[i])
        r[i] = run
    ref.add("cumsum", [x], [r])

    m = ru.uniform(g, (4, 4))
    m64 = m.astype(np.float64)
    ref.add("matpow3", [m], [(m64 @ m64 @ m64).astype(np.float32)])

    x = ru.uniform(g, (5,), 0.5, 1.0)
    limit = ru.scalar(100.0, np.float32)
    t, count = x.copy(), 0
    while t[0] <= limit:
        t = (t * f32(2.0)).astype(np.float32)
        count += 1
    ref.add("double_until", [x, limit], [t, np.array([count], np.int32)])

    x = ru.uniform(g, (6,), -2.0, 2.0)
    k = ru.scalar(-4, np.int32)
    r = (x + f32(k)) if k > 0 else (x * x)
    ref.add("branchy", [x, k], [r.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
