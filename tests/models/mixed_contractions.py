"""Reference for mixed_contractions.mlir: int8 x int8 summed in int32 (exact)
and f16 x f16 summed in f32."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Integers exact; f32 sums of 48 to 300 products of f16 values in [-1, 1]
# (each product exact in f32), in another order than float64 numpy.
# tolerance: rtol=1e-4 atol=1e-4


def build(ref):
    g = ru.rng(8808)
    i32 = lambda a: a.astype(np.int32)  # noqa: E731

    a = ru.ints(g, (2, 9, 40), -128, 127, np.int8)
    b = ru.ints(g, (2, 40, 35), -128, 127, np.int8)
    ref.add("bmm_i8_i32", [a, b], [(i32(a) @ i32(b)).astype(np.int32)])

    a = ru.ints(g, (16, 64), -128, 127, np.int8)
    b = ru.ints(g, (64, 32), -128, 127, np.int8)
    ref.add("mm_i8_i32", [a, b], [(i32(a) @ i32(b)).astype(np.int32)])

    a = ru.uniform(g, (24, 48), dtype=np.float16)
    b = ru.uniform(g, (48, 40), dtype=np.float16)
    out = a.astype(np.float64) @ b.astype(np.float64)
    ref.add("mm_f16_f32", [a, b], [out.astype(np.float32)])

    a = ru.uniform(g, (24, 48), dtype=np.float16)
    b = ru.uniform(g, (40, 48), dtype=np.float16)
    out = a.astype(np.float64) @ b.astype(np.float64).T
    ref.add("mm_f16_f32_generic_bt", [a, b], [out.astype(np.float32)])

    a = ru.uniform(g, (260, 300), dtype=np.float16)
    b = ru.uniform(g, (300, 70), dtype=np.float16)
    out = a.astype(np.float64) @ b.astype(np.float64)
    ref.add("mm_f16_f32_blocked", [a, b], [out.astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
