// 2-D convolutions in NHWC layout with HWCF filters (linalg.conv_2d_nhwc_hwcf):
// "same" padding through tensor.pad, stride 2 with a bias, and dilation 2.

func.func @conv_same_pad(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>)
      outs(%acc : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}

// Asymmetric padding (top/left 2, bottom/right 1) with a non-zero pad value 0.5,
// stride 2, then a per-channel bias: out = (10+3-3)/2+1 = 6.
func.func @conv_stride2_bias(%x: tensor<2x10x10x2xf32>, %w: tensor<3x3x2x5xf32>, %bias: tensor<5xf32>) -> tensor<2x6x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %half : f32
  } : tensor<2x10x10x2xf32> to tensor<2x13x13x2xf32>
  %e = tensor.empty() : tensor<2x6x6x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x13x13x2xf32>, tensor<3x3x2x5xf32>)
      outs(%acc : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  %init = tensor.empty() : tensor<2x6x6x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>,
                                        affine_map<(n, h, w, f) -> (f)>,
                                        affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<2x6x6x5xf32>, tensor<5xf32>) outs(%init : tensor<2x6x6x5xf32>) {
  ^bb0(%cv: f32, %bv: f32, %o: f32):
    %s = arith.addf %cv, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x6x6x5xf32>
  return %r : tensor<2x6x6x5xf32>
}

// Dilation 2, 2x2 kernel, no padding: effective window 3x3, out = 7-3+1 = 5.
func.func @conv_dilated(%x: tensor<1x7x7x1xf32>, %w: tensor<2x2x1x2xf32>) -> tensor<1x5x5x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x7x7x1xf32>, tensor<2x2x1x2xf32>)
      outs(%acc : tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  return %r : tensor<1x5x5x2xf32>
}
