// Function declarations without a body, for declaration.test.

//--- private-decl.mlir
// PRIVATE: private-decl.mlir:[[@LINE+1]]:1: error: function 'external_helper' is only declared; ahead-of-time compiled code cannot call functions defined elsewhere
func.func private @external_helper(tensor<4xf32>) -> tensor<4xf32>

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @external_helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

//--- public-decl.mlir
// MLIR's verifier already rejects a public declaration.
// PUBLIC: public-decl.mlir:[[@LINE+1]]:1: error: 'func.func' op symbol declaration cannot have public visibility
func.func @public_decl(tensor<4xf32>) -> tensor<4xf32>

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- unused-decl.mlir
// Even a declaration nothing calls.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// UNUSED: unused-decl.mlir:[[@LINE+1]]:1: error: function 'never_called' is only declared
func.func private @never_called(f32) -> f32
