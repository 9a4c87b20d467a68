// A two-layer perceptron in TOSA: relu(x . w1 + b1) . w2 + b2.
func.func @mlp(%x: tensor<2x4xf32>, %w1: tensor<1x4x8xf32>, %b1: tensor<1x1x8xf32>,
               %w2: tensor<1x8x3xf32>, %b2: tensor<1x1x3xf32>) -> tensor<2x3xf32> {
  %s3 = tosa.const_shape {values = dense<[1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s3 : (tensor<2x4xf32>, !tosa.shape<3>) -> tensor<1x2x4xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.matmul %x3, %w1, %zp, %zp : (tensor<1x2x4xf32>, tensor<1x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x8xf32>
  %hb = tosa.add %h, %b1 : (tensor<1x2x8xf32>, tensor<1x1x8xf32>) -> tensor<1x2x8xf32>
  %r = tosa.clamp %hb {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %o = tosa.matmul %r, %w2, %zp, %zp : (tensor<1x2x8xf32>, tensor<1x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %ob = tosa.add %o, %b2 : (tensor<1x2x3xf32>, tensor<1x1x3xf32>) -> tensor<1x2x3xf32>
  %s2 = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %out = tosa.reshape %ob, %s2 : (tensor<1x2x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
  return %out : tensor<2x3xf32>
}
