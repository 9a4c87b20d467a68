// Matmuls that accumulate in f16: computed in f32 from the f16 values and
// rounded to f16 once (as a library on hardware without f16 arithmetic
// does), not rounded to f16 after every step of K. The values are integers,
// so every f32 sum is exact and the one rounding is numpy's.

// A's first column is 2048: summed in f16, each later +1 would be lost
// (f16 holds only even integers from 2048 on); in f32 they all count.
func.func @mm_f16_acc(%a: tensor<8x64xf16>, %b: tensor<64x40xf16>) -> tensor<8x40xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x40xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x40xf16>) -> tensor<8x40xf16>
  %r = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x40xf16>) outs(%f : tensor<8x40xf16>) -> tensor<8x40xf16>
  return %r : tensor<8x40xf16>
}

// Accumulates into the values of %c (C += A B), with cache blocks, packed
// panels and a partial last strip (N = 70).
func.func @mm_f16_blocked(%a: tensor<260x300xf16>, %b: tensor<300x70xf16>, %c: tensor<260x70xf16>) -> tensor<260x70xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<260x300xf16>, tensor<300x70xf16>) outs(%c : tensor<260x70xf16>) -> tensor<260x70xf16>
  return %r : tensor<260x70xf16>
}

func.func @bmm_f16(%a: tensor<3x9x40xf16>, %b: tensor<3x40x35xf16>) -> tensor<3x9x35xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3x9x35xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<3x9x35xf16>) -> tensor<3x9x35xf16>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x9x40xf16>, tensor<3x40x35xf16>) outs(%f : tensor<3x9x35xf16>) -> tensor<3x9x35xf16>
  return %r : tensor<3x9x35xf16>
}
