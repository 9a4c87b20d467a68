"""Reference for gelu_erf.mlir (GELU with math.erf)."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# erf may be a polynomial approximation (MLIR's f32 one is accurate to a few ulp; an f64
# erf may be evaluated through f32 or a libm call): 1e-5 relative, 1e-6 absolute.
# tolerance: rtol=1e-5 atol=1e-6

erf = np.vectorize(math.erf, otypes=[np.float64])


def build(ref):
    g = ru.rng(2121)

    x = ru.uniform(g, (4, 16), -5.0, 5.0)
    v = x.astype(np.float64)
    r = 0.5 * v * (1.0 + erf(v / math.sqrt(2.0)))
    ref.add("gelu_erf_f32", [x], [r.astype(np.float32)])

    x = ru.uniform(g, (10,), -3.0, 3.0, np.float64)
    x[:3] = [0.0, 6.0, -0.1]
    ref.add("erf_f64", [x], [erf(x)])


if __name__ == "__main__":
    ru.main(build)
