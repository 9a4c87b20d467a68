"""Prints a deep MLP whose layers all differ: layer i multiplies by a splat
weight of its own, so no two dispatches are alike and each is compiled.

    distinct_layers.py LAYERS
"""
import sys

layers = int(sys.argv[1])
t = "tensor<8x64xf32>"
lines = [
    f"func.func @mlp(%x: {t}, %b: tensor<64xf32>) -> {t} {{",
    "  %z = arith.constant 0.0 : f32",
]
prev = "%x"
for i in range(layers):
    lines += [
        f"  %e{i} = tensor.empty() : {t}",
        f"  %f{i} = linalg.fill ins(%z : f32) outs(%e{i} : {t}) -> {t}",
        f"  %w{i} = arith.constant dense<{0.001 * (i + 1):.3f}> : tensor<64x64xf32>",
        f"  %m{i} = linalg.matmul ins({prev}, %w{i} : {t}, tensor<64x64xf32>)"
        f" outs(%f{i} : {t}) -> {t}",
        f"  %bb{i} = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e{i} : {t})"
        " dimensions = [0]",
        f"  %a{i} = arith.addf %m{i}, %bb{i} : {t}",
        f"  %r{i} = arith.maximumf %a{i}, %f{i} : {t}",
    ]
    prev = f"%r{i}"
lines += [f"  return {prev} : {t}", "}"]
print("\n".join(lines))
