// How attention splits and merges heads: a projection (matmul + bias) whose
// result is reshaped to (tokens, heads, head size) and transposed to
// (heads, tokens, head size), and the reverse before the output projection.
// The reshapes must stay outside the matmuls (the elementwise ops around
// them may take them in).

func.func @split_heads(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %bb = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<16x32xf32>) dimensions = [0]
  %q = arith.addf %m, %bb : tensor<16x32xf32>
  %h = tensor.expand_shape %q [[0], [1, 2]] output_shape [16, 4, 8] : tensor<16x32xf32> into tensor<16x4x8xf32>
  %te = tensor.empty() : tensor<4x16x8xf32>
  %t = linalg.transpose ins(%h : tensor<16x4x8xf32>) outs(%te : tensor<4x16x8xf32>) permutation = [1, 0, 2]
  return %t : tensor<4x16x8xf32>
}

func.func @merge_heads(%a: tensor<4x16x8xf32>, %w: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<16x4x8xf32>
  %t = linalg.transpose ins(%a : tensor<4x16x8xf32>) outs(%te : tensor<16x4x8xf32>) permutation = [1, 0, 2]
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<16x4x8xf32> into tensor<16x32xf32>
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%c, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %m : tensor<16x32xf32>
}
