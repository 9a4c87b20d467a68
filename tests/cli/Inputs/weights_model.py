"""Writes a model with one 64x32 f32 constant weight (8 KB) and a 32-element
bias (128 bytes, below the 1 KiB that external weights take by default):
y = x @ W + b for x of 4x64, W[k][j] = ((k*32 + j)*37 % 101 - 50) / 64 and
b[j] = j, all exact in f32. call_weights.c computes the same on its own."""
import struct
import sys

w = b"".join(struct.pack("<f", ((k * 37) % 101 - 50) / 64.0)
             for k in range(64 * 32))
bias = ", ".join(f"{j}.0" for j in range(32))
t = "tensor<4x32xf32>"
sys.stdout.write(f"""func.func @f(%x: tensor<4x64xf32>) -> {t} {{
  %w = arith.constant dense<"0x{w.hex().upper()}"> : tensor<64x32xf32>
  %b = arith.constant dense<[{bias}]> : tensor<32xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %f = linalg.fill ins(%z : f32) outs(%e : {t}) -> {t}
  %m = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%f : {t}) -> {t}
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : {t}) dimensions = [0]
  %r = linalg.add ins(%m, %bb : {t}, {t}) outs(%e : {t}) -> {t}
  return %r : {t}
}}
""")
