// Modules with an op outside the input contract, for unsupported-ops.test.

//--- memref-alloc.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // MEMREF: memref-alloc.mlir:[[@LINE+1]]:8: error: op 'memref.alloc' is outside the input contract: accepted dialects are func, arith, math, tensor, linalg, tosa, scf, cf, bufferization
  %m = memref.alloc() : memref<4xf32>
  return %a : tensor<4xf32>
}

//--- vector.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 0.0 : f32
  // VECTOR: vector.mlir:[[@LINE+1]]:8: error: op 'vector.broadcast' is outside the input contract
  %v = vector.broadcast %c : f32 to vector<4xf32>
  return %a : tensor<4xf32>
}

//--- llvm.mlir
// LLVM: llvm.mlir:[[@LINE+1]]:1: error: op 'llvm.func' is outside the input contract
llvm.func @g() {
  llvm.return
}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- gpu.mlir
// A dialect the compiler does not even load fails while parsing.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // GPU: gpu.mlir:[[@LINE+1]]:3: error: Dialect `gpu' not found for custom op 'gpu.barrier'
  gpu.barrier
  return %a : tensor<4xf32>
}

//--- nested-module.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// NESTED: nested-module.mlir:[[@LINE+1]]:1: error: op 'builtin.module' is outside the input contract
module @inner {
  func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

//--- two-ops.mlir
// Every offending op is reported, in order.
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // TWO: two-ops.mlir:[[@LINE+1]]:8: error: op 'memref.alloc' is outside the input contract
  %m = memref.alloc() : memref<4xf32>
  // TWO: two-ops.mlir:[[@LINE+1]]:3: error: op 'memref.dealloc' is outside the input contract
  memref.dealloc %m : memref<4xf32>
  return %a : tensor<4xf32>
}

//--- unlowerable.mlir
// An op of an accepted dialect that the compiler cannot lower is refused at
// the input stage, with the reason, not by a later stage.
func.func @f(%a: tensor<4x5xf32>) -> tensor<2x5xf32> {
  %i = arith.constant dense<[[1], [3]]> : tensor<2x1xindex>
  // UNLOWERABLE: unlowerable.mlir:[[@LINE+1]]:8: error: op 'tensor.gather' is not supported: the compiler cannot lower it (it has no bufferization)
  %0 = tensor.gather %a[%i] gather_dims([0]) : (tensor<4x5xf32>, tensor<2x1xindex>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

//--- tosa-variable.mlir
module {
  // VARIABLE: tosa-variable.mlir:[[@LINE+1]]:3: error: op 'tosa.variable' is not supported: the compiler cannot lower it (variables keep state between calls, which compiled functions do not)
  tosa.variable @v = dense<0.0> : tensor<4xf32>
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
