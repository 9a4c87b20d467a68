// RUN: aot-opt %s --split-input-file --aot-split-shared-reads | FileCheck %s

// A tensor that several dispatches only read, and whose buffer nothing
// writes (a protected argument of a public function, a constant, the result
// of a dispatch that wrote a fresh tensor), is turned into a buffer once
// (`to_buffer read_only`, right after its definition) and back into a
// tensor (`to_tensor restrict`) right before each use.

// A protected argument read by two dispatches; the other argument, read
// once, is left alone.

// CHECK-LABEL: func.func @shared_argument
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<?xf32> {bufferization.writable = false}, %[[Y:[^:]*]]: tensor<?xf32> {bufferization.writable = false}, %[[N:[^:]*]]: index)
// CHECK-NEXT:    %[[BUF:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<?xf32> to memref<?xf32>
// CHECK-NEXT:    %[[D0:.*]] = bufferization.alloc_tensor(%[[N]])
// CHECK-NEXT:    %[[T0:.*]] = bufferization.to_tensor %[[BUF]] restrict : memref<?xf32> to tensor<?xf32>
// CHECK-NEXT:    %[[R0:.*]] = call @d$add_0(%[[T0]], %[[Y]], %[[D0]])
// CHECK-NEXT:    %[[D1:.*]] = bufferization.alloc_tensor(%[[N]])
// CHECK-NEXT:    %[[T1:.*]] = bufferization.to_tensor %[[BUF]] restrict : memref<?xf32> to tensor<?xf32>
// CHECK-NEXT:    %[[R1:.*]] = call @d$add_0(%[[R0]], %[[T1]], %[[D1]])
// CHECK-NEXT:    return %[[R1]]
func.func private @d$add_0(%a: tensor<?xf32> {bufferization.writable = false}, %b: tensor<?xf32> {bufferization.writable = false}, %o: tensor<?xf32>) -> tensor<?xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%o : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @shared_argument(%x: tensor<?xf32> {bufferization.writable = false}, %y: tensor<?xf32> {bufferization.writable = false}, %n: index) -> tensor<?xf32> {
  %0 = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %1 = call @d$add_0(%x, %y, %0) {no_inline} : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %2 = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %3 = call @d$add_0(%1, %x, %2) {no_inline} : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %3 : tensor<?xf32>
}

// -----

// A constant weight, and the result of a dispatch into a fresh tensor, each
// read by two dispatches (the second inside a loop).

// CHECK-LABEL: func.func @constant_and_result
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2xf32> {bufferization.writable = false}, %{{.*}}: index)
// CHECK-NOT:     bufferization.to_buffer %[[X]]
// CHECK:         %[[W:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[WB:.*]] = bufferization.to_buffer %[[W]] read_only : tensor<2xf32> to memref<2xf32>
// CHECK:         %[[T0:.*]] = bufferization.to_tensor %[[WB]] restrict
// CHECK-NEXT:    %[[R:.*]] = call @d$add_0(%[[X]], %[[T0]], %{{.*}})
// CHECK-NEXT:    %[[RB:.*]] = bufferization.to_buffer %[[R]] read_only : tensor<2xf32> to memref<2xf32>
// CHECK:         scf.for
// CHECK-NEXT:      %[[D:.*]] = bufferization.alloc_tensor()
// CHECK-DAG:       %[[T1:.*]] = bufferization.to_tensor %[[RB]] restrict
// CHECK-DAG:       %[[T2:.*]] = bufferization.to_tensor %[[WB]] restrict
// CHECK-NEXT:      func.call @d$add_0(%[[T1]], %[[T2]], %[[D]])
// CHECK:         %[[T3:.*]] = bufferization.to_tensor %[[RB]] restrict
// CHECK-NEXT:    %[[T4:.*]] = bufferization.to_tensor %[[RB]] restrict
// CHECK-NEXT:    call @d$add_0(%[[T4]], %[[T3]],
func.func private @d$add_0(%a: tensor<2xf32> {bufferization.writable = false}, %b: tensor<2xf32> {bufferization.writable = false}, %o: tensor<2xf32>) -> tensor<2xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %r = linalg.add ins(%a, %b : tensor<2xf32>, tensor<2xf32>) outs(%o : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @constant_and_result(%x: tensor<2xf32> {bufferization.writable = false}, %n: index) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = bufferization.alloc_tensor() : tensor<2xf32>
  %1 = call @d$add_0(%x, %w, %0) {no_inline} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  scf.for %i = %c0 to %n step %c1 {
    %2 = bufferization.alloc_tensor() : tensor<2xf32>
    %3 = func.call @d$add_0(%1, %w, %2) {no_inline} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  }
  %4 = bufferization.alloc_tensor() : tensor<2xf32>
  %5 = call @d$add_0(%1, %1, %4) {no_inline} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %5 : tensor<2xf32>
}

// -----

// Left alone: an argument the function may write (not protected), a result
// also returned, a result written into a tensor that is not fresh, and a
// tensor that is a dispatch's destination.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     bufferization.to_buffer
// CHECK-NOT:     bufferization.to_tensor
// CHECK:         return
func.func private @d$add_0(%a: tensor<2xf32> {bufferization.writable = false}, %b: tensor<2xf32> {bufferization.writable = false}, %o: tensor<2xf32>) -> tensor<2xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %r = linalg.add ins(%a, %b : tensor<2xf32>, tensor<2xf32>) outs(%o : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @left_alone(%x: tensor<2xf32>, %y: tensor<2xf32> {bufferization.writable = false}) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = call @d$add_0(%x, %x, %y) {no_inline} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = bufferization.alloc_tensor() : tensor<2xf32>
  %2 = call @d$add_0(%0, %0, %1) {no_inline} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = call @d$add_0(%y, %y, %2) {no_inline} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = bufferization.alloc_tensor() : tensor<2xf32>
  %5 = call @d$add_0(%3, %3, %4) {no_inline} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2, %3, %5 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
