"""The arrays of the .npz round-trip tests.

Each array is a formula of the flat row-major index i; NpzReference.h
computes the same formulas in C++, so a mismatch shows which side is wrong.
"""

import numpy as np

# bf16 has no numpy dtype: the array holds its raw bits as uint16.
BF16_BITS_KEY = "bf16_bits"


def _bf16_bits(values):
    return (values.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def reference_arrays():
    """Key -> array: every supported dtype, ranks 0 to 4, a key with '/',
    an empty array and float special values."""
    def i(n):
        return np.arange(n, dtype=np.int64)

    arrays = {
        "bool": (i(6) % 3 == 1).reshape(2, 3),
        "int8": ((i(5) * 37) % 256 - 128).astype(np.int8),
        "int16": ((i(8) * 9973) % 65536 - 32768).astype(np.int16).reshape(2, 2, 2),
        "int32": (i(12) * 123456789 - 1000000000).astype(np.int32).reshape(3, 4),
        "int64": (i(12) * 1000000000007 - 2**62).reshape(2, 3, 1, 2),
        "uint8": ((i(7) * 59 + 3) % 256).astype(np.uint8),
        "uint16": ((i(9) * 4099 + 17) % 65536).astype(np.uint16).reshape(3, 3),
        "uint32": ((i(4) * 2654435761) % 2**32).astype(np.uint32),
        "uint64": (np.uint64(2**63)
                   + i(4).astype(np.uint64) * np.uint64(12345678901234567)).reshape(2, 2),
        "float16": ((i(6) - 2) * 0.375).astype(np.float16).reshape(3, 2),
        "float32": ((i(24) - 7) * 0.1).astype(np.float32).reshape(2, 3, 4),
        "float64": np.array((0 * 0.5 - 3) / 7.0, dtype=np.float64),
        BF16_BITS_KEY: _bf16_bits((i(8) - 3) * 0.5).reshape(2, 4),
        "add/arg0": (i(24) / 8 - 1).astype(np.float32).reshape(2, 2, 2, 3),
        "empty": np.zeros((0, 3), dtype=np.float32),
        "specials": np.array([np.nan, np.inf, -np.inf, -0.0, 2.0**-149,
                              np.finfo(np.float32).max], dtype=np.float32),
    }
    return arrays


def cpp_written_arrays():
    """What test_Npz.cpp writes: the reference arrays plus a transposed
    (non-contiguous in C++) int32 array."""
    arrays = reference_arrays()
    arrays["transposed"] = np.arange(12, dtype=np.int32).reshape(3, 4).T
    return arrays
