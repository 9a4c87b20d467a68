// More of linalg's named convolutions, each against numpy: grouped
// convolutions in their three layouts, 3-D depthwise convolutions (NCDHW and
// with a channel multiplier), and the quantized (zero point) variants of the
// 2-D, depthwise, 3-D and grouped convolutions.

func.func @grouped_ngchw_fgchw(%x: tensor<1x2x3x5x5xf32>, %k: tensor<4x2x3x2x2xf32>) -> tensor<1x2x4x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %r = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x2x3x5x5xf32>, tensor<4x2x3x2x2xf32>) outs(%f : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  return %r : tensor<1x2x4x4x4xf32>
}

func.func @grouped_ngchw_gfchw(%x: tensor<1x2x3x5x5xf32>, %k: tensor<2x4x3x2x2xf32>) -> tensor<1x2x4x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x2x3x5x5xf32>, tensor<2x4x3x2x2xf32>) outs(%f : tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  return %r : tensor<1x2x4x4x4xf32>
}

func.func @grouped_nhwgc_gfhwc(%x: tensor<1x5x5x2x3xf32>, %k: tensor<2x4x2x2x3xf32>) -> tensor<1x4x4x2x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4x4x2x4xf32>) -> tensor<1x4x4x2x4xf32>
  %r = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x5x5x2x3xf32>, tensor<2x4x2x2x3xf32>) outs(%f : tensor<1x4x4x2x4xf32>) -> tensor<1x4x4x2x4xf32>
  return %r : tensor<1x4x4x2x4xf32>
}

func.func @depthwise_3d_ncdhw(%x: tensor<1x2x4x5x5xf32>, %k: tensor<2x2x2x2xf32>) -> tensor<1x2x3x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x4x4xf32>
  %r = linalg.depthwise_conv_3d_ncdhw_cdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %k : tensor<1x2x4x5x5xf32>, tensor<2x2x2x2xf32>) outs(%f : tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x4x4xf32>
  return %r : tensor<1x2x3x4x4xf32>
}

func.func @depthwise_3d_multiplier(%x: tensor<1x4x5x5x2xf32>, %k: tensor<2x2x2x2x3xf32>) -> tensor<1x3x4x4x2x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4x2x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x4x4x2x3xf32>) -> tensor<1x3x4x4x2x3xf32>
  %r = linalg.depthwise_conv_3d_ndhwc_dhwcm {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %k : tensor<1x4x5x5x2xf32>, tensor<2x2x2x2x3xf32>) outs(%f : tensor<1x3x4x4x2x3xf32>) -> tensor<1x3x4x4x2x3xf32>
  return %r : tensor<1x3x4x4x2x3xf32>
}

func.func @conv_nchw_q(%x: tensor<1x2x5x5xi8>, %k: tensor<4x2x3x3xi8>, %xzp: i32, %kzp: i32) -> tensor<1x4x3x3xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x3x3xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x4x3x3xi32>) -> tensor<1x4x3x3xi32>
  %r = linalg.conv_2d_nchw_fchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x2x5x5xi8>, tensor<4x2x3x3xi8>, i32, i32) outs(%f : tensor<1x4x3x3xi32>) -> tensor<1x4x3x3xi32>
  return %r : tensor<1x4x3x3xi32>
}

func.func @conv_nhwc_fhwc_q(%x: tensor<1x5x5x2xi8>, %k: tensor<4x3x3x2xi8>, %xzp: i32, %kzp: i32) -> tensor<1x3x3x4xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x3x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x3x3x4xi32>) -> tensor<1x3x3x4xi32>
  %r = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x5x5x2xi8>, tensor<4x3x3x2xi8>, i32, i32) outs(%f : tensor<1x3x3x4xi32>) -> tensor<1x3x3x4xi32>
  return %r : tensor<1x3x3x4xi32>
}

func.func @depthwise_q(%x: tensor<1x5x5x3xi8>, %k: tensor<3x3x3xi8>, %xzp: i32, %kzp: i32) -> tensor<1x3x3x3xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x3x3xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x3x3x3xi32>) -> tensor<1x3x3x3xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x5x5x3xi8>, tensor<3x3x3xi8>, i32, i32) outs(%f : tensor<1x3x3x3xi32>) -> tensor<1x3x3x3xi32>
  return %r : tensor<1x3x3x3xi32>
}

