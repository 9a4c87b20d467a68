// Floating-point conversions: truncation to f16 and bf16 (round to nearest even,
// overflow to infinity, NaN preserved), widening back, f64 <-> f32, and float <-> int
// conversions (fptosi truncates toward zero).

#id1 = affine_map<(i) -> (i)>

func.func @to_half(%x: tensor<16xf32>) -> (tensor<16xf16>, tensor<16xbf16>) {
  %e0 = tensor.empty() : tensor<16xf16>
  %e1 = tensor.empty() : tensor<16xbf16>
  %r:2 = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e0, %e1 : tensor<16xf16>, tensor<16xbf16>) {
  ^bb0(%v: f32, %o0: f16, %o1: bf16):
    %h = arith.truncf %v : f32 to f16
    %b = arith.truncf %v : f32 to bf16
    linalg.yield %h, %b : f16, bf16
  } -> (tensor<16xf16>, tensor<16xbf16>)
  return %r#0, %r#1 : tensor<16xf16>, tensor<16xbf16>
}

// Widen f16 and bf16 to f32 and add them (exact in f32 for these inputs).
func.func @from_half(%h: tensor<8xf16>, %b: tensor<8xbf16>) -> (tensor<8xf32>, tensor<8xf64>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf64>
  %r:2 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%h, %b : tensor<8xf16>, tensor<8xbf16>) outs(%e0, %e1 : tensor<8xf32>, tensor<8xf64>) {
  ^bb0(%hv: f16, %bv: bf16, %o0: f32, %o1: f64):
    %hf = arith.extf %hv : f16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %s = arith.addf %hf, %bf : f32
    %bd = arith.extf %bv : bf16 to f64
    linalg.yield %s, %bd : f32, f64
  } -> (tensor<8xf32>, tensor<8xf64>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf64>
}

func.func @f64_f32(%x: tensor<8xf64>) -> (tensor<8xf32>, tensor<8xf64>) {
  %e0 = tensor.empty() : tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf64>
  %r:2 = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf64>) outs(%e0, %e1 : tensor<8xf32>, tensor<8xf64>) {
  ^bb0(%v: f64, %o0: f32, %o1: f64):
    %t = arith.truncf %v : f64 to f32
    %w = arith.extf %t : f32 to f64
    linalg.yield %t, %w : f32, f64
  } -> (tensor<8xf32>, tensor<8xf64>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf64>
}

// fptosi to i32 and i8 (values in range), sitofp of i64 to f32 (rounded), and
// uitofp of the same i16 bits.
func.func @float_int(%x: tensor<10xf32>, %n: tensor<10xi64>, %u: tensor<10xi16>)
    -> (tensor<10xi32>, tensor<10xi8>, tensor<10xf32>, tensor<10xf32>) {
  %e0 = tensor.empty() : tensor<10xi32>
  %e1 = tensor.empty() : tensor<10xi8>
  %e2 = tensor.empty() : tensor<10xf32>
  %e3 = tensor.empty() : tensor<10xf32>
  %r:4 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x, %n, %u : tensor<10xf32>, tensor<10xi64>, tensor<10xi16>)
      outs(%e0, %e1, %e2, %e3 : tensor<10xi32>, tensor<10xi8>, tensor<10xf32>, tensor<10xf32>) {
  ^bb0(%v: f32, %nv: i64, %uv: i16, %o0: i32, %o1: i8, %o2: f32, %o3: f32):
    %i = arith.fptosi %v : f32 to i32
    %c = arith.fptosi %v : f32 to i8
    %f = arith.sitofp %nv : i64 to f32
    %g = arith.uitofp %uv : i16 to f32
    linalg.yield %i, %c, %f, %g : i32, i8, f32, f32
  } -> (tensor<10xi32>, tensor<10xi8>, tensor<10xf32>, tensor<10xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<10xi32>, tensor<10xi8>, tensor<10xf32>, tensor<10xf32>
}
