// Scalar arguments (passed by value): an f32 and an i32 scalar used inside linalg
// bodies, a scalar of every allowed type packed into a tensor, and an i1 scalar that
// selects between two computations with scf.if.

#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// a * x + y
func.func @axpy(%a: f32, %x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%xv: f32, %yv: f32, %o: f32):
    %m = arith.mulf %a, %xv : f32
    %s = arith.addf %m, %yv : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// x + k, with k an i32 scalar broadcast by linalg.fill.
func.func @add_i32_scalar(%x: tensor<8xi32>, %k: i32) -> tensor<8xi32> {
  %e = tensor.empty() : tensor<8xi32>
  %kk = linalg.fill ins(%k : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %e2 = tensor.empty() : tensor<8xi32>
  %r = linalg.add ins(%x, %kk : tensor<8xi32>, tensor<8xi32>) outs(%e2 : tensor<8xi32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// x * s + float(n)
func.func @scale_shift(%x: tensor<4x4xf32>, %s: f32, %n: i32) -> tensor<4x4xf32> {
  %nf = arith.sitofp %n : i32 to f32
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %a = arith.addf %m, %nf : f32
    linalg.yield %a : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// Every scalar argument type, converted to f64 and packed with tensor.from_elements:
// [i1 (as 0/1), i8, i16, i32, i64, f32, f64].
func.func @pack_scalars(%b: i1, %c: i8, %s: i16, %i: i32, %l: i64, %f: f32, %d: f64) -> tensor<7xf64> {
  %b64 = arith.uitofp %b : i1 to f64
  %c64 = arith.sitofp %c : i8 to f64
  %s64 = arith.sitofp %s : i16 to f64
  %i64 = arith.sitofp %i : i32 to f64
  %l64 = arith.sitofp %l : i64 to f64
  %f64 = arith.extf %f : f32 to f64
  %t = tensor.from_elements %b64, %c64, %s64, %i64, %l64, %f64, %d : tensor<7xf64>
  return %t : tensor<7xf64>
}

// flag ? relu(x) : -x, chosen with scf.if on an i1 scalar.
func.func @select_by_flag(%x: tensor<10xf32>, %flag: i1) -> tensor<10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10xf32>
  %r = scf.if %flag -> (tensor<10xf32>) {
    %p = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%x : tensor<10xf32>) outs(%e : tensor<10xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.maximumf %v, %zero : f32
      linalg.yield %m : f32
    } -> tensor<10xf32>
    scf.yield %p : tensor<10xf32>
  } else {
    %n = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%x : tensor<10xf32>) outs(%e : tensor<10xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.negf %v : f32
      linalg.yield %m : f32
    } -> tensor<10xf32>
    scf.yield %n : tensor<10xf32>
  }
  return %r : tensor<10xf32>
}

// A private helper (not exported) called twice from a public function, with an f64
// scalar and an i8 scalar converted to f64.
func.func private @helper_scale(%x: tensor<10xf32>, %s: f64) -> tensor<10xf32> {
  %sf = arith.truncf %s : f64 to f32
  %e = tensor.empty() : tensor<10xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %sf : f32
    linalg.yield %m : f32
  } -> tensor<10xf32>
  return %r : tensor<10xf32>
}

func.func @call_private(%x: tensor<10xf32>, %s: f64, %i: i8) -> tensor<10xf32> {
  %r = func.call @helper_scale(%x, %s) : (tensor<10xf32>, f64) -> tensor<10xf32>
  %if = arith.sitofp %i : i8 to f64
  %r2 = func.call @helper_scale(%r, %if) : (tensor<10xf32>, f64) -> tensor<10xf32>
  return %r2 : tensor<10xf32>
}
