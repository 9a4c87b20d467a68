"""Writes DIR/layered.mlir, a chain of LAYERS layers y = leaky_relu(x @ W)
whose 32x32 f32 weights (4 KiB each, the least that is kept aside; seeded
random) are constants of the module, and DIR/layered.npz, its input and
numpy's result. Each layer's slope is its own, so that no two layers' code
is alike.

usage: layered_weights.py DIR LAYERS"""
import os
import sys

import numpy as np

out, layers = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(7)
x = rng.standard_normal((8, 32)).astype(np.float32)
t = "tensor<8x32xf32>"
identity = "affine_map<(i, j) -> (i, j)>"
lines = [f"func.func @layered(%x0: {t}) -> {t} {{",
         "  %zero = arith.constant 0.0 : f32"]
y = x.astype(np.float64)
for i in range(layers):
    # A rotation, scaled by what the activation takes away on average: the
    # values neither vanish nor grow along the chain.
    slope = np.float32((i + 1) / 256)
    q = np.linalg.qr(rng.standard_normal((32, 32)))[0]
    w = (q * np.sqrt(2 / (1 + float(slope) ** 2))).astype(np.float32)
    m = y @ w.astype(np.float64)
    y = np.maximum(m, m * np.float64(slope))
    lines += [
        f'  %w{i} = arith.constant dense<"0x{w.tobytes().hex().upper()}"> '
        ": tensor<32x32xf32>",
        f"  %e{i} = tensor.empty() : {t}",
        f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : {t}) -> {t}",
        f"  %m{i} = linalg.matmul ins(%x{i}, %w{i} : {t}, tensor<32x32xf32>) "
        f"outs(%f{i} : {t}) -> {t}",
        f"  %x{i + 1} = linalg.generic {{indexing_maps = [{identity}, "
        f"{identity}], iterator_types = [\"parallel\", \"parallel\"]}} "
        f"ins(%m{i} : {t}) outs(%e{i} : {t}) {{",
        "  ^bb0(%v: f32, %o: f32):",
        f"    %s = arith.constant {float(slope):.9e} : f32",
        "    %l = arith.mulf %v, %s : f32",
        "    %r = arith.maximumf %v, %l : f32",
        "    linalg.yield %r : f32",
        f"  }} -> {t}"]
lines += [f"  return %x{layers} : {t}", "}", ""]
with open(os.path.join(out, "layered.mlir"), "w") as f:
    f.write("\n".join(lines))
np.savez(os.path.join(out, "layered.npz"),
         **{"layered/arg0": x, "layered/result0": y.astype(np.float32)})
