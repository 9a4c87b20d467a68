"""Reference for scale.mlir: y = a * x and sum(y), keys scale/argN, scale/resultN."""
import sys

import numpy as np

x = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
a = np.float32(2.5)
y = (x * a).astype(np.float32)
np.savez(sys.argv[1], **{
    "scale/arg0": x,
    "scale/arg1": np.array(a, dtype=np.float32),
    "scale/result0": y,
    "scale/result1": np.array(y.astype(np.float64).sum(), dtype=np.float32),
})
