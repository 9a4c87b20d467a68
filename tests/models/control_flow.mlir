// Control flow around tensor computations: scf.for with tensor iter_args (a fixed trip
// count and one from a scalar argument), a sequential prefix sum with tensor.extract /
// tensor.insert, scf.while, and unstructured control flow with cf.cond_br.

#id1 = affine_map<(i) -> (i)>

// Repeat n times: x = 0.5 * x + b (converges towards 2b).
func.func @relax(%x: tensor<8xf32>, %b: tensor<8xf32>, %n: i32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %nidx = arith.index_cast %n : i32 to index
  %r = scf.for %i = %c0 to %nidx step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %next = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
        ins(%acc, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %bv: f32, %o: f32):
      %m = arith.mulf %a, %half : f32
      %s = arith.addf %m, %bv : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    scf.yield %next : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// Inclusive prefix sum with a sequential scf.for, element by element.
func.func @cumsum(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<16xf32>
  %r:2 = scf.for %i = %c0 to %c16 step %c1 iter_args(%out = %init, %run = %zero) -> (tensor<16xf32>, f32) {
    %v = tensor.extract %x[%i] : tensor<16xf32>
    %s = arith.addf %run, %v : f32
    %o2 = tensor.insert %s into %out[%i] : tensor<16xf32>
    scf.yield %o2, %s : tensor<16xf32>, f32
  }
  return %r#0 : tensor<16xf32>
}

// Matrix power by repeated squaring-free multiplication: m^k for a fixed k = 3 with
// an scf.for whose body holds a linalg.matmul.
func.func @matpow3(%m: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %m) -> (tensor<4x4xf32>) {
    %e = tensor.empty() : tensor<4x4xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %p = linalg.matmul ins(%acc, %m : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %p : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// Double every element until the first element exceeds the limit; also return the
// number of doublings as a 1-element i32 tensor.
func.func @double_until(%x: tensor<5xf32>, %limit: f32) -> (tensor<5xf32>, tensor<1xi32>) {
  %c0 = arith.constant 0 : index
  %zero_i = arith.constant 0 : i32
  %one_i = arith.constant 1 : i32
  %two = arith.constant 2.0 : f32
  %r:2 = scf.while (%t = %x, %n = %zero_i) : (tensor<5xf32>, i32) -> (tensor<5xf32>, i32) {
    %v = tensor.extract %t[%c0] : tensor<5xf32>
    %go = arith.cmpf ole, %v, %limit : f32
    scf.condition(%go) %t, %n : tensor<5xf32>, i32
  } do {
  ^bb0(%t: tensor<5xf32>, %n: i32):
    %e = tensor.empty() : tensor<5xf32>
    %d = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%t : tensor<5xf32>) outs(%e : tensor<5xf32>) {
    ^bb1(%a: f32, %o: f32):
      %m = arith.mulf %a, %two : f32
      linalg.yield %m : f32
    } -> tensor<5xf32>
    %n1 = arith.addi %n, %one_i : i32
    scf.yield %d, %n1 : tensor<5xf32>, i32
  }
  %count = tensor.from_elements %r#1 : tensor<1xi32>
  return %r#0, %count : tensor<5xf32>, tensor<1xi32>
}

// Unstructured control flow: if k > 0, return x + k (as f32), otherwise x * x.
func.func @branchy(%x: tensor<6xf32>, %k: i32) -> tensor<6xf32> {
  %zero = arith.constant 0 : i32
  %pos = arith.cmpi sgt, %k, %zero : i32
  cf.cond_br %pos, ^add, ^square
^add:
  %kf = arith.sitofp %k : i32 to f32
  %e1 = tensor.empty() : tensor<6xf32>
  %a = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<6xf32>) outs(%e1 : tensor<6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %kf : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  cf.br ^done(%a : tensor<6xf32>)
^square:
  %e2 = tensor.empty() : tensor<6xf32>
  %q = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<6xf32>) outs(%e2 : tensor<6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  cf.br ^done(%q : tensor<6xf32>)
^done(%r: tensor<6xf32>):
  return %r : tensor<6xf32>
}
