// Modules using element types outside the input contract, for
// unsupported-types.test.

//--- complex.mlir
// COMPLEX: complex.mlir:[[@LINE+1]]:1: error: type 'tensor<4xcomplex<f32>>' of op 'func.func' is outside the input contract: accepted types are ranked tensors and scalars of i1, i8, i16, i32, i64, f16, bf16, f32, f64 (and index)
func.func @f(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}

//--- i4.mlir
// Inside a function body, the first op that produces the type is named.
func.func @f(%a: tensor<4xi8>) -> tensor<4xi8> {
  // I4: i4.mlir:[[@LINE+1]]:8: error: type 'tensor<4xi4>' of op 'arith.trunci' is outside the input contract
  %t = arith.trunci %a : tensor<4xi8> to tensor<4xi4>
  %x = arith.extsi %t : tensor<4xi4> to tensor<4xi8>
  return %x : tensor<4xi8>
}

//--- f8.mlir
// F8: f8.mlir:[[@LINE+1]]:1: error: type 'tensor<2x2xf8E4M3FN>' of op 'func.func' is outside the input contract
func.func @f(%a: tensor<2x2xf8E4M3FN>) -> tensor<2x2xf8E4M3FN> {
  return %a : tensor<2x2xf8E4M3FN>
}

//--- unsigned.mlir
// Integers are signless: ui8 is not the u8 of the ABI.
// UNSIGNED: unsigned.mlir:[[@LINE+1]]:1: error: type 'tensor<4xui8>' of op 'func.func' is outside the input contract
func.func @f(%a: tensor<4xui8>) -> tensor<4xui8> {
  return %a : tensor<4xui8>
}

//--- unranked.mlir
// UNRANKED: unranked.mlir:[[@LINE+1]]:1: error: type 'tensor<*xf32>' of op 'func.func' is outside the input contract
func.func @f(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}

//--- i128-scalar.mlir
func.func @f(%a: tensor<4xi64>) -> tensor<4xi64> {
  // I128: i128-scalar.mlir:[[@LINE+1]]:8: error: type 'i128' of op 'arith.constant' is outside the input contract
  %c = arith.constant 1 : i128
  return %a : tensor<4xi64>
}
