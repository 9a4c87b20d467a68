// A convolution over a dynamic batch of images (NHWC, 3x3 filters).
func.func @conv(%x: tensor<?x10x10x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<?x8x8x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x10x10x8xf32>
  %e = tensor.empty(%n) : tensor<?x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
  return %y : tensor<?x8x8x16xf32>
}
