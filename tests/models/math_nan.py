"""Reference for math_nan.mlir (math functions, NaN and infinity handling).

NaN positions must match exactly; infinities must match in sign."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Transcendentals may be libm calls or polynomial approximations (a few ulp of f32);
# the reference evaluates them in float64 and rounds once.
# tolerance: rtol=1e-5 atol=1e-6


def build(ref):
    g = ru.rng(1515)
    f64 = lambda a: a.astype(np.float64)  # noqa: E731
    f32 = np.float32

    x = ru.uniform(g, (4, 16), -6.0, 6.0)
    x[0, :4] = [0.0, -0.0, 20.0, -20.0]
    ref.add("activations", [x], [np.tanh(f64(x)).astype(f32), np.exp(f64(x)).astype(f32),
                                 (1.0 / (1.0 + np.exp(-f64(x)))).astype(f32)])

    x = ru.uniform(g, (16,), -4.0, 4.0)
    x[:6] = [-1.0, -0.0, 0.0, np.inf, -np.inf, np.nan]
    ref.add("sqrt_log_rsqrt", [x], [np.sqrt(f64(x)).astype(f32), np.log(f64(x)).astype(f32),
                                    (1.0 / np.sqrt(f64(x))).astype(f32)])

    a = ru.uniform(g, (8,), -2.0, 2.0)
    b = ru.uniform(g, (8,), -2.0, 2.0)
    a[0], b[1], a[2], b[2] = np.nan, np.nan, np.nan, np.nan
    a[3], b[3] = np.inf, -np.inf
    ref.add("nan_minmax", [a, b], [np.maximum(a, b), np.fmax(a, b), np.minimum(a, b), np.fmin(a, b)])

    a = ru.uniform(g, (8,), -2.0, 2.0, np.float64)
    b = ru.uniform(g, (8,), -2.0, 2.0, np.float64)
    a[0], b[1], a[2], b[2] = np.nan, np.nan, np.nan, np.nan
    b[3] = a[3]
    ref.add("nan_compare", [a, b], [a < b, ~(a >= b), a != b, a == b])

    x = ru.uniform(g, (3, 6), -3.0, 3.0, np.float64)
    x[1, 2] = np.nan
    ref.add("f64_math", [x], [np.tanh(np.log1p(np.exp(x))), np.max(x, axis=1)])

    x = ru.uniform(g, (1, 4, 4, 1), -8.0, 8.0)
    x[0, 0, 0, 0] = np.nan  # in the first pooling window
    x[0, 3, 2, 0] = np.nan  # in the last pooling window
    pooled = x.reshape(1, 2, 2, 2, 2, 1).max(axis=(2, 4))  # np.max propagates NaN
    ref.add("tosa_nan_propagate", [x], [np.clip(x, 0.0, 6.0), pooled])


if __name__ == "__main__":
    ru.main(build)
