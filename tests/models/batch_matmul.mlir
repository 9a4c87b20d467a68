// linalg.batch_matmul in f32 and f64.

func.func @bmm_f32(%a: tensor<4x8x16xf32>, %b: tensor<4x16x12xf32>) -> tensor<4x8x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x12xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x12xf32>) -> tensor<4x8x12xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x8x16xf32>, tensor<4x16x12xf32>)
                           outs(%c : tensor<4x8x12xf32>) -> tensor<4x8x12xf32>
  return %r : tensor<4x8x12xf32>
}

func.func @bmm_f64(%a: tensor<3x5x9xf64>, %b: tensor<3x9x2xf64>) -> tensor<3x5x2xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3x5x2xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<3x5x2xf64>) -> tensor<3x5x2xf64>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x5x9xf64>, tensor<3x9x2xf64>)
                           outs(%c : tensor<3x5x2xf64>) -> tensor<3x5x2xf64>
  return %r : tensor<3x5x2xf64>
}
