// Ops that make or fill tensors, against numpy: bufferization.alloc_tensor
// (filled), bufferization.materialize_in_destination (a copy), and
// linalg.fill_rng_2d, whose generator the reference computes from the op's
// definition (a 32-bit linear congruential step per row and per column).

func.func @alloc_and_copy(%x: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>) {
  %a = bufferization.alloc_tensor() : tensor<4x5xf32>
  %one = arith.constant 1.0 : f32
  %f = linalg.fill ins(%one : f32) outs(%a : tensor<4x5xf32>) -> tensor<4x5xf32>
  %e = tensor.empty() : tensor<4x5xf32>
  %c = bufferization.materialize_in_destination %x in %e : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return %f, %c : tensor<4x5xf32>, tensor<4x5xf32>
}
func.func @rng(%min: f64, %max: f64, %seed: i32) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.fill_rng_2d ins(%min, %max, %seed : f64, f64, i32) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
