"""Reference for tosa_control.mlir (tosa.cond_if, tosa.while_loop, and
tosa.rescale with per-channel double rounding, from the TOSA specification's
definition of apply_scale_32)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# Additions of values in [-1, 1] and doublings are exact in f32; the
# requantized integers must match exactly.
# tolerance: rtol=0 atol=0

MULT = [1073741824, 1518500250, 2147483000, 1234567890]
SHIFT = [20, 31, 36, 40]
OUT_ZP = -5


def apply_scale_32(value, multiplier, shift):
    """TOSA apply_scale_32 with double rounding, in Python integers."""
    rounding = 1 << (shift - 1)
    if shift > 31:
        rounding += (1 << 30) if value >= 0 else -(1 << 30)
    result = (value * multiplier + rounding) >> shift  # arithmetic shift
    return max(-(1 << 31), min((1 << 31) - 1, result))


def requantize(acc):
    out = np.empty(acc.shape, dtype=np.int8)
    for i in range(acc.shape[0]):
        for c in range(acc.shape[1]):
            v = apply_scale_32(int(acc[i, c]), MULT[c], SHIFT[c]) + OUT_ZP
            out[i, c] = max(-128, min(127, v))
    return out


def build(ref):
    g = ru.rng(1312)
    x = ru.uniform(g, (4, 8))
    y = ru.uniform(g, (4, 8))
    p = np.array(True)
    ref.add("select_branch", [p, x, y], [x + y, x - y])

    n = np.array(5, dtype=np.int32)
    v = ru.uniform(g, (16,))
    ref.add("double_n_times", [n, v], [v * np.float32(32)])

    # Small values, values in the range each channel's scale maps into
    # int8 (where the rounding decides the result), and large ones that
    # saturate, up to where the scaled value still fits in i32 (beyond it
    # the specification leaves the result undefined).
    acc = np.zeros((64, 4), dtype=np.int32)
    acc[:8] = ru.ints(g, (8, 4), -20, 20)
    for c, (m, s) in enumerate(zip(MULT, SHIFT)):
        span = (1 << min(s, 30)) // 64
        acc[8:40, c] = ru.ints(g, (32,), -span, span)
        fits = min((1 << 31) - 1, ((1 << (31 + s)) // m) - 1)
        acc[40:, c] = ru.ints(g, (24,), -fits, fits)
    ref.add("requantize", [acc], [requantize(acc)])


if __name__ == "__main__":
    ru.main(build)
