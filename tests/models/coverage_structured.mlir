// Structured ops not covered by the other models, each against numpy:
// linalg.contract (B transposed), linalg.elementwise (add, exp),
// linalg.batch_mmt4d, and TOSA's conv3d, transpose_conv2d (stride 2),
// resize (nearest and bilinear, 2x up) and apply_scale.

func.func @contract_bt(%a: tensor<6x8xf32>, %b: tensor<5x8xf32>) -> tensor<6x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x5xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<6x8xf32>, tensor<5x8xf32>) outs(%f : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}
func.func @elementwise(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %s = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a, %b : tensor<4x6xf32>, tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %x = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %s, %x : tensor<4x6xf32>, tensor<4x6xf32>
}
func.func @batch_mmt4d(%a: tensor<2x3x4x2x3xf32>, %b: tensor<2x5x4x4x3xf32>) -> tensor<2x3x5x2x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x5x2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x5x2x4xf32>) -> tensor<2x3x5x2x4xf32>
  %r = linalg.batch_mmt4d ins(%a, %b : tensor<2x3x4x2x3xf32>, tensor<2x5x4x4x3xf32>) outs(%f : tensor<2x3x5x2x4xf32>) -> tensor<2x3x5x2x4xf32>
  return %r : tensor<2x3x5x2x4xf32>
}

func.func @conv3d(%x: tensor<1x4x4x4x2xf32>, %w: tensor<3x2x2x2x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x3x3x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x4x4x4x2xf32>, tensor<3x2x2x2x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x3x3xf32>
  return %r : tensor<1x3x3x3x3xf32>
}
func.func @transpose_conv(%x: tensor<1x3x3x2xf32>, %w: tensor<4x2x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x3x2xf32>, tensor<4x2x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}
func.func @resize(%x: tensor<1x2x3x2xf32>) -> (tensor<1x3x5x2xf32>, tensor<1x3x5x2xf32>) {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %n = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x2x3x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x5x2xf32>
  %l = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x2x3x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x5x2xf32>
  return %n, %l : tensor<1x3x5x2xf32>, tensor<1x3x5x2xf32>
}
func.func @apply_scale(%v: tensor<16xi32>, %m: tensor<16xi32>, %s: tensor<16xi8>) -> tensor<16xi32> {
  %r = tosa.apply_scale %v, %m, %s {rounding_mode = SINGLE_ROUND} : (tensor<16xi32>, tensor<16xi32>, tensor<16xi8>) -> tensor<16xi32>
  return %r : tensor<16xi32>
}
