// RUN: aot-opt %s --split-input-file --verify-diagnostics --aot-gpu-check-mapped | FileCheck %s

// After convert-parallel-loops-to-gpu, an scf.parallel left outside a
// gpu.launch in a function on device memory (`aot.device_memory`) would read
// device memory on the host: it is an error at the loop. The pass changes no
// IR.

// Every loop became a launch; a loop nested inside a launch (sequential in
// each thread) is fine.
// CHECK-LABEL: func.func private @mapped(
// CHECK:         gpu.launch blocks
// CHECK:           scf.parallel
// CHECK:             memref.store
// CHECK:           gpu.terminator
func.func private @mapped(%arg0: memref<4x8xf32>) attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.parallel (%j) = (%c0) to (%c8) step (%c1) {
      memref.store %zero, %arg0[%bx, %j] : memref<4x8xf32>
      scf.reduce
    }
    gpu.terminator
  }
  return
}

// -----

// A loop the GPU lowering left on the host (it has no mapping to blocks and
// threads) is an error, reported once.
func.func private @unmapped(%arg0: memref<4xf32>, %arg1: memref<4xf32>) attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{cannot run on the GPU: this parallel loop (from the op at this location) was not mapped to blocks and threads}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %0 = memref.load %arg0[%i] : memref<4xf32>
    memref.store %0, %arg1[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %0 = memref.load %arg1[%i] : memref<4xf32>
    memref.store %0, %arg0[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// A function not on device memory (host code) may keep its parallel loops.
// CHECK-LABEL: func.func private @host(
// CHECK:         scf.parallel (%{{.*}}) = (%c0) to (%c4) step (%c1) {
// CHECK-NEXT:      memref.load %arg0
func.func private @host(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %0 = memref.load %arg0[%i] : memref<4xf32>
    memref.store %0, %arg1[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
