// RUN: aot-opt %s --split-input-file --aot-deduplicate-dispatches | FileCheck %s
// RUN: aot-opt %s --split-input-file --aot-deduplicate-dispatches --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// Dispatches (private functions marked `aot.dispatch`) with the same type,
// argument attributes and body, locations aside, are one function: calls to
// a later copy call the first, which alone is kept. Each call keeps its own
// location.

// Two layers whose dispatches differ only in their locations.

// CHECK-LABEL: module
// CHECK:         func.func private @m$matmul_0(
// CHECK-NOT:     func.func private @m$matmul_1(
// CHECK:         func.func @m(%[[X:.*]]: tensor<2x4xf32>, %[[W:.*]]: tensor<4x4xf32>)
// CHECK-NEXT:      %[[D0:.*]] = bufferization.alloc_tensor()
// CHECK-NEXT:      %[[R0:.*]] = call @m$matmul_0(%[[X]], %[[W]], %[[D0]]) {no_inline}
// CHECK-NEXT:      %[[D1:.*]] = bufferization.alloc_tensor()
// CHECK-NEXT:      %[[R1:.*]] = call @m$matmul_0(%[[R0]], %[[W]], %[[D1]]) {no_inline}
// CHECK-NEXT:      return %[[R1]]
// LOC-LABEL: func.func @m(
// LOC:         call @m$matmul_0({{.*}} loc(#[[L0:loc[0-9]*]])
// LOC:         call @m$matmul_0({{.*}} loc(#[[L1:loc[0-9]*]])
// LOC-DAG:     #[[L0]] = loc("layer0")
// LOC-DAG:     #[[L1]] = loc("layer1")
func.func private @m$matmul_0(%a: tensor<2x4xf32> {bufferization.writable = false}, %b: tensor<4x4xf32> {bufferization.writable = false}, %o: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32> loc("layer0")
  return %m : tensor<2x4xf32>
} loc("layer0")
func.func private @m$matmul_1(%a: tensor<2x4xf32> {bufferization.writable = false}, %b: tensor<4x4xf32> {bufferization.writable = false}, %o: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %cst = arith.constant 0.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32> loc("layer1")
  return %m : tensor<2x4xf32>
} loc("layer1")
func.func @m(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %0 = bufferization.alloc_tensor() : tensor<2x4xf32>
  %1 = call @m$matmul_0(%x, %w, %0) {no_inline} : (tensor<2x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32> loc("layer0")
  %2 = bufferization.alloc_tensor() : tensor<2x4xf32>
  %3 = call @m$matmul_1(%1, %w, %2) {no_inline} : (tensor<2x4xf32>, tensor<4x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32> loc("layer1")
  return %3 : tensor<2x4xf32>
}

// -----

// Three copies, called from two functions, one call in a loop: every call
// goes to the first copy.

// CHECK-LABEL: module
// CHECK:         func.func private @f$fill_0(
// CHECK-NOT:     func.func private @
// CHECK:         func.func @f(
// CHECK-NEXT:      bufferization.alloc_tensor()
// CHECK-NEXT:      call @f$fill_0(
// CHECK:         func.func @g(
// CHECK:           scf.for
// CHECK-NEXT:        bufferization.alloc_tensor()
// CHECK-NEXT:        func.call @f$fill_0(
// CHECK-NEXT:        bufferization.alloc_tensor()
// CHECK-NEXT:        func.call @f$fill_0(
func.func private @f$fill_0(%o: tensor<8xf32>) -> tensor<8xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
func.func @f() -> tensor<8xf32> {
  %0 = bufferization.alloc_tensor() : tensor<8xf32>
  %1 = call @f$fill_0(%0) {no_inline} : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @g$fill_0(%o: tensor<8xf32>) -> tensor<8xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
func.func private @g$fill_1(%o: tensor<8xf32>) -> tensor<8xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
func.func @g(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = bufferization.alloc_tensor() : tensor<8xf32>
    %1 = func.call @g$fill_0(%0) {no_inline} : (tensor<8xf32>) -> tensor<8xf32>
    %2 = bufferization.alloc_tensor() : tensor<8xf32>
    %3 = func.call @g$fill_1(%2) {no_inline} : (tensor<8xf32>) -> tensor<8xf32>
  }
  return
}

// -----

// Not the same function: another constant in the body, another argument
// attribute, another type. Private functions that are not dispatches are
// never merged. Every function and call is left as it was.

// CHECK-LABEL: module
// CHECK:         func.func private @h$fill_0(%{{.*}}: tensor<8xf32>)
// CHECK:         func.func private @h$fill_1(%{{.*}}: tensor<8xf32>)
// CHECK:         func.func private @h$fill_2(%{{.*}}: tensor<8xf32> {bufferization.writable = false})
// CHECK:         func.func private @h$fill_3(%{{.*}}: tensor<4xf32>)
// CHECK:         func.func private @helper_a(
// CHECK:         func.func private @helper_b(
// CHECK:         func.func @h(
// CHECK-NEXT:      call @h$fill_0(
// CHECK-NEXT:      call @h$fill_1(
// CHECK-NEXT:      call @h$fill_2(
// CHECK-NEXT:      call @h$fill_3(
// CHECK-NEXT:      call @helper_a(
// CHECK-NEXT:      call @helper_b(
func.func private @h$fill_0(%o: tensor<8xf32>) -> tensor<8xf32> attributes {aot.dispatch} {
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
func.func private @h$fill_1(%o: tensor<8xf32>) -> tensor<8xf32> attributes {aot.dispatch} {
  %cst = arith.constant 2.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
func.func private @h$fill_2(%o: tensor<8xf32> {bufferization.writable = false}) -> tensor<8xf32> attributes {aot.dispatch} {
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
func.func private @h$fill_3(%o: tensor<4xf32>) -> tensor<4xf32> attributes {aot.dispatch} {
  %cst = arith.constant 1.0 : f32
  %f = linalg.fill ins(%cst : f32) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %f : tensor<4xf32>
}
func.func private @helper_a(%o: tensor<8xf32>) -> tensor<8xf32> {
  return %o : tensor<8xf32>
}
func.func private @helper_b(%o: tensor<8xf32>) -> tensor<8xf32> {
  return %o : tensor<8xf32>
}
func.func @h(%a: tensor<8xf32>, %b: tensor<4xf32>) {
  %0 = call @h$fill_0(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @h$fill_1(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @h$fill_2(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %3 = call @h$fill_3(%b) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = call @helper_a(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %5 = call @helper_b(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return
}
