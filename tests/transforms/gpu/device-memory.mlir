// RUN: aot-opt %s --split-input-file --verify-diagnostics --aot-gpu-device-memory | FileCheck %s

// In functions marked `aot.device_memory`, marked buffers become gpu.alloc,
// deallocations of device buffers gpu.dealloc, device-to-device copies
// linalg.copy. A public function keeps its host interface: its body moves to a
// private `f$body`, `f` copies arguments in and results out with gpu.memcpy,
// and `f$device` runs the body on device memory on a caller's stream.

// A public function with a dynamic dim and a scalar argument and result.

// CHECK-LABEL: func.func private @scale$body(%arg0: memref<?x4xf32>, %arg1: f32) -> (memref<?x4xf32>, f32) attributes {aot.device_memory}
// CHECK:         %[[DIM:.*]] = memref.dim %arg0
// CHECK-NEXT:    %[[OUT:.*]] = gpu.alloc (%[[DIM]]) : memref<?x4xf32>
// CHECK-NEXT:    call @scale$generic_0(%arg0, %[[OUT]])
// CHECK-NEXT:    return %[[OUT]], %arg1
// CHECK-LABEL: func.func @scale(%arg0: memref<?x4xf32>, %arg1: f32) -> (memref<?x4xf32>, f32) {
// CHECK-NEXT:    call @aotCudaBegin() : () -> ()
// CHECK:         %[[ADIM:.*]] = memref.dim %arg0
// CHECK-NEXT:    %[[IN:.*]] = gpu.alloc (%[[ADIM]]) : memref<?x4xf32>
// CHECK-NEXT:    gpu.memcpy %[[IN]], %arg0
// CHECK-NEXT:    %[[R:.*]]:2 = call @scale$body(%[[IN]], %arg1)
// CHECK:         %[[RDIM:.*]] = memref.dim %[[R]]#0
// CHECK-NEXT:    %[[HOST:.*]] = memref.alloc(%[[RDIM]]) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT:    gpu.memcpy %[[HOST]], %[[R]]#0
// CHECK-NEXT:    gpu.dealloc %[[IN]]
// CHECK-NEXT:    gpu.dealloc %[[R]]#0
// CHECK-NEXT:    return %[[HOST]], %[[R]]#1
// CHECK-LABEL: func.func @scale$device(%arg0: memref<?x4xf32>, %arg1: f32, %arg2: !llvm.ptr) -> (memref<?x4xf32>, f32) attributes {llvm.emit_c_interface}
// CHECK-NEXT:    call @aotCudaBeginOn(%arg2) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[D:.*]]:2 = call @scale$body(%arg0, %arg1)
// CHECK-NEXT:    return %[[D]]#0, %[[D]]#1
// CHECK-DAG:   func.func private @aotCudaBegin()
// CHECK-DAG:   func.func private @aotCudaBeginOn(!llvm.ptr)
func.func private @scale$generic_0(%arg0: memref<?x4xf32>, %arg1: memref<?x4xf32>) attributes {aot.device_memory, aot.dispatch} {
  return
}
func.func @scale(%arg0: memref<?x4xf32>, %arg1: f32) -> (memref<?x4xf32>, f32) attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %dim = memref.dim %arg0, %c0 : memref<?x4xf32>
  %alloc = memref.alloc(%dim) {alignment = 64 : i64, aot.device} : memref<?x4xf32>
  call @scale$generic_0(%arg0, %alloc) : (memref<?x4xf32>, memref<?x4xf32>) -> ()
  return %alloc, %arg1 : memref<?x4xf32>, f32
}

// -----

// A private function is not split. A marked alloca is freed at the end of its
// block; unmarked (host bookkeeping) buffers, their copies and deallocations
// stay as they are.

