// Ops large enough for threads (aot-tile-and-vectorize marks their outer
// tile loops parallel; with threads they run on OpenMP): a matmul of odd and
// prime sizes, a 3x3 NHWC convolution whose batch loop runs once (the
// parallel loop is the one over output rows), a broadcast add and a
// column sum of rows wider than a block of 1024 columns (1533: a full block
// and a partial one), whose loop over blocks is parallel and outside the
// reduction.
func.func @odd_matmul(%a: tensor<127x253xf32>, %b: tensor<253x61xf32>) -> tensor<127x61xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<127x61xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<127x61xf32>) -> tensor<127x61xf32>
  %r = linalg.matmul ins(%a, %b : tensor<127x253xf32>, tensor<253x61xf32>) outs(%f : tensor<127x61xf32>) -> tensor<127x61xf32>
  return %r : tensor<127x61xf32>
}

func.func @conv(%x: tensor<1x30x30x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x28x28x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x30x30x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x28x28x32xf32>) -> tensor<1x28x28x32xf32>
  return %r : tensor<1x28x28x32xf32>
}

func.func @bias_add(%x: tensor<512x300xf32>, %b: tensor<300xf32>) -> tensor<512x300xf32> {
  %e = tensor.empty() : tensor<512x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
       ins(%x, %b : tensor<512x300xf32>, tensor<300xf32>) outs(%e : tensor<512x300xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<512x300xf32>
  return %r : tensor<512x300xf32>
}

func.func @column_sum(%x: tensor<256x1533xf32>) -> tensor<1533xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1533xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1533xf32>) -> tensor<1533xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
       ins(%x : tensor<256x1533xf32>) outs(%f : tensor<1533xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1533xf32>
  return %r : tensor<1533xf32>
}
