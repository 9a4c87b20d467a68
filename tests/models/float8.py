"""Reference for float8.mlir: codes decoded and values rounded by
refutil's table search over each format's definition (never by the
compiler); arithmetic in float32 on the decoded values, rounded once."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Widening is exact and so is rounding (any f8 difference is far above
# 1e-6); the matmuls' f32 sums may round differently in the last place.
# tolerance: rtol=1e-6 atol=1e-6

SHORT = {"f8E4M3FN": "e4m3fn", "f8E5M2": "e5m2", "f8E4M3FNUZ": "e4m3fnuz",
         "f8E5M2FNUZ": "e5m2fnuz"}


def rounding_inputs(g, fmt):
    """301 values: ties between neighbouring codes, the codes themselves,
    subnormal-range and overflowing values, specials, random ones."""
    table = ru.f8_decode_table(fmt)
    finite = np.unique(np.abs(table[np.isfinite(table)]))
    mids = (finite[:-1] + finite[1:]) / 2          # exact ties
    top = finite[-1]
    top_ulp = finite[-1] - finite[-2]
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, top, -top,
               top + top_ulp / 2, top + top_ulp / 2 * 0.999, top * 4, -top * 4,
               finite[1] / 2, finite[1] / 2 * 1.001, finite[1] / 4, 1e-30, 3.0e38]
    picks = np.concatenate([g.choice(mids, 120), g.choice(finite, 60)])
    signs = np.where(g.random(picks.size) < 0.5, -1.0, 1.0)
    rest = 301 - len(special) - picks.size
    spread = np.exp(g.uniform(np.log(finite[1] / 8), np.log(top * 2), rest))
    spread *= np.where(g.random(rest) < 0.5, -1.0, 1.0)
    return np.concatenate([special, picks * signs, spread]).astype(np.float32)


def build(ref):
    g = ru.rng(88)
    codes = np.arange(256, dtype=np.uint8)
    for fmt, short in SHORT.items():
        ref.add("ext_" + short, [codes], [ru.f8_to_f32(codes, fmt)])
    ref.add("ext_e5m2_to_f16", [codes],
            [ru.f8_to_f32(codes, "f8E5M2").astype(np.float16)])
    dyn = g.integers(0, 256, 37).astype(np.uint8)
    ref.add("ext_e4m3fnuz_dyn", [dyn],
            [ru.f8_decode_table("f8E4M3FNUZ")[dyn]])

    for fmt, short in SHORT.items():
        x = rounding_inputs(g, fmt)
        ref.add("trunc_" + short, [x], [ru.f8_bits(x, fmt)])
    # f64 inputs between f32 values: rounded once, from the f64.
    x64 = rounding_inputs(g, "f8E5M2").astype(np.float64)
    x64 *= 1 + np.where(g.random(x64.size) < 0.5, -1e-12, 1e-12)
    ref.add("trunc_f64_e5m2", [x64], [ru.f8_bits(x64, "f8E5M2")])
    xb = ru.bf16_bits(g.uniform(-500, 500, 64))
    ref.add("trunc_bf16_e4m3fn", [xb],
            [ru.f8_bits(ru.bf16_to_f32(xb), "f8E4M3FN")])
    xh = (g.uniform(-70000, 70000, 64) * np.where(g.random(64) < 0.5, 1, 1e-4)
          ).astype(np.float16)
    ref.add("trunc_f16_e5m2fnuz", [xh],
            [ru.f8_bits(xh.astype(np.float32), "f8E5M2FNUZ")])

    fmt = "f8E4M3FN"
    a = ru.f8_bits(g.uniform(-20, 20, 64), fmt)
    b = ru.f8_bits(g.uniform(-20, 20, 64), fmt)
    fa, fb = ru.f8_to_f32(a, fmt), ru.f8_to_f32(b, fmt)
    ref.add("arith_e4m3fn", [a, b],
            [ru.f8_bits(fa + fb, fmt), ru.f8_bits(fa * fb, fmt),
             ru.f8_bits(fa - fb, fmt), ru.f8_bits(np.maximum(fa, fb), fmt)])
    fmt = "f8E5M2"
    a = ru.f8_bits(g.uniform(-100, 100, 45), fmt)
    b = ru.f8_bits(g.uniform(0.5, 8, 45) * np.where(g.random(45) < 0.5, -1, 1), fmt)
    ref.add("arith_e5m2_dyn", [a, b],
            [ru.f8_bits(ru.f8_to_f32(a, fmt) / ru.f8_to_f32(b, fmt), fmt)])

    fmt = "f8E4M3FN"
    a = ru.f8_bits(g.uniform(-4, 4, (16, 32)), fmt)
    b = ru.f8_bits(g.uniform(-4, 4, (32, 24)), fmt)
    product = ru.f8_to_f32(a, fmt).astype(np.float64) @ ru.f8_to_f32(b, fmt)
    ref.add("matmul_e4m3fn", [a, b], [product.astype(np.float32)])
    fmt = "f8E5M2"
    a = ru.f8_bits(g.uniform(-4, 4, (13, 29)), fmt)
    b = ru.f8_bits(g.uniform(-4, 4, (29, 7)), fmt)
    product = ru.f8_to_f32(a, fmt).astype(np.float64) @ ru.f8_to_f32(b, fmt)
    ref.add("matmul_e5m2_dyn", [a, b], [product.astype(np.float32)])

    x = g.uniform(-1, 1, 4).astype(np.float32)
    ref.add("const_e4m3fn", [x],
            [x + np.array([0.5, -1.5, 448.0, 0.015625], np.float32)])


if __name__ == "__main__":
    ru.main(build)