// CHECK-LABEL: func.func private @place(%arg0: memref<4xf32>)
// CHECK-NEXT:    %[[A:.*]] = gpu.alloc () : memref<4xf32>
// CHECK-NEXT:    %[[T:.*]] = gpu.alloc () : memref<4xf32>
// CHECK-NEXT:    linalg.copy ins(%arg0 : memref<4xf32>) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT:    %[[H:.*]] = memref.alloc() : memref<2xi1>
// CHECK-NEXT:    %[[H2:.*]] = memref.alloc() : memref<2xi1>
// CHECK-NEXT:    memref.copy %[[H]], %[[H2]]
// CHECK-NEXT:    memref.dealloc %[[H]] : memref<2xi1>
// CHECK-NEXT:    memref.dealloc %[[H2]] : memref<2xi1>
// CHECK-NEXT:    gpu.dealloc %[[A]]
// CHECK-NEXT:    gpu.dealloc %[[T]]
// CHECK-NEXT:    return
// CHECK-NOT:   @place$
func.func private @place(%arg0: memref<4xf32>) attributes {aot.device_memory} {
  %a = memref.alloc() {aot.device} : memref<4xf32>
  %t = memref.alloca() {aot.device} : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %h = memref.alloc() : memref<2xi1>
  %h2 = memref.alloc() : memref<2xi1>
  memref.copy %h, %h2 : memref<2xi1> to memref<2xi1>
  memref.dealloc %h : memref<2xi1>
  memref.dealloc %h2 : memref<2xi1>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Results that are an argument, a constant, or the same buffer twice: the host
// frees only its copy of the argument and the function's own buffer, once;
// `f$device` returns a constant in a new buffer.

// CHECK-LABEL: func.func @kinds(%arg0: memref<4xf32>)
// CHECK:         %[[IN:.*]] = gpu.alloc () : memref<4xf32>
// CHECK:         %[[R:.*]]:4 = call @kinds$body(%[[IN]])
// CHECK-COUNT-4: gpu.memcpy
// CHECK-NEXT:    gpu.dealloc %[[IN]]
// CHECK-NEXT:    gpu.dealloc %[[R]]#2
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @kinds$device(
// CHECK:         %[[D:.*]]:4 = call @kinds$body(%arg0)
// CHECK-NEXT:    %[[COPY:.*]] = gpu.alloc () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy %[[COPY]], %[[D]]#1
// CHECK-NEXT:    return %[[D]]#0, %[[COPY]], %[[D]]#2, %[[D]]#3
memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<1.0>
func.func @kinds(%arg0: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) attributes {aot.device_memory} {
  %0 = memref.get_global @__constant_4xf32 : memref<4xf32>
  %alloc = memref.alloc() {aot.device} : memref<4xf32>
  return %arg0, %0, %alloc, %alloc : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>
}

// -----

// A call of a public function goes to its body; a function that is not marked
// is left alone.

// CHECK-LABEL: func.func private @caller$body(
// CHECK-NEXT:    call @callee$body(%arg0)
// CHECK-LABEL: func.func @unmarked(
// CHECK-NEXT:    memref.alloc() {aot.device} : memref<4xf32>
// CHECK-NEXT:    memref.copy
// CHECK-NOT:   @unmarked$
func.func @callee(%arg0: memref<4xf32>) -> memref<4xf32> attributes {aot.device_memory} {
  %alloc = memref.alloc() {aot.device} : memref<4xf32>
  memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
  return %alloc : memref<4xf32>
}
func.func @caller(%arg0: memref<4xf32>) -> memref<4xf32> attributes {aot.device_memory} {
  %0 = call @callee(%arg0) : (memref<4xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}
func.func @unmarked(%arg0: memref<4xf32>) -> memref<4xf32> {
  %alloc = memref.alloc() {aot.device} : memref<4xf32>
  memref.copy %arg0, %alloc : memref<4xf32> to memref<4xf32>
  return %alloc : memref<4xf32>
}

// -----

// A copy between a device and a host buffer is an internal error.
func.func private @mixed(%arg0: memref<4xf32>) attributes {aot.device_memory} {
  %h = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{'memref.copy' op copies device memory to host memory; internal error of the GPU target's buffer placement}}
  memref.copy %arg0, %h : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Results that alias arguments differently on different paths cannot be
// copied to the host.
// expected-error @+1 {{returns buffers that alias its arguments or each other differently on different paths}}
func.func @paths(%arg0: memref<4xf32>, %c: i1) -> memref<4xf32> attributes {aot.device_memory} {
  cf.cond_br %c, ^a, ^b
^a:
  return %arg0 : memref<4xf32>
^b:
  %alloc = memref.alloc() {aot.device} : memref<4xf32>
  return %alloc : memref<4xf32>
}
