// Dynamic rows, a scalar argument and two results: y = a * x, and sum(y).
#id = affine_map<(i, j) -> (i, j)>
func.func @scale(%x: tensor<?x4xf32>, %a: f32) -> (tensor<?x4xf32>, tensor<f32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %a : f32
    linalg.yield %m : f32
  } -> tensor<?x4xf32>
  %zero = arith.constant 0.0 : f32
  %acc0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%y : tensor<?x4xf32>) outs(%acc : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %init: f32) {
      %t = arith.addf %in, %init : f32
      linalg.yield %t : f32
    }
  return %y, %s : tensor<?x4xf32>, tensor<f32>
}
