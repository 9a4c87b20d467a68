// The model most CLI tests compile: a TOSA op (lowered by the linalg stage),
// a linalg.generic with a dynamic dim and a scalar argument, and a private
// helper that must not be exported.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// a + b
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// x * s + n, over a ?x4 tensor
func.func @scale(%x: tensor<?x4xf32>, %s: f32, %n: i32) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4xf32>
  %nf = call @to_float(%n) : (i32) -> f32
  %e = tensor.empty(%m) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.mulf %v, %s : f32
    %q = arith.addf %p, %nf : f32
    linalg.yield %q : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

func.func private @to_float(%n: i32) -> f32 {
  %f = arith.sitofp %n : i32 to f32
  return %f : f32
}
