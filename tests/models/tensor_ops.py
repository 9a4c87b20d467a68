"""Reference for tensor_ops.mlir (slices, concat, reshapes, pads, generate,
transposes)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Pure data movement: every result is exact.
# tolerance: rtol=0 atol=0


def build(ref):
    g = ru.rng(1818)

    x = ru.uniform(g, (8, 8))
    y = ru.uniform(g, (2, 3))
    ins = x.copy()
    ins[5:7, 2:5] = y
    ref.add("slices", [x, y], [x[1:6:2, 4:7:2].copy(), ins])

    a = ru.ints(g, (2, 3), -100, 100)
    b = ru.ints(g, (4, 3), -100, 100)
    c = ru.ints(g, (6, 2), -100, 100)
    ref.add("concat", [a, b, c], [np.concatenate([np.concatenate([a, b], 0), c], 1)])

    x = ru.uniform(g, (2, 12))
    e = x.reshape(2, 3, 4)
    ref.add("reshapes", [x], [e.copy(), x.reshape(24).copy(), np.ascontiguousarray(e.transpose(2, 1, 0))])

    x = ru.uniform(g, (3, 4), dtype=np.float64)
    p = np.full((4, 7), -1.0)
    p[1:4, 2:6] = x
    i, j = np.meshgrid(np.arange(5), np.arange(6), indexing="ij")
    q = (i * j).astype(np.float64)
    q[1:4, 1:5] = x
    ref.add("pads", [x], [p, q])

    x = ru.ints(g, (3, 3), -1000, 1000, np.int64)
    i, j = np.meshgrid(np.arange(4), np.arange(5), indexing="ij")
    ref.add("generate", [x], [(10 * i + j).astype(np.int64) + x[2, 1]])

    x = ru.uniform(g, (16, 3, 24))
    y = ru.ints(g, (8, 40), -1000, 1000, np.int64)
    z = ru.uniform(g, (12, 20))
    w = ru.uniform(g, (4, 5, 24))
    ref.add("transposes", [x, y, z, w],
            [np.ascontiguousarray(x.transpose(1, 2, 0)), np.ascontiguousarray(y.T),
             np.ascontiguousarray(z.T), np.ascontiguousarray(w.transpose(1, 0, 2))])


if __name__ == "__main__":
    ru.main(build)
