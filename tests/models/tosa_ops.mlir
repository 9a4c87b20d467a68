// More TOSA (MLIR 22 syntax): conv2d (OHWI weights, zero-point operands), avg_pool2d
// (padding excluded from the divisor), transpose, elementwise exp/reciprocal/rsqrt/tanh,
// cast float -> int (round to nearest even, saturating), greater + select, argmax,
// slice/pad/concat with !tosa.shape operands.

func.func @conv2d(%x: tensor<1x6x6x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x6x6x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %r = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x6x6x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

func.func @avg_pool(%x: tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %r = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x5x5x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x2xf32>
  return %r : tensor<1x5x5x2xf32>
}

func.func @transpose_unary(%x: tensor<3x5xf32>) -> (tensor<5x3xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
  %e = tosa.exp %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = tosa.reciprocal %e : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %a = tosa.abs %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %q = tosa.rsqrt %a : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %h = tosa.tanh %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %t, %r, %q, %h : tensor<5x3xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
}

// float -> int casts round to nearest, ties to even, and saturate.
func.func @cast_round(%x: tensor<12xf32>) -> (tensor<12xi32>, tensor<12xi8>) {
  %a = tosa.cast %x : (tensor<12xf32>) -> tensor<12xi32>
  %b = tosa.cast %x : (tensor<12xf32>) -> tensor<12xi8>
  return %a, %b : tensor<12xi32>, tensor<12xi8>
}

func.func @greater_select_argmax(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xi1>, tensor<4x6xf32>, tensor<4xi32>) {
  %g = tosa.greater %a, %b : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
  %s = tosa.select %g, %a, %b : (tensor<4x6xi1>, tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = tosa.argmax %a {axis = 1 : i32} : (tensor<4x6xf32>) -> tensor<4xi32>
  return %g, %s, %m : tensor<4x6xi1>, tensor<4x6xf32>, tensor<4xi32>
}

func.func @slice_pad_concat(%x: tensor<4x5xi32>) -> tensor<4x7xi32> {
  %start = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.slice %x, %start, %size : (tensor<4x5xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xi32>
  %padding = tosa.const_shape {values = dense<[1, 1, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %pv = "tosa.const"() {values = dense<-7> : tensor<1xi32>} : () -> tensor<1xi32>
  %p = tosa.pad %s, %padding, %pv : (tensor<2x3xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<4x3xi32>
  %c = tosa.concat %p, %x {axis = 1 : i32} : (tensor<4x3xi32>, tensor<4x5xi32>) -> tensor<4x8xi32>
  %start2 = tosa.const_shape {values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size2 = tosa.const_shape {values = dense<[4, 7]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.slice %c, %start2, %size2 : (tensor<4x8xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<4x7xi32>
  return %r : tensor<4x7xi32>
}
