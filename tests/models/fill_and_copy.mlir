// Ops that make or fill tensors, against numpy: bufferization.alloc_tensor
// (filled), bufferization.materialize_in_destination (a copy), and
// linalg.fill_rng_2d, whose generator the reference computes from the op's
// definition (a 32-bit linear congruential step per row and per column).
// Zero fills of small static shapes whose rows the vector does not divide
// (33): LLVM once took minutes to compile them, unrolled.

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
func.func @zero_fill_odd_rows() -> tensor<3x4x54x33xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4x54x33xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x4x54x33xf32>) -> tensor<3x4x54x33xf32>
  return %f : tensor<3x4x54x33xf32>
}
func.func @conv_i8_odd_channels(%x: tensor<3x8x58x32xi8>, %k: tensor<5x5x32x33xi8>) -> tensor<3x4x54x33xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x4x54x33xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<3x4x54x33xi32>) -> tensor<3x4x54x33xi32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %k : tensor<3x8x58x32xi8>, tensor<5x5x32x33xi8>) outs(%f : tensor<3x4x54x33xi32>) -> tensor<3x4x54x33xi32>
  return %r : tensor<3x4x54x33xi32>
}
