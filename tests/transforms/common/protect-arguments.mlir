// RUN: aot-opt %s --split-input-file --aot-protect-arguments | FileCheck %s

// Each tensor argument of a public function with a body gets
// `bufferization.writable = false`, so that one-shot bufferization copies
// rather than writes into the caller's buffer. Non-tensor arguments, private
// functions (dispatches) and declarations are left alone.

// Tensor arguments, static and dynamic, are marked; the index argument is
// not, and the body is unchanged.

// CHECK-LABEL: func.func @entry
// CHECK-SAME:    (%[[X:.*]]: tensor<4x16xf32> {bufferization.writable = false},
// CHECK-SAME:     %[[N:[^:]*]]: index,
// CHECK-SAME:     %[[Y:.*]]: tensor<?x16xf32> {bufferization.writable = false})
// CHECK-NEXT:    return %[[X]] : tensor<4x16xf32>
func.func @entry(%x: tensor<4x16xf32>, %n: index, %y: tensor<?x16xf32>) -> tensor<4x16xf32> {
  return %x : tensor<4x16xf32>
}

// -----

// An argument that already has attributes keeps them; an argument already
// marked writable is overridden to not writable.

// CHECK-LABEL: func.func @attrs
// CHECK-SAME:    (%{{.*}}: tensor<4xf32> {bufferization.writable = false, some.attr = 1 : i64},
// CHECK-SAME:     %{{.*}}: tensor<4xf32> {bufferization.writable = false})
func.func @attrs(%a: tensor<4xf32> {some.attr = 1 : i64}, %b: tensor<4xf32> {bufferization.writable = true}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A private dispatch, whose destination argument must stay writable, is
// not touched; its public caller (whose loop writes a fresh tensor) is.

// CHECK-LABEL: module
// CHECK:         func.func private @scan$generic_0(%{{.*}}: tensor<4xf32> {bufferization.writable = false}, %{{[^:]*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         func.func @scan(%{{.*}}: tensor<4xf32> {bufferization.writable = false}) -> tensor<4xf32>
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        bufferization.alloc_tensor()
// CHECK-NEXT:        func.call @scan$generic_0
#id = affine_map<(d0) -> (d0)>
module {
  func.func private @scan$generic_0(%in: tensor<4xf32> {bufferization.writable = false}, %out: tensor<4xf32>) -> tensor<4xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
    %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%in : tensor<4xf32>) outs(%out : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %a : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @scan(%x: tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
      %d = bufferization.alloc_tensor() : tensor<4xf32>
      %n = func.call @scan$generic_0(%acc, %d) {no_inline} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      scf.yield %n : tensor<4xf32>
    }
    return %r : tensor<4xf32>
  }
}

// -----

// A public function without tensor arguments (memrefs, scalars) is left
// exactly as it was.

// CHECK-LABEL: func.func @no_tensors
// CHECK-SAME:    (%{{.*}}: memref<4xf32>, %{{[^:]*}}: f32) {
// CHECK-NOT:     bufferization.writable
func.func @no_tensors(%m: memref<4xf32>, %s: f32) {
  return
}

// -----

// Private helpers with a body are not marked either.

// CHECK-LABEL: func.func private @helper
// CHECK-SAME:    (%{{.*}}: tensor<4xf32>) -> tensor<4xf32> {
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
