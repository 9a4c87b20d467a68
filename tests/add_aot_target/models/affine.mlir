// y = 2 * x + b, with b broadcast along the rows.
#rows = affine_map<(i, j) -> (i, j)>
#cols = affine_map<(i, j) -> (j)>
func.func @affine(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#rows, #cols, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%xv: f32, %bv: f32, %o: f32):
    %m = arith.mulf %xv, %two : f32
    %s = arith.addf %m, %bv : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
