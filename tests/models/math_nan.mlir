// math dialect functions and IEEE special values: tanh/exp/sigmoid, sqrt/log/rsqrt on
// inputs that produce NaN (negative arguments) and infinities (zero), NaN-propagating
// versus NaN-ignoring min/max, and ordered/unordered comparisons with NaN operands.

#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @activations(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<4x16xf32>
  %e1 = tensor.empty() : tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %r:3 = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e0, %e1, %e2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  ^bb0(%v: f32, %o0: f32, %o1: f32, %o2: f32):
    %t = math.tanh %v : f32
    %e = math.exp %v : f32
    %n = arith.negf %v : f32
    %en = math.exp %n : f32
    %d = arith.addf %one, %en : f32
    %s = arith.divf %one, %d : f32
    linalg.yield %t, %e, %s : f32, f32, f32
  } -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
  return %r#0, %r#1, %r#2 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// sqrt, log, rsqrt of inputs that include negatives (NaN), +-0 (-inf, +-inf) and +inf.
func.func @sqrt_log_rsqrt(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %e0 = tensor.empty() : tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %r:3 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e0, %e1, %e2 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%v: f32, %o0: f32, %o1: f32, %o2: f32):
    %s = math.sqrt %v : f32
    %l = math.log %v : f32
    %q = math.rsqrt %v : f32
    linalg.yield %s, %l, %q : f32, f32, f32
  } -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return %r#0, %r#1, %r#2 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// maximumf/minimumf propagate NaN; maxnumf/minnumf return the other operand.
func.func @nan_minmax(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %r:4 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e0, %e1, %e2, %e3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32):
    %m0 = arith.maximumf %x, %y : f32
    %m1 = arith.maxnumf %x, %y : f32
    %m2 = arith.minimumf %x, %y : f32
    %m3 = arith.minnumf %x, %y : f32
    linalg.yield %m0, %m1, %m2, %m3 : f32, f32, f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Comparisons with NaN: olt is false, ult is true, une is true, oeq is false.
func.func @nan_compare(%a: tensor<8xf64>, %b: tensor<8xf64>) -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  %e0 = tensor.empty() : tensor<8xi1>
  %e1 = tensor.empty() : tensor<8xi1>
  %e2 = tensor.empty() : tensor<8xi1>
  %e3 = tensor.empty() : tensor<8xi1>
  %r:4 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf64>, tensor<8xf64>) outs(%e0, %e1, %e2, %e3 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>) {
  ^bb0(%x: f64, %y: f64, %o0: i1, %o1: i1, %o2: i1, %o3: i1):
    %c0 = arith.cmpf olt, %x, %y : f64
    %c1 = arith.cmpf ult, %x, %y : f64
    %c2 = arith.cmpf une, %x, %y : f64
    %c3 = arith.cmpf oeq, %x, %y : f64
    linalg.yield %c0, %c1, %c2, %c3 : i1, i1, i1, i1
  } -> (tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<8xi1>, tensor<8xi1>, tensor<8xi1>, tensor<8xi1>
}

// f64 math: exp, log1p, tanh, and a max-reduction that must propagate a NaN.
func.func @f64_math(%x: tensor<3x6xf64>) -> (tensor<3x6xf64>, tensor<3xf64>) {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %e = tensor.empty() : tensor<3x6xf64>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x6xf64>) outs(%e : tensor<3x6xf64>) {
  ^bb0(%v: f64, %o: f64):
    %a = math.exp %v : f64
    %b = math.log1p %a : f64
    %c = math.tanh %b : f64
    linalg.yield %c : f64
  } -> tensor<3x6xf64>
  %re = tensor.empty() : tensor<3xf64>
  %ri = linalg.fill ins(%ninf : f64) outs(%re : tensor<3xf64>) -> tensor<3xf64>
  %m = linalg.reduce ins(%x : tensor<3x6xf64>) outs(%ri : tensor<3xf64>) dimensions = [1]
    (%in: f64, %acc: f64) {
      %mm = arith.maximumf %in, %acc : f64
      linalg.yield %mm : f64
    }
  return %y, %m : tensor<3x6xf64>, tensor<3xf64>
}

// TOSA clamp and max_pool2d with NaN inputs (nan_mode defaults to PROPAGATE): the NaN
// reaches the output.
func.func @tosa_nan_propagate(%x: tensor<1x4x4x1xf32>) -> (tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>) {
  %c = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
  %m = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  return %c, %m : tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>
}
