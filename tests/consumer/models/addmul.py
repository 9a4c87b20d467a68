"""Reference for addmul.mlir in aot_compile's naming: Input0, Input1, Output0."""
import sys

import numpy as np

a = np.arange(8, dtype=np.int32) - 3
b = np.arange(8, dtype=np.int32) * 7 - 20
np.savez(sys.argv[1], Input0=a, Input1=b, Output0=((a + b) * b).astype(np.int32))
