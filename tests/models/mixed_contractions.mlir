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
