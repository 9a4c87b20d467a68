// RUN: aot-opt %s --split-input-file --aot-free-dispatch-buffers --verify-diagnostics | FileCheck %s

// After the deallocation passes: each memref.alloca marked `aot.heap` (by
// aot-hide-dispatch-buffers) becomes a memref.alloc again, with a
// memref.dealloc right after its last use in its block (or after the op of
// that block holding a nested use). A use in another block is an error.

// Each buffer is freed right after the call that reads it last; the alloca
// that is not marked, and the returned alloc, are left alone.

// CHECK-LABEL: func.func @layers
// CHECK-SAME:    (%[[X:.*]]: memref<4x16xf32>)
// CHECK-NEXT:    %[[S:.*]] = memref.alloca() : memref<4x16xf32>
// CHECK-NEXT:    call @d$generic_0(%[[X]], %[[S]])
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// CHECK-NEXT:    call @d$generic_0(%[[X]], %[[A]])
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// CHECK-NEXT:    call @d$generic_0(%[[A]], %[[B]])
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<4x16xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
// CHECK-NEXT:    call @d$generic_0(%[[B]], %[[C]])
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<4x16xf32>
// CHECK-NEXT:    return %[[C]]
// CHECK-NOT:     memref.alloca
func.func private @d$generic_0(%a: memref<4x16xf32>, %o: memref<4x16xf32>) attributes {aot.dispatch, passthrough = ["noinline"]} {
  memref.copy %a, %o : memref<4x16xf32> to memref<4x16xf32>
  return
}
func.func @layers(%x: memref<4x16xf32>) -> memref<4x16xf32> {
  %s = memref.alloca() : memref<4x16xf32>
  call @d$generic_0(%x, %s) : (memref<4x16xf32>, memref<4x16xf32>) -> ()
  %0 = memref.alloca() {alignment = 64 : i64, aot.heap} : memref<4x16xf32>
  call @d$generic_0(%x, %0) : (memref<4x16xf32>, memref<4x16xf32>) -> ()
  %1 = memref.alloca() {alignment = 64 : i64, aot.heap} : memref<4x16xf32>
  call @d$generic_0(%0, %1) : (memref<4x16xf32>, memref<4x16xf32>) -> ()
  %2 = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
  call @d$generic_0(%1, %2) : (memref<4x16xf32>, memref<4x16xf32>) -> ()
  return %2 : memref<4x16xf32>
}

// -----

// A dynamic buffer in a loop body whose last use is in an scf.if: freed
// after the scf.if, still in the loop body. An unused one is freed at once.

// CHECK-LABEL: func.func @nested
// CHECK-SAME:    (%[[X:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: index, %[[P:[^:]*]]: i1)
// CHECK:         scf.for
// CHECK-NEXT:      %[[A:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NEXT:      func.call @d$generic_0(%[[X]], %[[A]])
// CHECK-NEXT:      scf.if %[[P]] {
// CHECK-NEXT:        func.call @d$generic_0(%[[A]], %[[X]])
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.dealloc %[[A]] : memref<?xf32>
// CHECK-NEXT:      %[[U:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT:      memref.dealloc %[[U]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func private @d$generic_0(%a: memref<?xf32>, %o: memref<?xf32>) attributes {aot.dispatch, passthrough = ["noinline"]} {
  return
}
func.func @nested(%x: memref<?xf32>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = memref.alloca(%n) {alignment = 64 : i64, aot.heap} : memref<?xf32>
    func.call @d$generic_0(%x, %0) : (memref<?xf32>, memref<?xf32>) -> ()
    scf.if %p {
      func.call @d$generic_0(%0, %x) : (memref<?xf32>, memref<?xf32>) -> ()
    }
    %1 = memref.alloca(%n) {aot.heap} : memref<?xf32>
  }
  return
}

// -----

// A use in a later block cannot be placed: freeing the buffer before it
// would be a use after free.

func.func private @d$generic_0(%a: memref<8xf32>) attributes {aot.dispatch} {
  return
}
func.func @other_block(%p: i1) {
  // expected-error @below {{internal error: a buffer handed to dispatches is used outside the block that allocates it}}
  %0 = memref.alloca() {aot.heap} : memref<8xf32>
  cf.cond_br %p, ^use, ^done
^use:
  call @d$generic_0(%0) : (memref<8xf32>) -> ()
  cf.br ^done
^done:
  return
}
