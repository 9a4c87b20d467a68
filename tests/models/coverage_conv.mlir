// Convolutions and poolings of the linalg named ops not covered by the other
// models, each against numpy: 3-D convolutions (plain and NCDHW), the NCHW,
// 1-D channel-multiplier and 3-D depthwise convolutions, 3-D and 1-D
// poolings, unsigned poolings on i8, and the quantized (zero point) 2-D
// convolution and batch matmul.

func.func @conv3d_plain(%x: tensor<5x6x7xf32>, %k: tensor<2x3x2xf32>) -> tensor<4x4x6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4x6xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4x6xf32>) -> tensor<4x4x6xf32>
  %r = linalg.conv_3d ins(%x, %k : tensor<5x6x7xf32>, tensor<2x3x2xf32>) outs(%f : tensor<4x4x6xf32>) -> tensor<4x4x6xf32>
  return %r : tensor<4x4x6xf32>
}

func.func @conv3d_ncdhw(%x: tensor<1x2x4x5x5xf32>, %k: tensor<3x2x2x2x2xf32>) -> tensor<1x3x3x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x3x4x4xf32>) -> tensor<1x3x3x4x4xf32>
  %r = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %k : tensor<1x2x4x5x5xf32>, tensor<3x2x2x2x2xf32>) outs(%f : tensor<1x3x3x4x4xf32>) -> tensor<1x3x3x4x4xf32>
  return %r : tensor<1x3x3x4x4xf32>
}

func.func @depthwise_nchw(%x: tensor<1x3x5x6xf32>, %k: tensor<3x2x3xf32>) -> tensor<1x3x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x3x5x6xf32>, tensor<3x2x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r : tensor<1x3x4x4xf32>
}

func.func @depthwise_1d_multiplier(%x: tensor<1x8x3xf32>, %k: tensor<3x3x2xf32>) -> tensor<1x6x3x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x3x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x3x2xf32>) -> tensor<1x6x3x2xf32>
  %r = linalg.depthwise_conv_1d_nwc_wcm {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %k : tensor<1x8x3xf32>, tensor<3x3x2xf32>) outs(%f : tensor<1x6x3x2xf32>) -> tensor<1x6x3x2xf32>
  return %r : tensor<1x6x3x2xf32>
}

func.func @depthwise_3d(%x: tensor<1x4x5x5x2xf32>, %k: tensor<2x2x2x2xf32>) -> tensor<1x3x4x4x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x4x4x2xf32>) -> tensor<1x3x4x4x2xf32>
  %r = linalg.depthwise_conv_3d_ndhwc_dhwc {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %k : tensor<1x4x5x5x2xf32>, tensor<2x2x2x2xf32>) outs(%f : tensor<1x3x4x4x2xf32>) -> tensor<1x3x4x4x2xf32>
  return %r : tensor<1x3x4x4x2xf32>
}

func.func @pool3d(%x: tensor<1x4x4x4x2xf32>) -> (tensor<1x3x3x3x2xf32>, tensor<1x3x3x3x2xf32>, tensor<1x3x3x3x2xf32>) {
  %w = tensor.empty() : tensor<2x2x2xf32>
  %e = tensor.empty() : tensor<1x3x3x3x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0.0 : f32
  %fmax = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
  %fmin = linalg.fill ins(%pinf : f32) outs(%e : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
  %fsum = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
  %max = linalg.pooling_ndhwc_max {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x4x4x2xf32>, tensor<2x2x2xf32>) outs(%fmax : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
  %min = linalg.pooling_ndhwc_min {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x4x4x2xf32>, tensor<2x2x2xf32>) outs(%fmin : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
  %sum = linalg.pooling_ndhwc_sum {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x4x4x4x2xf32>, tensor<2x2x2xf32>) outs(%fsum : tensor<1x3x3x3x2xf32>) -> tensor<1x3x3x3x2xf32>
  return %max, %min, %sum : tensor<1x3x3x3x2xf32>, tensor<1x3x3x3x2xf32>, tensor<1x3x3x3x2xf32>
}

func.func @pool1d_max(%x: tensor<1x8x3xf32>) -> tensor<1x6x3xf32> {
  %w = tensor.empty() : tensor<3xf32>
  %e = tensor.empty() : tensor<1x6x3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x6x3xf32>) -> tensor<1x6x3xf32>
  %r = linalg.pooling_nwc_max {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%x, %w : tensor<1x8x3xf32>, tensor<3xf32>) outs(%f : tensor<1x6x3xf32>) -> tensor<1x6x3xf32>
  return %r : tensor<1x6x3xf32>
}

// Unsigned: the i8 bytes compared as 0..255.
func.func @pool_unsigned(%x: tensor<1x4x4x2xi8>, %y: tensor<1x6x2xi8>) -> (tensor<1x3x3x2xi8>, tensor<1x5x2xi8>) {
  %w2 = tensor.empty() : tensor<2x2xi8>
  %w1 = tensor.empty() : tensor<2xi8>
  %lo = arith.constant 0 : i8
  %hi = arith.constant -1 : i8
  %e2 = tensor.empty() : tensor<1x3x3x2xi8>
  %e1 = tensor.empty() : tensor<1x5x2xi8>
  %f2 = linalg.fill ins(%lo : i8) outs(%e2 : tensor<1x3x3x2xi8>) -> tensor<1x3x3x2xi8>
  %f1 = linalg.fill ins(%hi : i8) outs(%e1 : tensor<1x5x2xi8>) -> tensor<1x5x2xi8>
  %max = linalg.pooling_nhwc_max_unsigned {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w2 : tensor<1x4x4x2xi8>, tensor<2x2xi8>) outs(%f2 : tensor<1x3x3x2xi8>) -> tensor<1x3x3x2xi8>
  %min = linalg.pooling_nwc_min_unsigned {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%y, %w1 : tensor<1x6x2xi8>, tensor<2xi8>) outs(%f1 : tensor<1x5x2xi8>) -> tensor<1x5x2xi8>
  return %max, %min : tensor<1x3x3x2xi8>, tensor<1x5x2xi8>
}

// sum((x - x_zp) * (w - w_zp)) in i32.
func.func @conv_q(%x: tensor<1x5x5x2xi8>, %k: tensor<3x3x2x4xi8>, %xzp: i32, %kzp: i32) -> tensor<1x3x3x4xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x3x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x3x3x4xi32>) -> tensor<1x3x3x4xi32>
  %r = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k, %xzp, %kzp : tensor<1x5x5x2xi8>, tensor<3x3x2x4xi8>, i32, i32) outs(%f : tensor<1x3x3x4xi32>) -> tensor<1x3x3x4xi32>
  return %r : tensor<1x3x3x4xi32>
}

func.func @batch_matmul_q(%a: tensor<2x3x5xi8>, %b: tensor<2x5x4xi8>, %azp: i32, %bzp: i32) -> tensor<2x3x4xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x3x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
  %r = linalg.quantized_batch_matmul ins(%a, %b, %azp, %bzp : tensor<2x3x5xi8>, tensor<2x5x4xi8>, i32, i32) outs(%f : tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
  return %r : tensor<2x3x4xi32>
}
