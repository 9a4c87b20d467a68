"""Reference for kinds.mlir (keys FUNC/argN, FUNC/resultN; a scalar is a 0-d
array).

usage: python3 kinds.py OUT.npz"""
import sys

import numpy as np

x = np.array([1.0, -2.0, 3.5, 0.25], dtype=np.float32)
m = np.arange(6, dtype=np.float64).reshape(2, 3) / 8
h = (np.arange(12, dtype=np.float16) - 5).reshape(3, 2, 2) / np.float16(4)
s = np.array(-1.25, dtype=np.float32)
np.savez(sys.argv[1], **{
    "no_result/arg0": x,
    "no_result/arg1": np.array(3, dtype=np.int32),
    "only_scalars/arg0": np.array(-7, dtype=np.int64),
    "only_scalars/arg1": np.array(True),
    "corner/arg0": m,
    "corner/result0": np.array(m[1, 2]),
    "mixed/arg0": h,
    "mixed/arg1": s,
    "mixed/result0": np.array(2 * s, dtype=np.float32),
    "mixed/result1": h + h,
    "mixed/result2": np.array(s > 0),
})
