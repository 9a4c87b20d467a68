"""Reference for attention_heads.mlir (matmul + bias, head split and merge reshapes)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Dot products of 32 terms in [-1, 1] accumulated in f32 in any order; the
# reshapes and transposes move values exactly.
# tolerance: rtol=1e-5 atol=1e-5


def build(ref):
    g = ru.rng(1616)
    f = lambda a: a.astype(np.float64)  # noqa: E731

    x = ru.uniform(g, (16, 32))
    w = ru.uniform(g, (32, 32))
    b = ru.uniform(g, (32,))
    q = f(x) @ f(w) + f(b)
    heads = q.reshape(16, 4, 8).transpose(1, 0, 2)
    ref.add("split_heads", [x, w, b], [heads.astype(np.float32)])

    a = ru.uniform(g, (4, 16, 8))
    w = ru.uniform(g, (32, 32))
    merged = f(a).transpose(1, 0, 2).reshape(16, 32)
    ref.add("merge_heads", [a, w], [(merged @ f(w)).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
