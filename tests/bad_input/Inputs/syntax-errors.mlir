// Malformed modules for syntax-errors.test, split with --leading-lines so
// that [[@LINE]] is the line in the split file too.

//--- undefined-value.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // UNDEFINED: undefined-value.mlir:[[@LINE+1]]:23: error: use of undeclared SSA value name
  %0 = arith.addf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- unregistered-op.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // UNREGISTERED: unregistered-op.mlir:[[@LINE+1]]:12: error: operation being parsed with an unregistered dialect
  "foo.bar"() : () -> ()
  return %a : tensor<4xf32>
}

//--- unterminated.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
// The error is at the end of the file, the end of this line.
// UNTERMINATED: unterminated.mlir:[[@LINE]]:{{[0-9]+}}: error: expected
//--- type-mismatch.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  // MISMATCH: type-mismatch.mlir:[[@LINE+1]]:10: error: use of value '%0' expects different type than prior uses: 'tensor<4xf64>' vs 'tensor<4xf32>'
  return %0 : tensor<4xf64>
}

//--- verifier.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // VERIFIER: verifier.mlir:[[@LINE+1]]:8: error: 'tosa.add' op expected 2 operands, but found 1
  %0 = "tosa.add"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- duplicate.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// DUPLICATE: duplicate.mlir:[[@LINE+1]]:1: error: redefinition of symbol named 'f'
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
