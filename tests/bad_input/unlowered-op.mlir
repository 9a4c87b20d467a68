// An op that reaches LLVM IR translation without a lowering is reported at
// its location, never as the translator's placeless failure on conversion
// casts. Here the input of stage llvm-ir still holds an arith op.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %{expect-exit} 1 aot-compile %s --compile-from=llvm-ir -o %t/x.o 2>&1 | FileCheck %s
// RUN: not ls %t/x.o

module {
  llvm.func @f(%a: i32) -> i32 {
    // CHECK: unlowered-op.mlir:[[@LINE+1]]:10: error: 'arith.addi' was not lowered to the LLVM dialect: the compiler has no lowering for it yet
    %0 = arith.addi %a, %a : i32
    llvm.return %0 : i32
  }
}
