// Dispatch formation: a matmul with the fill that initialises its output,
// a bias add and relu that fusion merges into one generic, a constant weight
// that stays with the caller, a dynamic size, and a generic inside a loop.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

func.func @layer(%x: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [1.0, 0.0, 1.0, 0.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<4x4xf32>
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x4xf32>) outs(%f : tensor<?x4xf32>) -> tensor<?x4xf32>
  %e2 = tensor.empty(%n) : tensor<?x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<?x4xf32>, tensor<4xf32>) outs(%e2 : tensor<?x4xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x4xf32>) outs(%e2 : tensor<?x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.maximumf %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

func.func @twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %d = arith.addf %acc, %acc : tensor<8xf32>
    scf.yield %d : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// Two layers of the same shape: one dispatch each kind, called twice. The
// zero fill initialises both matmuls and is also read by the relu: each
// matmul recomputes it, and it is a dispatch of its own for the relu.
func.func @repeat(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m1 = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %f : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%v: f32, %z: f32, %o: f32):
    %s = arith.maximumf %v, %z : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %m2 = linalg.matmul ins(%r1, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %f : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%v: f32, %z: f32, %o: f32):
    %s = arith.maximumf %v, %z : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %r2 : tensor<2x4xf32>
}

// A relu whose only use is a tensor.pad: its dispatch fills the padded
// tensor and writes the relu into the middle of it, instead of a fill and
// a copy by the caller.
func.func @padded(%x: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %minus = arith.constant -1.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x3xf32>) outs(%e : tensor<?x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.maximumf %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<?x3xf32>
  %p = tensor.pad %r low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %minus : f32
  } : tensor<?x3xf32> to tensor<?x5xf32>
  return %p : tensor<?x5xf32>
}
