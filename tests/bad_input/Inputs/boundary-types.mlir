// Public functions with argument or result types the ABI cannot carry, for
// boundary-types.test.

//--- memref-arg.mlir
// MEMREF: memref-arg.mlir:[[@LINE+1]]:1: error: type 'memref<4xf32>' of op 'func.func' is outside the input contract
func.func @f(%a: memref<4xf32>) {
  return
}

//--- index-arg.mlir
// INDEX: index-arg.mlir:[[@LINE+1]]:1: error: public function 'f' argument 1 has type 'index', which is outside the input contract (a ranked tensor or a scalar of i1, i4, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ)
func.func @f(%a: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- index-tensor-result.mlir
// INDEX-TENSOR: index-tensor-result.mlir:[[@LINE+1]]:1: error: public function 'f' result 0 has type 'tensor<2xindex>', which is outside the input contract
func.func @f(%a: tensor<4xf32>) -> tensor<2xindex> {
  %r = arith.constant dense<[1, 2]> : tensor<2xindex>
  return %r : tensor<2xindex>
}

//--- f16-scalar.mlir
// Half-precision scalars: the message says to pass a rank-0 tensor instead.
// F16: f16-scalar.mlir:[[@LINE+1]]:1: error: public function 'f' argument 1 is a 'f16' scalar; pass it as tensor<
func.func @f(%a: tensor<4xf16>, %s: f16) -> tensor<4xf16> {
  return %a : tensor<4xf16>
}

//--- bf16-scalar-result.mlir
// BF16: bf16-scalar-result.mlir:[[@LINE+1]]:1: error: public function 'f' result 0 is a 'bf16' scalar; pass it as tensor<
func.func @f(%a: tensor<4xf32>) -> bf16 {
  %c = arith.constant 1.0 : bf16
  return %c : bf16
}

//--- several.mlir
// Every bad argument and result of every public function is reported.
// SEVERAL: several.mlir:[[@LINE+3]]:1: error: public function 'f' argument 0 has type 'index'
// SEVERAL: several.mlir:[[@LINE+2]]:1: error: public function 'f' argument 1 is a 'f16' scalar
// SEVERAL: several.mlir:[[@LINE+1]]:1: error: public function 'f' result 0 has type 'index'
func.func @f(%i: index, %h: f16) -> index {
  return %i : index
}
// SEVERAL: several.mlir:[[@LINE+1]]:1: error: public function 'g' argument 0 has type 'tensor<4xindex>'
func.func @g(%a: tensor<4xindex>) {
  return
}

//--- private-ok.mlir
func.func private @helper(%i: index, %h: f16) -> index {
  return %i : index
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 3 : index
  %h = arith.constant 1.0 : f16
  %r = call @helper(%c, %h) : (index, f16) -> index
  return %a : tensor<4xf32>
}
// PRIVATE-OK: T _mlir_ciface_f
