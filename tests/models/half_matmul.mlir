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

// Few rows of A (fewer than 8): B stays f16 or bf16 and is converted to f32
// as the tiles read it, never copied whole. A vector times B stored
// transposed takes dot products (N = 40: 8 at a time), one by B stored
// K x N the loops of one row (N = 70: a partial last strip); 3 rows are a
// register tile, 5 rows by B transposed dot products again.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @mv_f16_transposed(%a: tensor<1x300xf16>, %b: tensor<40x300xf16>) -> tensor<1x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x40xf32>) -> tensor<1x40xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<1x300xf16>, tensor<40x300xf16>) outs(%f : tensor<1x40xf32>) -> tensor<1x40xf32>
  return %r : tensor<1x40xf32>
}

func.func @mv_bf16(%a: tensor<1x200xbf16>, %b: tensor<200x70xbf16>) -> tensor<1x70xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x70xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x70xf32>) -> tensor<1x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x200xbf16>, tensor<200x70xbf16>) outs(%f : tensor<1x70xf32>) -> tensor<1x70xf32>
  return %r : tensor<1x70xf32>
}

func.func @few_f16_acc(%a: tensor<3x64xf16>, %b: tensor<64x40xf16>) -> tensor<3x40xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<3x40xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<3x40xf16>) -> tensor<3x40xf16>
  %r = linalg.matmul ins(%a, %b : tensor<3x64xf16>, tensor<64x40xf16>) outs(%f : tensor<3x40xf16>) -> tensor<3x40xf16>
  return %r : tensor<3x40xf16>
}

func.func @few_bf16_transposed(%a: tensor<5x100xbf16>, %b: tensor<24x100xbf16>) -> tensor<5x24xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<5x24xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<5x24xbf16>) -> tensor<5x24xbf16>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<5x100xbf16>, tensor<24x100xbf16>) outs(%f : tensor<5x24xbf16>) -> tensor<5x24xbf16>
  return %r : tensor<5x24xbf16>
}

func.func @bmm_f16_few(%a: tensor<2x1x40xf16>, %b: tensor<2x40x35xf16>) -> tensor<2x1x35xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x1x35xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x1x35xf32>) -> tensor<2x1x35xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x1x40xf16>, tensor<2x40x35xf16>) outs(%f : tensor<2x1x35xf32>) -> tensor<2x1x35xf32>
  return %r : tensor<2x1x35xf32>
}
