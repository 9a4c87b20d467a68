// RUN: aot-opt %s --split-input-file --aot-gpu-mark-device-buffers | FileCheck %s

// Before the GPU buffer placement: every function with a body is marked
// `aot.device_memory` (its memref arguments are device memory), every
// memref.alloc and memref.alloca gets `aot.device`, and a bufferization.clone
// becomes a marked alloc and a memref.copy into it.

// Allocations are marked wherever they are, their other attributes kept; the
// public function and the dispatch function it calls are both marked.

// CHECK-LABEL: func.func private @add$generic_0(
// CHECK-SAME:    attributes {aot.device_memory, aot.dispatch, passthrough = ["noinline"]}
// CHECK-LABEL: func.func @add(
// CHECK-SAME:    attributes {aot.device_memory}
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() {alignment = 64 : i64, aot.device} : memref<4x8xf32>
// CHECK-NEXT:    %[[T:.*]] = memref.alloca() {aot.device} : memref<f32>
// CHECK:         scf.if
// CHECK-NEXT:      memref.alloc() {aot.device} : memref<8xf32>
// CHECK:         return %[[A]]
func.func private @add$generic_0(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>) attributes {aot.dispatch, passthrough = ["noinline"]} {
  return
}
func.func @add(%arg0: memref<4x8xf32>, %c: i1) -> memref<4x8xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  %tmp = memref.alloca() : memref<f32>
  call @add$generic_0(%arg0, %alloc) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  scf.if %c {
    %inner = memref.alloc() : memref<8xf32>
    memref.dealloc %inner : memref<8xf32>
  }
  return %alloc : memref<4x8xf32>
}

// -----

// A clone (a result that is an argument) becomes a device buffer of the same
// type and a copy into it; no clone is left.

// CHECK-LABEL: func.func @identity(
// CHECK-SAME:    %[[ARG:.*]]: memref<3x4xf32>) -> memref<3x4xf32> attributes {aot.device_memory}
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() {aot.device} : memref<3x4xf32>
// CHECK-NEXT:    memref.copy %[[ARG]], %[[BUF]] : memref<3x4xf32> to memref<3x4xf32>
// CHECK-NEXT:    return %[[BUF]] : memref<3x4xf32>
// CHECK-NOT:     bufferization.clone
func.func @identity(%arg0: memref<3x4xf32>) -> memref<3x4xf32> {
  %0 = bufferization.clone %arg0 : memref<3x4xf32> to memref<3x4xf32>
  return %0 : memref<3x4xf32>
}

// -----

// A clone with a dynamic size and a strided layout: the buffer takes its size
// from the source, has the identity layout, and is cast back to the clone's
// type.

// CHECK-LABEL: func.func @strided(
// CHECK-SAME:    %[[ARG:[^:]*]]: memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[DIM:.*]] = memref.dim %[[ARG]], %[[C0]]
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc(%[[DIM]]) {aot.device} : memref<?x4xf32>
// CHECK-NEXT:    memref.copy %[[ARG]], %[[BUF]] : memref<?x4xf32, strided<[?, ?], offset: ?>> to memref<?x4xf32>
// CHECK-NEXT:    %[[CAST:.*]] = memref.cast %[[BUF]] : memref<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    return %[[CAST]]
func.func @strided(%arg0: memref<?x4xf32, strided<[?, ?], offset: ?>>) -> memref<?x4xf32, strided<[?, ?], offset: ?>> {
  %0 = bufferization.clone %arg0 : memref<?x4xf32, strided<[?, ?], offset: ?>> to memref<?x4xf32, strided<[?, ?], offset: ?>>
  return %0 : memref<?x4xf32, strided<[?, ?], offset: ?>>
}

// -----

// A declaration (a runtime or library function) has no body: it is not
// marked, nor are ops outside functions (a global).

// CHECK-LABEL: module
// CHECK-NEXT:    memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<1.000000e+00>
// CHECK-NEXT:    func.func private @aotCudaBegin(){{$}}
// CHECK-NEXT:    func.func @user() attributes {aot.device_memory}
module {
  memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<1.0>
  func.func private @aotCudaBegin()
  func.func @user() {
    call @aotCudaBegin() : () -> ()
    return
  }
}

// -----

// A buffer that only holds a reshape's sizes (a dynamic flatten: the host
// stores a dim and a constant, the reshape reads them into its result's
// descriptor, the host may read a size back, the deallocation's bookkeeping
// take its address) stays host memory, unmarked; the buffers of tensor data
// beside it are marked. One that a kernel also reads holds tensor data: marked.

// CHECK-LABEL: func.func @flatten(
// CHECK:         memref.alloc(%{{.*}}) {aot.device} : memref<?x4x2xf32>
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    %[[SIZES:.*]] = memref.alloc() : memref<2xindex>
// CHECK:         memref.reshape %{{.*}}(%[[SIZES]])
// CHECK:         memref.alloc() {aot.device} : memref<2xindex>
func.func private @use(%arg0: memref<2xindex>)
func.func @flatten(%arg0: memref<?x4x2xf32>) -> memref<?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d = memref.dim %arg0, %c0 : memref<?x4x2xf32>
  %data = memref.alloc(%d) : memref<?x4x2xf32>
  memref.copy %arg0, %data : memref<?x4x2xf32> to memref<?x4x2xf32>
  %sizes = memref.alloc() : memref<2xindex>
  memref.store %d, %sizes[%c0] : memref<2xindex>
  memref.store %c8, %sizes[%c1] : memref<2xindex>
  %flat = memref.reshape %data(%sizes) : (memref<?x4x2xf32>, memref<2xindex>) -> memref<?x8xf32>
  %n = memref.load %sizes[%c0] : memref<2xindex>
  %p = memref.extract_aligned_pointer_as_index %sizes : memref<2xindex> -> index
  memref.dealloc %sizes : memref<2xindex>
  %read = memref.alloc() : memref<2xindex>
  memref.store %d, %read[%c0] : memref<2xindex>
  %again = memref.reshape %data(%read) : (memref<?x4x2xf32>, memref<2xindex>) -> memref<?x8xf32>
  call @use(%read) : (memref<2xindex>) -> ()
  return %flat : memref<?x8xf32>
}
