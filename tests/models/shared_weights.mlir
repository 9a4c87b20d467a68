// Weights several layers read: a weight two matmuls read, a bias two adds read
// through one broadcast, and an accumulator that a third matmul writes into.
#id = affine_map<(i, j) -> (i, j)>

func.func @shared(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<2x4xf32>) dimensions = [0]
  %m1 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a1 = arith.addf %m1, %bb : tensor<2x4xf32>
  %m2 = linalg.matmul ins(%a1, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a2 = arith.addf %m2, %bb : tensor<2x4xf32>
  // Accumulates into %a2: that input is written, so it is not split.
  %m3 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%a2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m3 : tensor<2x4xf32>
}
