"""Reference for tcp_style.mlir with mlir-tcp's aot_compile keys: Input0,
Input1, ... for the arguments and Output0, ... for the results.

usage: python3 tcp_style.py OUT.npz"""
import sys

import numpy as np

x = np.arange(-6, 9, dtype=np.float32).reshape(5, 3) / np.float32(4)
s = np.array(1.5, dtype=np.float32)
np.savez(sys.argv[1],
         Input0=x,
         Input1=s,
         Output0=x * s,
         Output1=np.array(x.astype(np.float64).sum(), dtype=np.float32))
