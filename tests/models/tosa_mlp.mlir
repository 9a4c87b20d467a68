// A two-layer perceptron in TOSA (MLIR 22 syntax): tosa.reshape with !tosa.shape operands
// from tosa.const_shape, tosa.matmul with a_zp/b_zp operands, tosa.add with broadcast
// biases, tosa.clamp as ReLU.

func.func @mlp(%x: tensor<4x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
               %w2: tensor<32x8xf32>, %b2: tensor<8xf32>) -> tensor<4x8xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %s_x = tosa.const_shape {values = dense<[1, 4, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_w1 = tosa.const_shape {values = dense<[1, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_b1 = tosa.const_shape {values = dense<[1, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_w2 = tosa.const_shape {values = dense<[1, 32, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_b2 = tosa.const_shape {values = dense<[1, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_out = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>

  %x3 = tosa.reshape %x, %s_x : (tensor<4x16xf32>, !tosa.shape<3>) -> tensor<1x4x16xf32>
  %w13 = tosa.reshape %w1, %s_w1 : (tensor<16x32xf32>, !tosa.shape<3>) -> tensor<1x16x32xf32>
  %b13 = tosa.reshape %b1, %s_b1 : (tensor<32xf32>, !tosa.shape<3>) -> tensor<1x1x32xf32>
  %h0 = tosa.matmul %x3, %w13, %zp, %zp : (tensor<1x4x16xf32>, tensor<1x16x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x32xf32>
  %h1 = tosa.add %h0, %b13 : (tensor<1x4x32xf32>, tensor<1x1x32xf32>) -> tensor<1x4x32xf32>
  %h = tosa.clamp %h1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x4x32xf32>) -> tensor<1x4x32xf32>

  %w23 = tosa.reshape %w2, %s_w2 : (tensor<32x8xf32>, !tosa.shape<3>) -> tensor<1x32x8xf32>
  %b23 = tosa.reshape %b2, %s_b2 : (tensor<8xf32>, !tosa.shape<3>) -> tensor<1x1x8xf32>
  %y0 = tosa.matmul %h, %w23, %zp, %zp : (tensor<1x4x32xf32>, tensor<1x32x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8xf32>
  %y1 = tosa.add %y0, %b23 : (tensor<1x4x8xf32>, tensor<1x1x8xf32>) -> tensor<1x4x8xf32>
  %y = tosa.reshape %y1, %s_out : (tensor<1x4x8xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Batched tosa.matmul (batch 2) followed by a ReLU6 clamp and a sigmoid.
func.func @bmm_relu6_sigmoid(%a: tensor<2x3x5xf32>, %b: tensor<2x5x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x5xf32>, tensor<2x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
  %r6 = tosa.clamp %m {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %sg = tosa.sigmoid %m : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r6, %sg : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}
