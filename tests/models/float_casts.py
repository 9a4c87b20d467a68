"""Reference for float_casts.mlir (float truncation/extension, float <-> int).

bf16 tensors are stored as uint16 bit patterns; truncation to bf16 is modelled by
round-to-nearest-even on the float32 bit pattern (refutil.bf16_bits)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Conversions are exact or correctly rounded: compare exactly.
# tolerance: rtol=0 atol=0


def build(ref):
    g = ru.rng(1717)

    x = ru.uniform(g, (16,), -100.0, 100.0)
    # ties, overflow, underflow, signed zero, infinity, NaN
    x[:10] = [1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -8, 70000.0, 3.4e38,
              1e-8, -0.0, np.inf, -np.inf, np.nan]
    ref.add("to_half", [x], [x.astype(np.float16), ru.bf16_bits(x)])

    h = (ru.ints(g, (8,), -64, 64) / 8.0).astype(np.float16)
    b = ru.bf16_round(ru.uniform(g, (8,), -4.0, 4.0))
    h[0] = np.float16(65504.0)
    b[1] = ru.bf16_round(np.float32(1e30))
    s = h.astype(np.float32) + b
    ref.add("from_half", [h, ru.bf16_bits(b)], [s.astype(np.float32), b.astype(np.float64)])

    x = ru.uniform(g, (8,), -1.0, 1.0, np.float64)
    x[:4] = [1e300, -1e-300, 1.0 + 2.0 ** -24, 1.0 + 3 * 2.0 ** -24]
    t = x.astype(np.float32)
    ref.add("f64_f32", [x], [t, t.astype(np.float64)])

    x = ru.uniform(g, (10,), -120.0, 120.0)
    x[:4] = [2.9, -2.9, -0.5, 127.99]
    n = ru.ints(g, (10,), -(1 << 40), 1 << 40, np.int64)
    n[:2] = [(1 << 24) + 1, -((1 << 24) + 3)]  # not representable: rounded to even
    u = ru.ints(g, (10,), -32768, 32767, np.int16)
    u[:2] = [-1, -32768]
    ref.add("float_int", [x, n, u], [np.trunc(x).astype(np.int32), np.trunc(x).astype(np.int8),
                                     n.astype(np.float32), u.view(np.uint16).astype(np.float32)])


if __name__ == "__main__":
    ru.main(build)
