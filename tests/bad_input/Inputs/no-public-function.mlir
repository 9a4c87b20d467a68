// Modules without a public function, for no-public-function.test.

//--- empty.mlir
//--- empty-module.mlir
module {
}
//--- private-only.mlir
func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
//--- comments-only.mlir
// Nothing but a comment.
