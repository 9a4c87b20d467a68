// Depthwise convolution (linalg.depthwise_conv_2d_nhwc_hwc), a 1x1
// convolution and min pooling in NHWC layout, at sizes that leave partial
// register tiles (widths of 13 and 9 pixels, 40 channels).

func.func @depthwise3x3(%x: tensor<2x15x15x40xf32>, %w: tensor<3x3x40xf32>) -> tensor<2x13x13x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x13x13x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x13x13x40xf32>) -> tensor<2x13x13x40xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x15x15x40xf32>, tensor<3x3x40xf32>) outs(%acc : tensor<2x13x13x40xf32>) -> tensor<2x13x13x40xf32>
  return %r : tensor<2x13x13x40xf32>
}

// Stride 2: out = (19 - 3) / 2 + 1 = 9.
func.func @depthwise3x3_stride2(%x: tensor<1x19x19x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x9x9x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x9x9x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x19x19x16xf32>, tensor<3x3x16xf32>) outs(%acc : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  return %r : tensor<1x9x9x16xf32>
}

// A 1x1 convolution: a matmul over the channels of every pixel.
func.func @pointwise(%x: tensor<1x10x10x24xf32>, %w: tensor<1x1x24x40xf32>) -> tensor<1x10x10x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x10x10x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x10x40xf32>) -> tensor<1x10x10x40xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x24xf32>, tensor<1x1x24x40xf32>) outs(%acc : tensor<1x10x10x40xf32>) -> tensor<1x10x10x40xf32>
  return %r : tensor<1x10x10x40xf32>
}

// 2x2 min pooling, stride 2.
func.func @min_pool(%x: tensor<1x14x14x40xf32>) -> tensor<1x7x7x40xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<1x7x7x40xf32>
  %acc = linalg.fill ins(%inf : f32) outs(%e : tensor<1x7x7x40xf32>) -> tensor<1x7x7x40xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nhwc_min {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x14x14x40xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x7x7x40xf32>) -> tensor<1x7x7x40xf32>
  return %r : tensor<1x7x7x40xf32>
}
