// Static shapes whose sizes the register tiles and cache blocks do not
// divide well (primes, 70 = 2 x 5 x 7, 1000 = 8 x 125): full tiles of the
// wanted size, and a peeled last tile vectorized at the full size with
// masks, instead of tiles of the largest divisor (1 for a prime: scalar
// code; 25 lanes for 1000, which LLVM takes apart lane by lane).

// M = 67 (prime): 8 tiles of 8 rows and one of 3; N = 70: 2 tiles of 32
// columns and one of 6.
func.func @odd_matmul(%a: tensor<67x61xf32>, %b: tensor<61x70xf32>) -> tensor<67x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<67x70xf32>) -> tensor<67x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<67x61xf32>, tensor<61x70xf32>) outs(%c : tensor<67x70xf32>) -> tensor<67x70xf32>
  return %r : tensor<67x70xf32>
}

// Cache blocks of 64 rows, 256 columns and 256 steps of K, each last one
// partial (263, 257 and 269 are prime); B's blocks packed into panels.
func.func @odd_blocked(%a: tensor<263x269xf32>, %b: tensor<269x257xf32>) -> tensor<263x257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<263x257xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<263x257xf32>) -> tensor<263x257xf32>
  %r = linalg.matmul ins(%a, %b : tensor<263x269xf32>, tensor<269x257xf32>) outs(%c : tensor<263x257xf32>) -> tensor<263x257xf32>
  return %r : tensor<263x257xf32>
}

func.func @odd_batch_matmul(%a: tensor<3x67x61xf32>, %b: tensor<3x61x70xf32>) -> tensor<3x67x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x67x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x67x70xf32>) -> tensor<3x67x70xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x67x61xf32>, tensor<3x61x70xf32>) outs(%c : tensor<3x67x70xf32>) -> tensor<3x67x70xf32>
  return %r : tensor<3x67x70xf32>
}

// i8 x i8 -> i32 with N = 70: the full 32-column tiles as pair dots where
// the target has them, the partial one as i32 outer products.
func.func @odd_int_matmul(%a: tensor<67x62xi8>, %b: tensor<62x70xi8>) -> tensor<67x70xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<67x70xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<67x70xi32>) -> tensor<67x70xi32>
  %r = linalg.matmul ins(%a, %b : tensor<67x62xi8>, tensor<62x70xi8>) outs(%c : tensor<67x70xi32>) -> tensor<67x70xi32>
  return %r : tensor<67x70xi32>
}

// i8 x i8 -> i32 with an odd K (61): 30 pair dots per tile, then one
// masked step; and K = 263 (prime) across cache blocks of 256, whose last
// block of 7 is dynamic in the block's code.
func.func @odd_k_int_matmul(%a: tensor<67x61xi8>, %b: tensor<61x70xi8>) -> tensor<67x70xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<67x70xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<67x70xi32>) -> tensor<67x70xi32>
  %r = linalg.matmul ins(%a, %b : tensor<67x61xi8>, tensor<61x70xi8>) outs(%c : tensor<67x70xi32>) -> tensor<67x70xi32>
  return %r : tensor<67x70xi32>
}

func.func @odd_k_blocked_int_matmul(%a: tensor<40x263xi8>, %b: tensor<263x64xi8>) -> tensor<40x64xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<40x64xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<40x64xi32>) -> tensor<40x64xi32>
  %r = linalg.matmul ins(%a, %b : tensor<40x263xi8>, tensor<263x64xi8>) outs(%c : tensor<40x64xi32>) -> tensor<40x64xi32>
  return %r : tensor<40x64xi32>
}

// Rows of 1000: 62 vectors of 16 lanes and a masked one of 8.
func.func @odd_bias_relu(%x: tensor<5x1000xf32>, %bias: tensor<1000xf32>) -> tensor<5x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x1000xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : tensor<5x1000xf32>, tensor<1000xf32>) outs(%e : tensor<5x1000xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<5x1000xf32>
  return %r : tensor<5x1000xf32>
}

// Row sums of 1021 (prime) and 1000 values: 63 and 62 chunks of 16 lanes of
// partial sums, and a last chunk of 13 and 8.
func.func @odd_row_sums(%x: tensor<5x1021xf32>, %y: tensor<3x1000xf32>) -> (tensor<5xf32>, tensor<3xf32>) {
  %z = arith.constant 0.0 : f32
  %e5 = tensor.empty() : tensor<5xf32>
  %f5 = linalg.fill ins(%z : f32) outs(%e5 : tensor<5xf32>) -> tensor<5xf32>
  %s5 = linalg.reduce ins(%x : tensor<5x1021xf32>) outs(%f5 : tensor<5xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<3xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %s3 = linalg.reduce ins(%y : tensor<3x1000xf32>) outs(%f3 : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %s5, %s3 : tensor<5xf32>, tensor<3xf32>
}

// A 3x3 convolution with 13 output pixels per row (prime: tiles of 8 and a
// peeled 5) and 40 output channels (32 and a peeled 8); a depthwise one and
// a max pooling with 13 pixels and 20 channels (16 and 4).
func.func @odd_conv(%x: tensor<1x15x15x6xf32>, %w: tensor<3x3x6x40xf32>) -> tensor<1x13x13x40xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x13x13x40xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x13x13x40xf32>) -> tensor<1x13x13x40xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x15x15x6xf32>, tensor<3x3x6x40xf32>) outs(%f : tensor<1x13x13x40xf32>) -> tensor<1x13x13x40xf32>
  return %r : tensor<1x13x13x40xf32>
}

func.func @odd_depthwise_pool(%x: tensor<1x15x15x20xf32>, %w: tensor<3x3x20xf32>) -> (tensor<1x13x13x20xf32>, tensor<1x13x13x20xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x13x13x20xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x13x13x20xf32>) -> tensor<1x13x13x20xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x15x15x20xf32>, tensor<3x3x20xf32>) outs(%f : tensor<1x13x13x20xf32>) -> tensor<1x13x13x20xf32>
  %lo = arith.constant -3.4e38 : f32
  %g = linalg.fill ins(%lo : f32) outs(%e : tensor<1x13x13x20xf32>) -> tensor<1x13x13x20xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %win : tensor<1x15x15x20xf32>, tensor<3x3xf32>) outs(%g : tensor<1x13x13x20xf32>) -> tensor<1x13x13x20xf32>
  return %d, %p : tensor<1x13x13x20xf32>, tensor<1x13x13x20xf32>
}
