// Malformed MLIR text: the error points at the line and column of the
// mistake, and nothing is written.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %{expect-exit} 1 aot-compile %s -o %t/x.o 2>&1 | FileCheck %s
// RUN: not ls %t/x.o

// CHECK: {{^}}{{.*}}syntax-error.mlir:[[@LINE+3]]:40: error: expected '>' in tensor type
// CHECK-NOT: error:
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32
  return %0 : tensor<4xf32>
}
