// Functions whose names PTX identifiers do not allow (MLIR symbols and ELF
// names do): tests/cli/kernel-names.test.
func.func @"pack_1x9.mlir"(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}
func.func @"add-one"(%a: tensor<16xf32>) -> tensor<16xf32> {
  %c = arith.constant dense<1.0> : tensor<16xf32>
  %r = arith.addf %a, %c : tensor<16xf32>
  return %r : tensor<16xf32>
}
