// Pooling in NHWC layout: max pooling with -inf padding, sum pooling, average pooling
// with zero padding (count includes the padding), and integer max pooling.

// 3x3 window, stride 2, padding 1 with -inf: out = (8+2-3)/2+1 = 4.
func.func @maxpool_3x3_s2_pad(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %acc = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %win : tensor<1x10x10x4xf32>, tensor<3x3xf32>)
      outs(%acc : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}

// 2x2 window, stride 2, no padding.
func.func @sumpool_2x2(%x: tensor<2x6x6x3xf32>) -> tensor<2x3x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x3x3x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<2x6x6x3xf32>, tensor<2x2xf32>)
      outs(%acc : tensor<2x3x3x3xf32>) -> tensor<2x3x3x3xf32>
  return %r : tensor<2x3x3x3xf32>
}

// 3x3 average, stride 1, zero padding 1, divisor always 9 (padding counted).
func.func @avgpool_3x3_pad(%x: tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32> {
  %zero = arith.constant 0.0 : f32
  %nine = arith.constant 9.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x2xf32> to tensor<1x7x7x2xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x5x5x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %win : tensor<1x7x7x2xf32>, tensor<3x3xf32>)
      outs(%acc : tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  %init = tensor.empty() : tensor<1x5x5x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x5x5x2xf32>) outs(%init : tensor<1x5x5x2xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.divf %v, %nine : f32
    linalg.yield %d : f32
  } -> tensor<1x5x5x2xf32>
  return %r : tensor<1x5x5x2xf32>
}

// Integer max pooling, 2x2 window, stride 1, no padding; the accumulator starts at INT32_MIN.
func.func @maxpool_i32(%x: tensor<1x5x5x2xi32>) -> tensor<1x4x4x2xi32> {
  %min = arith.constant -2147483648 : i32
  %win = tensor.empty() : tensor<2x2xi32>
  %e = tensor.empty() : tensor<1x4x4x2xi32>
  %acc = linalg.fill ins(%min : i32) outs(%e : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %win : tensor<1x5x5x2xi32>, tensor<2x2xi32>)
      outs(%acc : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  return %r : tensor<1x4x4x2xi32>
}

// TOSA max_pool2d (padding is implicit: padded positions never win).
func.func @tosa_maxpool(%x: tensor<1x7x7x3xf32>) -> tensor<1x4x4x3xf32> {
  %r = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : (tensor<1x7x7x3xf32>) -> tensor<1x4x4x3xf32>
  return %r : tensor<1x4x4x3xf32>
}
