// RUN: aot-opt %s --split-input-file --aot-keep-constants-narrow | FileCheck %s
// RUN: %{python} %{cli-inputs}/widened_weight.py 592 | aot-opt --aot-keep-constants-narrow --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s --check-prefix=OVER
// RUN: %{python} %{cli-inputs}/widened_weight.py 591 | aot-opt --aot-keep-constants-narrow --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s --check-prefix=UNDER

// An elementwise op on tensors whose operand is a non-splat constant would
// be folded into a wider constant later on. When the fold would add more
// than 1 MiB, the op becomes a linalg.generic now (no folding), so that the
// constant stays narrow and the code widens it. Everything else is left for
// the folders.

// The large cases come from widened_weight.py N: an NxN i8 constant,
// non-splat, extended to i32 for a matmul (3 * N * N bytes more if folded).
// At N = 592 the growth is 1051392 bytes, past 1 MiB: the extsi is a
// generic over the i8 constant, which is still there as i8.
// OVER-LABEL: func.func @f
// OVER:         %[[W:.*]] = arith.constant dense_resource<__elided__> : tensor<592x592xi8>
// OVER-NEXT:    %[[E:.*]] = tensor.empty() : tensor<592x592xi32>
// OVER-NEXT:    %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[W]] : tensor<592x592xi8>) outs(%[[E]] : tensor<592x592xi32>)
// OVER-NEXT:    ^bb0(%[[IN:.*]]: i8, %{{.*}}: i32):
// OVER-NEXT:      %[[X:.*]] = arith.extsi %[[IN]] : i8 to i32
// OVER-NEXT:      linalg.yield %[[X]] : i32
// OVER:         linalg.matmul ins(%{{.*}}, %[[G]] : tensor<4x592xi32>, tensor<592x592xi32>)

// At N = 591 the growth is 1047843 bytes, just under 1 MiB: left alone.
// UNDER-LABEL: func.func @f
// UNDER:         %[[W:.*]] = arith.constant dense_resource<__elided__> : tensor<591x591xi8>
// UNDER-NEXT:    %[[X:.*]] = arith.extsi %[[W]] : tensor<591x591xi8> to tensor<591x591xi32>
// UNDER-NOT:     linalg.generic
// UNDER:         linalg.matmul ins(%{{.*}}, %[[X]] : tensor<4x591xi32>, tensor<591x591xi32>)

// A splat folds to a splat, which costs nothing however large: a 4 MiB
// f16 splat extended to f32 is left alone.
// CHECK-LABEL: func.func @large_splat
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<1.500000e+00> : tensor<2048x1024xf16>
// CHECK-NEXT:    %[[X:.*]] = arith.extf %[[C]] : tensor<2048x1024xf16> to tensor<2048x1024xf32>
// CHECK-NEXT:    return %[[X]]
func.func @large_splat() -> tensor<2048x1024xf32> {
  %c = arith.constant dense<1.5> : tensor<2048x1024xf16>
  %x = arith.extf %c : tensor<2048x1024xf16> to tensor<2048x1024xf32>
  return %x : tensor<2048x1024xf32>
}

// -----

// A small non-splat constant is folded later, as before: the op stays.
// CHECK-LABEL: func.func @small_constant
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1, -2, 3, -4]> : tensor<4xi8>
// CHECK-NEXT:    %[[X:.*]] = arith.extsi %[[C]] : tensor<4xi8> to tensor<4xi32>
// CHECK-NEXT:    return %[[X]]
func.func @small_constant() -> tensor<4xi32> {
  %c = arith.constant dense<[1, -2, 3, -4]> : tensor<4xi8>
  %x = arith.extsi %c : tensor<4xi8> to tensor<4xi32>
  return %x : tensor<4xi32>
}

// -----

// An operand that is not a constant cannot be folded at all, however large.
// CHECK-LABEL: func.func @argument
// CHECK-SAME:    (%[[A:.*]]: tensor<2048x1024xi8>)
// CHECK-NEXT:    %[[X:.*]] = arith.extsi %[[A]] : tensor<2048x1024xi8> to tensor<2048x1024xi32>
// CHECK-NEXT:    return %[[X]]
func.func @argument(%a: tensor<2048x1024xi8>) -> tensor<2048x1024xi32> {
  %x = arith.extsi %a : tensor<2048x1024xi8> to tensor<2048x1024xi32>
  return %x : tensor<2048x1024xi32>
}
