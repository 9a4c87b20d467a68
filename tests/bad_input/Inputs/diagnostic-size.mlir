// Inputs for diagnostic-size.test.

//--- llvm-func.mlir
// NESTED: llvm-func.mlir:[[@LINE+1]]:1: error: op 'llvm.func' is outside the input contract
llvm.func @g(%a: i32) -> i32 {
  %b = llvm.add %a, %a : i32
  %c = llvm.mul %b, %b : i32
  llvm.return %c : i32
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- bad-signature.mlir
// SIGNATURE: bad-signature.mlir:[[@LINE+1]]:1: error: public function 'f' argument 1 has type 'index'
func.func @f(%a: tensor<64xf32>, %i: index) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (d)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
