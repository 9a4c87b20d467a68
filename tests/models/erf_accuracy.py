"""Reference for erf_accuracy.mlir: Python's math.erf (libm's, correctly
rounded to f32 here) on f32 inputs of every magnitude."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Nothing but ulp: the approximation is within 6 ulp of the rounded erf
# everywhere (worst near |x| = 3.5, where erf is within 1e-6 of 1).
# tolerance: rtol=0 atol=0 ulp=6

erf32 = np.vectorize(lambda v: np.float32(math.erf(float(v))),
                     otypes=[np.float32])


def build(ref):
    g = ru.rng(3737)
    # Bit patterns drawn uniformly between 1e-30 and 6: each binade as
    # likely as the next, so tiny, middle and saturated inputs all appear.
    lo = np.array(1e-30, np.float32).view(np.int32)
    hi = np.array(6.0, np.float32).view(np.int32)
    spread = g.integers(lo, hi, 30000, dtype=np.int32).view(np.float32)
    dense = np.linspace(-4.5, 4.5, 20001, dtype=np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45,
                        1e-38, 3.925, -3.925, 3.9249997, 3.9250002, 1e30,
                        -1e30, 0.5, 1.0, 2.0, 3.52124], np.float32)
    x = np.concatenate([spread, -spread[:15000], dense, special])
    ref.add("erf_f32", [x], [erf32(x)])


if __name__ == "__main__":
    ru.main(build)
