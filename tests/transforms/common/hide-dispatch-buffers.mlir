// RUN: aot-opt %s --split-input-file --aot-hide-dispatch-buffers | FileCheck %s

// After bufferization: a memref.alloc whose every use, in its own block, is
// an operand of a call to a dispatch that returns nothing, a memref.copy or
// a memref.dim becomes a memref.alloca marked `aot.heap` (same type, sizes
// and alignment), so that the deallocation passes skip it.

// Two layers: the intermediate buffers become marked allocas; the buffer
// the function returns stays an alloc.

// CHECK-LABEL: func.func @layers
// CHECK-SAME:    (%[[X:.*]]: memref<4x16xf32>)
// CHECK-NEXT:    %[[A:.*]] = memref.alloca() {alignment = 64 : i64, aot.heap} : memref<4x16xf32>
// CHECK-NEXT:    call @d$generic_0(%[[X]], %[[A]])
// CHECK-NEXT:    %[[B:.*]] = memref.alloca() {alignment = 64 : i64, aot.heap} : memref<4x16xf32>
// CHECK-NEXT:    call @d$generic_0(%[[A]], %[[B]])
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// CHECK-NEXT:    call @d$generic_0(%[[B]], %[[C]])
// CHECK-NEXT:    return %[[C]]
func.func private @d$generic_0(%a: memref<4x16xf32>, %o: memref<4x16xf32>) attributes {aot.dispatch, passthrough = ["noinline"]} {
  memref.copy %a, %o : memref<4x16xf32> to memref<4x16xf32>
  return
}
func.func @layers(%x: memref<4x16xf32>) -> memref<4x16xf32> {
  %0 = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  call @d$generic_0(%x, %0) : (memref<4x16xf32>, memref<4x16xf32>) -> ()
  %1 = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  call @d$generic_0(%0, %1) : (memref<4x16xf32>, memref<4x16xf32>) -> ()
  %2 = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  call @d$generic_0(%1, %2) : (memref<4x16xf32>, memref<4x16xf32>) -> ()
  return %2 : memref<4x16xf32>
}

// -----

// A dynamic buffer also read by memref.dim and memref.copy, inside a loop
// body: the alloca keeps its size operand and stays in the loop.

// CHECK-LABEL: func.func @dynamic_in_loop
// CHECK-SAME:    (%[[X:[^:]*]]: memref<?xf32>, %[[Y:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: index)
// CHECK:         scf.for
// CHECK-NEXT:      %[[A:.*]] = memref.alloca(%[[N]]) {alignment = 64 : i64, aot.heap} : memref<?xf32>
// CHECK-NEXT:      %[[D:.*]] = memref.dim %[[A]], %{{.*}} : memref<?xf32>
// CHECK-NEXT:      func.call @d$generic_0(%[[X]], %[[A]], %[[D]])
// CHECK-NEXT:      memref.copy %[[A]], %[[Y]]
// CHECK-NOT:     memref.alloc(
func.func private @d$generic_0(%a: memref<?xf32>, %o: memref<?xf32>, %n: index) attributes {aot.dispatch, passthrough = ["noinline"]} {
  return
}
func.func @dynamic_in_loop(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
    %d = memref.dim %0, %c0 : memref<?xf32>
    func.call @d$generic_0(%x, %0, %d) : (memref<?xf32>, memref<?xf32>, index) -> ()
    memref.copy %0, %y : memref<?xf32> to memref<?xf32>
  }
  return
}

// -----

// Left alone: a buffer used in a nested block, one passed to a function
// that is not a dispatch, one also read by a load, and one passed to a
// dispatch that returns a value.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     memref.alloca
// CHECK-COUNT-4: memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NOT:     memref.alloca
func.func private @d$generic_0(%a: memref<8xf32>, %o: memref<8xf32>) attributes {aot.dispatch} {
  return
}
func.func private @d$generic_1(%o: memref<8xf32>) -> f32 attributes {aot.dispatch} {
  %c0 = arith.constant 0 : index
  %v = memref.load %o[%c0] : memref<8xf32>
  return %v : f32
}
func.func private @helper(%o: memref<8xf32>)
func.func @left_alone(%x: memref<8xf32>, %p: i1) -> f32 {
  %0 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  scf.if %p {
    func.call @d$generic_0(%x, %0) : (memref<8xf32>, memref<8xf32>) -> ()
  }
  %1 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  call @helper(%1) : (memref<8xf32>) -> ()
  %2 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  call @d$generic_0(%x, %2) : (memref<8xf32>, memref<8xf32>) -> ()
  %c0 = arith.constant 0 : index
  %l = memref.load %2[%c0] : memref<8xf32>
  %3 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  %v = call @d$generic_1(%3) : (memref<8xf32>) -> f32
  %r = arith.addf %l, %v : f32
  return %r : f32
}
