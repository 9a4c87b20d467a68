// Contractions whose operands are narrower than their accumulator: int8
// operands summed in int32 (quantized models) and f16 operands summed in f32.

func.func @bmm_i8_i32(%a: tensor<2x9x40xi8>, %b: tensor<2x40x35xi8>) -> tensor<2x9x35xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x9x35xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<2x9x35xi32>) -> tensor<2x9x35xi32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x9x40xi8>, tensor<2x40x35xi8>) outs(%f : tensor<2x9x35xi32>) -> tensor<2x9x35xi32>
  return %r : tensor<2x9x35xi32>
}

func.func @mm_i8_i32(%a: tensor<16x64xi8>, %b: tensor<64x32xi8>) -> tensor<16x32xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x32xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<16x32xi32>) -> tensor<16x32xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x64xi8>, tensor<64x32xi8>) outs(%f : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %r : tensor<16x32xi32>
}

func.func @mm_f16_f32(%a: tensor<24x48xf16>, %b: tensor<48x40xf16>) -> tensor<24x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<24x40xf32>) -> tensor<24x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<24x48xf16>, tensor<48x40xf16>) outs(%f : tensor<24x40xf32>) -> tensor<24x40xf32>
  return %r : tensor<24x40xf32>
}

// A generic contraction of f16 operands (B stored N x K) into f32: its
// inputs are converted once, and it is vectorized as a linalg.contract.
func.func @mm_f16_f32_generic_bt(%a: tensor<24x48xf16>, %b: tensor<40x48xf16>) -> tensor<24x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<24x40xf32>) -> tensor<24x40xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<24x48xf16>, tensor<40x48xf16>) outs(%f : tensor<24x40xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xw = arith.extf %x : f16 to f32
    %yw = arith.extf %y : f16 to f32
    %p = arith.mulf %xw, %yw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<24x40xf32>
  return %r : tensor<24x40xf32>
}

// Large enough for cache blocks and packed panels of the converted B, with
// a partial last strip (N = 70).
func.func @mm_f16_f32_blocked(%a: tensor<260x300xf16>, %b: tensor<300x70xf16>) -> tensor<260x70xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<260x70xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<260x70xf32>) -> tensor<260x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<260x300xf16>, tensor<300x70xf16>) outs(%f : tensor<260x70xf32>) -> tensor<260x70xf32>
  return %r : tensor<260x70xf32>
}