func.func @depthwise_multiplier_q(%x: tensor<1x5x5x3xi8>, %k: tensor<3x3x3x2xi8>, %xzp: i32, %kzp: i32) -> tensor<1x3x3x3x2xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x3x3x2xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x3x3x3x2xi32>) -> tensor<1x3x3x3x2xi32>
  %r = linalg.depthwise_conv_2d_nhwc_hwcm_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x5x5x3xi8>, tensor<3x3x3x2xi8>, i32, i32) outs(%f : tensor<1x3x3x3x2xi32>) -> tensor<1x3x3x3x2xi32>
  return %r : tensor<1x3x3x3x2xi32>
}

func.func @conv3d_q(%x: tensor<1x4x4x4x2xi8>, %k: tensor<2x2x2x2x3xi8>, %xzp: i32, %kzp: i32) -> tensor<1x3x3x3x3xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x3x3x3xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x3x3x3x3xi32>) -> tensor<1x3x3x3x3xi32>
  %r = linalg.conv_3d_ndhwc_dhwcf_q {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x4x4x4x2xi8>, tensor<2x2x2x2x3xi8>, i32, i32) outs(%f : tensor<1x3x3x3x3xi32>) -> tensor<1x3x3x3x3xi32>
  return %r : tensor<1x3x3x3x3xi32>
}

func.func @grouped_ngchw_gfchw_q(%x: tensor<1x2x3x5x5xi8>, %k: tensor<2x4x3x2x2xi8>, %xzp: i32, %kzp: i32) -> tensor<1x2x4x4x4xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x2x4x4x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x2x4x4x4xi32>) -> tensor<1x2x4x4x4xi32>
  %r = linalg.conv_2d_ngchw_gfchw_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x2x3x5x5xi8>, tensor<2x4x3x2x2xi8>, i32, i32) outs(%f : tensor<1x2x4x4x4xi32>) -> tensor<1x2x4x4x4xi32>
  return %r : tensor<1x2x4x4x4xi32>
}

func.func @grouped_nhwgc_gfhwc_q(%x: tensor<1x5x5x2x3xi8>, %k: tensor<2x4x2x2x3xi8>, %xzp: i32, %kzp: i32) -> tensor<1x4x4x2x4xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x4x2x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x4x4x2x4xi32>) -> tensor<1x4x4x2x4xi32>
  %r = linalg.conv_2d_nhwgc_gfhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x5x5x2x3xi8>, tensor<2x4x2x2x3xi8>, i32, i32) outs(%f : tensor<1x4x4x2x4xi32>) -> tensor<1x4x4x2x4xi32>
  return %r : tensor<1x4x4x2x4xi32>
}

// Unsigned poolings: the i8 bytes compared as 0..255.
func.func @pool_unsigned_more(%x: tensor<1x6x2xi8>, %y: tensor<1x4x4x2xi8>) -> (tensor<1x5x2xi8>, tensor<1x3x3x2xi8>) {
  %w1 = tensor.empty() : tensor<2xi8>
  %w2 = tensor.empty() : tensor<2x2xi8>
  %lo = arith.constant 0 : i8
  %hi = arith.constant -1 : i8
  %e1 = tensor.empty() : tensor<1x5x2xi8>
  %e2 = tensor.empty() : tensor<1x3x3x2xi8>
  %f1 = linalg.fill ins(%lo : i8) outs(%e1 : tensor<1x5x2xi8>) -> tensor<1x5x2xi8>
  %f2 = linalg.fill ins(%hi : i8) outs(%e2 : tensor<1x3x3x2xi8>) -> tensor<1x3x3x2xi8>
  %max = linalg.pooling_nwc_max_unsigned {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w1 : tensor<1x6x2xi8>, tensor<2xi8>) outs(%f1 : tensor<1x5x2xi8>) -> tensor<1x5x2xi8>
  %min = linalg.pooling_nhwc_min_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%y, %w2 : tensor<1x4x4x2xi8>, tensor<2x2xi8>) outs(%f2 : tensor<1x3x3x2xi8>) -> tensor<1x3x3x2xi8>
  return %max, %min : tensor<1x5x2xi8>, tensor<1x3x3x2xi8>
}
