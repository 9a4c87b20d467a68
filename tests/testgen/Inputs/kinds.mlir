// Signatures the generated tests must handle beyond the model zoo: no result,
// no tensor argument, a scalar result, and a tuple mixing a scalar, a rank-3
// dynamic f16 tensor and a rank-0 i1 tensor.

// Nothing to compare: only the argument checks remain.
func.func @no_result(%x: tensor<4xf32>, %k: i32) {
  return
}

// No result and no tensor argument: the call itself is the test.
func.func @only_scalars(%a: i64, %b: i1) {
  return
}

// A single scalar result, returned by value.
func.func @corner(%x: tensor<2x3xf64>) -> f64 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = tensor.extract %x[%c1, %c2] : tensor<2x3xf64>
  return %v : f64
}

// (2 * s, x + x, s > 0)
func.func @mixed(%x: tensor<?x2x2xf16>, %s: f32) -> (f32, tensor<?x2x2xf16>, tensor<i1>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %d = arith.addf %s, %s : f32
  %n = tensor.dim %x, %c0 : tensor<?x2x2xf16>
  %e = tensor.empty(%n) : tensor<?x2x2xf16>
  %twice = linalg.generic {
      indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x2x2xf16>) outs(%e : tensor<?x2x2xf16>) {
  ^bb0(%v: f16, %o: f16):
    %t = arith.addf %v, %v : f16
    linalg.yield %t : f16
  } -> tensor<?x2x2xf16>
  %positive = arith.cmpf ogt, %s, %zero : f32
  %flag = tensor.from_elements %positive : tensor<i1>
  return %d, %twice, %flag : f32, tensor<?x2x2xf16>, tensor<i1>
}
