"""Writes a model whose NxN i8 constant weight is extended to i32 before a
matmul (usage: widened_weight.py N)."""
import sys

n = int(sys.argv[1])
data = bytes((k * 7 + 3) % 256 for k in range(n * n)).hex().upper()
w8, w32, v = f"tensor<{n}x{n}xi8>", f"tensor<{n}x{n}xi32>", f"tensor<4x{n}xi32>"
sys.stdout.write(f"""func.func @f(%x: {v}) -> {v} {{
  %w = arith.constant dense<"0x{data}"> : {w8}
  %ww = arith.extsi %w : {w8} to {w32}
  %z = arith.constant 0 : i32
  %e = tensor.empty() : {v}
  %f = linalg.fill ins(%z : i32) outs(%e : {v}) -> {v}
  %r = linalg.matmul ins(%x, %ww : {v}, {w32}) outs(%f : {v}) -> {v}
  return %r : {v}
}}
""")
