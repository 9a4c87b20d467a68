"""Spoils a reference of tests/models/dynamic.mlir, one function each way,
so that each generated test case fails with its own message.

usage: python3 wrong_reference.py GOOD.npz WRONG.npz

  dyn_axpb/arg0              stored as float64 instead of float32
  dyn_matmul/arg1            missing
  dyn_rowsum/arg0            9x5 where the signature says ?x4
  dyn_transpose/result0      one element off by 0.5
  dyn_first_half_neg/result0 rank 3 where the signature says rank 2
"""
import sys

import numpy as np

arrays = dict(np.load(sys.argv[1]))
arrays["dyn_axpb/arg0"] = arrays["dyn_axpb/arg0"].astype(np.float64)
del arrays["dyn_matmul/arg1"]
arrays["dyn_rowsum/arg0"] = np.zeros((9, 5), dtype=np.float32)
wrong = arrays["dyn_transpose/result0"].copy()
wrong[2, 1] += np.float32(0.5)
arrays["dyn_transpose/result0"] = wrong
arrays["dyn_first_half_neg/result0"] = arrays["dyn_first_half_neg/result0"][..., None]
np.savez(sys.argv[2], **arrays)
