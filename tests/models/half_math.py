"""Reference for half_math.mlir: each math op computed in float32 on the
widened input and rounded once to f16 / bf16."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# One rounding of an f32 result: equal to the correctly rounded value unless
# the f32 result lies within an f32 ulp or two of a half-precision rounding
# boundary, which these inputs avoid; so the comparison is exact.
# tolerance: rtol=0 atol=0

erf32 = np.vectorize(lambda v: np.float32(math.erf(float(v))), otypes=[np.float32])


def build(ref):
    g = ru.rng(1616)
    x = ru.uniform(g, (128,), -2.0, 2.0).astype(np.float16)
    w = x.astype(np.float32)
    outs = [np.expm1(w), np.exp(w), np.tanh(w), erf32(w), np.sin(w),
            np.log1p(np.abs(w))]
    ref.add("f16_math", [x], [o.astype(np.float32).astype(np.float16) for o in outs])

    xd = ru.uniform(g, (37,), -2.0, 2.0).astype(np.float16)
    ref.add("f16_expm1_dynamic", [xd],
            [np.expm1(xd.astype(np.float32)).astype(np.float16)])
    xs = np.array(-0.6323, dtype=np.float16)
    ref.add("f16_expm1_scalar", [xs],
            [np.expm1(xs.astype(np.float32)).astype(np.float16)])

    xb = ru.bf16_bits(ru.uniform(g, (64,), -2.0, 2.0))
    wb = ru.bf16_to_f32(xb)
    ref.add("bf16_math", [xb], [ru.bf16_bits(np.expm1(wb)), ru.bf16_bits(np.tanh(wb))])


if __name__ == "__main__":
    ru.main(build)
