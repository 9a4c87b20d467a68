#!/usr/bin/env python3
"""Compiles examples/models/scale.mlir (or loads a library made from it),
calls it on numpy data and checks the results against numpy.

    PYTHONPATH=python python3 examples/python/run_model.py [MODEL]

MODEL: scale.mlir (the default) or a library compiled from it.

Compiling needs aot-compile: $AOT_COMPILE, beside an installed mlir_aot,
or on PATH. Loading a .so (aot-compile scale.mlir -o scale.so) needs
nothing but numpy."""

import os
import sys

import numpy as np

import mlir_aot


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = (sys.argv[1] if len(sys.argv) > 1
            else os.path.join(here, "..", "models", "scale.mlir"))
    module = (mlir_aot.compile(path, opt=3) if path.endswith((".mlir",
                                                              ".mlirbc"))
              else mlir_aot.load(path))
    print(module)
    print(module.scale.signature)

    # tensor<?x4xf32>: any number of rows of 4 float32; f32: a Python float.
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    y, total = module.scale(x, 0.5)  # two results: an array, a 0-d array

    np.testing.assert_allclose(y, x * 0.5, rtol=1e-6)
    np.testing.assert_allclose(total, (x * 0.5).sum(), rtol=1e-6)
    print("y =", y.tolist())
    print("sum =", float(total))

    try:
        module.scale(x.astype(np.float64), 0.5)  # no silent casts
    except mlir_aot.ArgumentTypeError as e:
        print("refused:", e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
