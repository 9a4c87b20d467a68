// Dynamic shapes: tensor<?x?xf32> arguments and results, sizes taken with tensor.dim
// and passed to tensor.empty.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// 2 * a + b, all of the same (dynamic) shape.
func.func @dyn_axpb(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%av: f32, %bv: f32, %o: f32):
    %t = arith.mulf %av, %two : f32
    %s = arith.addf %t, %bv : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// (M x K) @ (K x N) with all three sizes dynamic.
func.func @dyn_matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Row sums of a ?x4 tensor: a partially dynamic argument, a dynamic 1-D result.
func.func @dyn_rowsum(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x4xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}

// Transpose of a dynamic 2-D tensor (result sizes swap).
func.func @dyn_transpose(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.transpose ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) permutation = [1, 0]
  return %r : tensor<?x?xf32>
}

// A dynamic integer tensor whose result size depends on the input: the first half of
// the rows (tensor.extract_slice with a computed size), each element negated.
func.func @dyn_first_half_neg(%x: tensor<?x3xi32>) -> tensor<?x3xi32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  %m = tensor.dim %x, %c0 : tensor<?x3xi32>
  %h = arith.divui %m, %c2 : index
  %s = tensor.extract_slice %x[0, 0] [%h, 3] [1, 1] : tensor<?x3xi32> to tensor<?x3xi32>
  %e = tensor.empty(%h) : tensor<?x3xi32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<?x3xi32>) outs(%e : tensor<?x3xi32>) {
  ^bb0(%v: i32, %o: i32):
    %n = arith.subi %zero, %v : i32
    linalg.yield %n : i32
  } -> tensor<?x3xi32>
  return %r : tensor<?x3xi32>
}
