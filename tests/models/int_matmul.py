"""Reference for int_matmul.mlir: i8 and i16 matmuls summed in int32, exact
(numpy sums in int64; the i16 case wraps to int32 as i32 arithmetic does)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import refutil as ru  # noqa: E402

# tolerance: rtol=0 atol=0


def matmul_i32(a, b):
    """a @ b in int64, wrapped to int32."""
    return (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)


def build(ref):
    g = ru.rng(5150)
    for name, (m, k, n) in [("mm_i8_pairs", (64, 256, 96)),
                            ("mm_i8_k_blocks", (32, 512, 64)),
                            ("mm_i8_odd_k", (24, 37, 48)),
                            ("mm_i8_narrow_n", (16, 64, 24))]:
        a = ru.ints(g, (m, k), -128, 127, np.int8)
        b = ru.ints(g, (k, n), -128, 127, np.int8)
        # The extremes, where sign extension shows.
        a[0, :4] = [-128, -128, 127, -128]
        b[:4, 0] = [-128, -128, 127, 127]
        ref.add(name, [a, b], [matmul_i32(a, b)])

    a = ru.ints(g, (16, 64), -32768, 32767, np.int16)
    b = ru.ints(g, (64, 32), -32768, 32767, np.int16)
    a[0, :] = -32768
    b[:, 0] = -32768
    ref.add("mm_i16_pairs", [a, b], [matmul_i32(a, b)])

    a = ru.ints(g, (19, 30), -128, 127, np.int8)
    b = ru.ints(g, (30, 45), -128, 127, np.int8)
    ref.add("mm_i8_dynamic", [a, b], [matmul_i32(a, b)])

    a = ru.ints(g, (24, 37), -128, 127, np.int8)
    b = ru.ints(g, (48, 37), -128, 127, np.int8)
    a[0, :4] = [-128, -128, 127, -128]
    b[0, :4] = [-128, -128, 127, 127]
    ref.add("mm_i8_transposed", [a, b], [matmul_i32(a, b.T)])

    a = ru.ints(g, (2, 19, 30), -128, 127, np.int8)
    b = ru.ints(g, (2, 45, 30), -128, 127, np.int8)
    c = ru.ints(g, (2, 19, 45), -1000, 1000, np.int32)
    ref.add("bmm_i8_transposed_dynamic", [a, b, c],
            [(c.astype(np.int64) + a.astype(np.int64)
              @ b.astype(np.int64).transpose(0, 2, 1)).astype(np.int32)])

    a = ru.ints(g, (3, 200), -128, 127, np.int8)
    b = ru.ints(g, (40, 200), -128, 127, np.int8)
    a[0, :4] = [-128, -128, 127, -128]
    b[0, :4] = [-128, -128, 127, 127]
    ref.add("mv_i8_transposed", [a, b], [matmul_i32(a, b.T)])

    a = ru.ints(g, (3, 256), -128, 127, np.int8)
    b = ru.ints(g, (40, 256), -128, 127, np.int8)
    ref.add("mv_i8_transposed_pairs", [a, b], [matmul_i32(a, b.T)])

    a = ru.ints(g, (1, 64), -32768, 32767, np.int16)
    b = ru.ints(g, (36, 64), -32768, 32767, np.int16)
    a[0, :] = -32768
    b[0, :] = -32768
    b[0, 63] = 32767  # wraps to -2147450880, not a round 0
    ref.add("mv_i16_transposed_wrap", [a, b], [matmul_i32(a, b.T)])

    a = ru.ints(g, (1, 201), -128, 127, np.int8)
    b = ru.ints(g, (201, 256), -128, 127, np.int8)
    ref.add("mv_i8_wide", [a, b], [matmul_i32(a, b)])

    a = ru.ints(g, (3, 64), -3000, 3000, np.int16)
    b = ru.ints(g, (64, 192), -3000, 3000, np.int16)
    ref.add("few_i16_wide", [a, b], [matmul_i32(a, b)])


if __name__ == "__main__":
    ru.main(build)
