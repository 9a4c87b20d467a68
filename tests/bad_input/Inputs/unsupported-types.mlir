// Modules using element types outside the input contract, for
// unsupported-types.test.

//--- complex.mlir
// COMPLEX: complex.mlir:[[@LINE+1]]:1: error: type 'tensor<4xcomplex<f32>>' of op 'func.func' is outside the input contract: accepted types are ranked tensors and scalars of i1, i4, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ (and index)
func.func @f(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}

//--- i2.mlir
// Inside a function body, the first op that produces the type is named.
func.func @f(%a: tensor<4xi8>) -> tensor<4xi8> {
  // I2: i2.mlir:[[@LINE+1]]:8: error: type 'tensor<4xi2>' of op 'arith.trunci' is outside the input contract
  %t = arith.trunci %a : tensor<4xi8> to tensor<4xi2>
  %x = arith.extsi %t : tensor<4xi2> to tensor<4xi8>
  return %x : tensor<4xi8>
}

//--- f8.mlir
// The 8-bit floats of the contract are the four OCP/FNUZ ones; not the
// others MLIR has.
// F8: f8.mlir:[[@LINE+1]]:1: error: type 'tensor<2x2xf8E4M3>' of op 'func.func' is outside the input contract
func.func @f(%a: tensor<2x2xf8E4M3>) -> tensor<2x2xf8E4M3> {
  return %a : tensor<2x2xf8E4M3>
}

//--- i4-op.mlir
// An op on i4 values that the compiler cannot lower is refused up front,
// named with its location.
func.func @f(%a: tensor<4xi4>, %b: tensor<4xi4>) -> tensor<4xi4> {
  // I4-OP: i4-op.mlir:[[@LINE+1]]:12: error: 'arith.addui_extended' on i4 values is not supported
  %s, %o = arith.addui_extended %a, %b : tensor<4xi4>, tensor<4xi1>
  return %s : tensor<4xi4>
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
