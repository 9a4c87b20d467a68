// RUN: aot-opt %s --split-input-file --aot-form-dispatches | FileCheck %s

// Each linalg op on tensors is outlined into a private function marked
// `aot.dispatch` (and `noinline` for LLVM), named FN$OP_INDEX, called with
// `no_inline` where the op was. The tensor it writes becomes its last
// argument, a `bufferization.alloc_tensor` made by the caller; inputs it only
// reads are `bufferization.writable = false`. A fill of that tensor, scalar
// and splat constants and slices it reads are copied in.

// A matmul from a zero fill: the fill is recomputed inside the dispatch.

// CHECK-LABEL: module
// CHECK:       func.func private @mlp$matmul_0(%[[A:.*]]: tensor<4x8xf32> {bufferization.writable = false}, %[[B:.*]]: tensor<8x16xf32> {bufferization.writable = false}, %[[D:.*]]: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {aot.dispatch, passthrough = ["noinline"]}
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[D]] : tensor<4x16xf32>)
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]] : tensor<4x16xf32>)
// CHECK-NEXT:    return %[[M]]
// CHECK:       func.func @mlp(%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x16xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[DEST:.*]] = bufferization.alloc_tensor() : tensor<4x16xf32>
// CHECK-NEXT:    %[[R:.*]] = call @mlp$matmul_0(%[[X]], %[[W]], %[[DEST]]) {no_inline}
// CHECK-NEXT:    return %[[R]]
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// What the op reads: a splat constant is copied in, a non-splat one stays
// with the caller, a slice goes in with its offsets (dynamic or constant)
// as index arguments. A dynamic destination is allocated with the caller's
// dim.

// CHECK-LABEL: module
// CHECK:       func.func private @reads$generic_0(%[[X:.*]]: tensor<?x4xf32> {bufferization.writable = false}, %[[W:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[B:.*]]: tensor<8x4xf32> {bufferization.writable = false}, %[[I:.*]]: index, %[[J:.*]]: index, %[[D:.*]]: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[BI:.*]] = tensor.extract_slice %[[B]][%[[I]], %[[J]]] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[X]], %[[S]], %[[W]], %[[BI]] : {{.*}}) outs(%[[D]] : tensor<?x4xf32>)
// CHECK:       func.func @reads(%[[XA:.*]]: tensor<?x4xf32>, %[[BA:.*]]: tensor<8x4xf32>, %[[IA:.*]]: index)
// CHECK:         %[[WA:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NOT:     tensor.extract_slice
// CHECK:         %[[N:.*]] = tensor.dim %[[XA]]
// CHECK-NEXT:    %[[DEST:.*]] = bufferization.alloc_tensor(%[[N]]) : tensor<?x4xf32>
// CHECK-NEXT:    call @reads$generic_0(%[[XA]], %[[WA]], %[[BA]], %[[IA]], %[[C0]], %[[DEST]]) {no_inline}
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @reads(%x: tensor<?x4xf32>, %b: tensor<8x4xf32>, %i: index) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %s = arith.constant dense<2.0> : tensor<4xf32>
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %bi = tensor.extract_slice %b[%i, 0] [1, 4] [1, 1] : tensor<8x4xf32> to tensor<4xf32>
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #row, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s, %w, %bi : tensor<?x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<?x4xf32>) {
  ^bb0(%v: f32, %sv: f32, %wv: f32, %bv: f32, %o: f32):
    %p = arith.mulf %v, %sv : f32
    %q = arith.addf %p, %wv : f32
    %t = arith.addf %q, %bv : f32
    linalg.yield %t : f32
  } -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// A result only padded by a constant: the dispatch takes the padded tensor,
// fills it and writes the middle; the pad goes.

// CHECK-LABEL: module
// CHECK:       func.func private @padded$generic_0(%[[X:.*]]: tensor<2x3xf32> {bufferization.writable = false}, %[[D:.*]]: tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[D]] : tensor<4x5xf32>)
// CHECK-NEXT:    %[[MID:.*]] = tensor.extract_slice %[[F]][1, 1] [2, 3] [1, 1]
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x3xf32>) outs(%[[MID]] : tensor<2x3xf32>)
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[G]] into %[[F]][1, 1] [2, 3] [1, 1]
// CHECK-NEXT:    return %[[INS]] : tensor<4x5xf32>
// CHECK:       func.func @padded(%[[XA:.*]]: tensor<2x3xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[DEST:.*]] = bufferization.alloc_tensor() : tensor<4x5xf32>
// CHECK-NEXT:    %[[R:.*]] = call @padded$generic_0(%[[XA]], %[[DEST]])
// CHECK-NEXT:    return %[[R]]
#id = affine_map<(i, j) -> (i, j)>
func.func @padded(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.maximumf %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %p = tensor.pad %r low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<4x5xf32>
  return %p : tensor<4x5xf32>
}

// -----

// An op in a loop body is called in the loop, with a fresh destination
// allocated in each iteration.

// CHECK-LABEL: module
// CHECK:       func.func private @loop$generic_0(%{{.*}}: tensor<8xf32> {bufferization.writable = false}, %{{.*}}: tensor<8xf32>)
// CHECK:       func.func @loop(
// CHECK:         scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NEXT:      %[[DEST:.*]] = bufferization.alloc_tensor() : tensor<8xf32>
// CHECK-NEXT:      %[[R:.*]] = func.call @loop$generic_0(%[[ACC]], %[[DEST]]) {no_inline}
// CHECK-NEXT:      scf.yield %[[R]]
func.func @loop(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%acc : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %s = arith.addf %v, %v : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    scf.yield %d : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// An existing dispatch is not outlined again, and its name is not reused; a
// linalg op on memrefs is not a dispatch.

// CHECK-LABEL: module
// CHECK:       func.func private @f$generic_0(%[[O:.*]]: tensor<8xf32>)
// CHECK-NEXT:    arith.constant 1.000000e+00
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[O]] : tensor<8xf32>)
// CHECK-NEXT:    return
// CHECK:       func.func private @f$generic_0_2(
// CHECK:       func.func @f(
// CHECK-NEXT:    arith.constant
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<8xf32>)
// CHECK-NEXT:    bufferization.alloc_tensor()
// CHECK-NEXT:    call @f$generic_0_2(
func.func private @f$generic_0(%o: tensor<8xf32>) -> tensor<8xf32> attributes {aot.dispatch, passthrough = ["noinline"]} {
  %one = arith.constant 1.0 : f32
  %d = linalg.fill ins(%one : f32) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %d : tensor<8xf32>
}
func.func @f(%x: tensor<8xf32>, %m: memref<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%m : memref<8xf32>)
  %e = tensor.empty() : tensor<8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.mulf %v, %v : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %d : tensor<8xf32>
}
