"""Reference for generic_contractions.mlir: matmuls written as linalg.generic.

Plain, with B transposed, with A transposed, with the loops in another order,
and a batch matmul; each is recognised as a contraction and tiled and
vectorized like linalg.matmul.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# 32-term dot products of values in [-1, 1], summed in f32 in any order.
# tolerance: rtol=1e-4 atol=1e-4


def mm(a, b):
    return (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)


def build(ref):
    g = ru.rng(3224)
    a = ru.uniform(g, (16, 32))
    b = ru.uniform(g, (32, 24))
    ref.add("mm_generic", [a, b], [mm(a, b)])
    bt = ru.uniform(g, (24, 32))
    ref.add("mm_b_transposed", [a, bt], [mm(a, bt.T)])
    at = ru.uniform(g, (32, 16))
    ref.add("mm_a_transposed", [at, b], [mm(at.T, b)])
    ref.add("mm_loops_nmk", [a, b], [mm(a, b)])
    ba = ru.uniform(g, (3, 16, 32))
    bb = ru.uniform(g, (3, 32, 24))
    ref.add("bmm_generic", [ba, bb], [mm(ba, bb)])


if __name__ == "__main__":
    ru.main(build)
