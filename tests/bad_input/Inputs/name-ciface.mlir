// @x, and a function named like the C interface wrapper of @x.
func.func @x(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @_mlir_ciface_x(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
