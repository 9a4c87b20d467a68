"""The correct reference of affine.mlir, and damaged variants of it.

    python3 affine_ref.py OUT.npz [ok|values|dtype|missing|shape]
"""
import sys

import numpy as np


def reference():
    x = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], dtype=np.float32)
    b = np.array([10.0, 20.0, 30.0], dtype=np.float32)
    return {"affine/arg0": x, "affine/arg1": b,
            "affine/result0": (2 * x + b).astype(np.float32)}


def damaged(kind):
    ref = reference()
    if kind == "values":
        ref["affine/result0"][1, 2] += 0.5  # one element off
    elif kind == "dtype":
        ref["affine/arg0"] = ref["affine/arg0"].astype(np.float64)
    elif kind == "missing":
        del ref["affine/result0"]
    elif kind == "shape":
        ref["affine/arg1"] = np.zeros(4, dtype=np.float32)
    return ref


def main(out, kind):
    np.savez(out, **damaged(kind))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "ok")
