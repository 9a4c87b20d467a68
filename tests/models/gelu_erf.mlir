// Exact GELU with math.erf, as emitted by framework importers:
// gelu(x) = 0.5 x (1 + erf(x / sqrt(2))), in f32 and f64.
// (math.erf has no direct LLVM lowering: it needs a polynomial approximation or a
// libm call.)

#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @gelu_erf_f32(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678118654752 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %rsqrt2 : f32
    %er = math.erf %s : f32
    %t1 = arith.addf %one, %er : f32
    %hv = arith.mulf %half, %v : f32
    %r = arith.mulf %hv, %t1 : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

func.func @erf_f64(%x: tensor<10xf64>) -> tensor<10xf64> {
  %e = tensor.empty() : tensor<10xf64>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<10xf64>) outs(%e : tensor<10xf64>) {
  ^bb0(%v: f64, %o: f64):
    %r = math.erf %v : f64
    linalg.yield %r : f64
  } -> tensor<10xf64>
  return %y : tensor<10xf64>
}
