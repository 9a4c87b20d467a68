"""Reference of axpy.mlir: r = 3 * (x + 3) + y."""
import sys

import numpy as np

x = np.linspace(-2, 2, 64, dtype=np.float32)
y = np.arange(64, dtype=np.float32)
r = (np.float32(3) * (x + np.float32(3)) + y).astype(np.float32)
np.savez(sys.argv[1], **{"axpy/arg0": x, "axpy/arg1": y, "axpy/result0": r})
