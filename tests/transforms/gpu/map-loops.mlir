// RUN: aot-opt %s --split-input-file --verify-diagnostics --aot-gpu-map-loops | FileCheck %s

// In functions marked `aot.device_memory`, each parallel loop is tiled into
// blocks (outer loop) of threads (inner loop); host code that touches device
// memory moves into one-iteration parallel loops (one-thread kernels), and an
// element the host reads is copied to a host buffer.

// 2-D, 10 x 20: rows by 8 (the last block is ragged), columns by 20 (fewer
// than 32: never beyond the trip count).
// CHECK:       #[[ROWS_MAP:.*]] = affine_map<(d0) -> (-d0 + 10, 8)>
// CHECK-LABEL: func.func private @tile_2d(
// CHECK:         scf.parallel (%[[BI:.*]], %[[BJ:.*]]) = ({{.*}}) to (%c10, %c20) step (%{{c8.*}}, %[[C20:c20_[0-9]+]]) {
// CHECK-NEXT:      %[[ROWS:.*]] = affine.min #[[ROWS_MAP]](%[[BI]])
// CHECK-NEXT:      scf.parallel (%[[TI:.*]], %[[TJ:.*]]) = ({{.*}}) to (%[[ROWS]], %[[C20]]) step (%c1, %c1) {
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[TI]], %[[BI]]
// CHECK-NEXT:        %[[J:.*]] = arith.addi %[[TJ]], %[[BJ]]
// CHECK-NEXT:        memref.load %arg0[%[[I]], %[[J]]]
func.func private @tile_2d(%arg0: memref<10x20xf32>, %arg1: memref<10x20xf32>) attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c20 = arith.constant 20 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c10, %c20) step (%c1, %c1) {
    %0 = memref.load %arg0[%i, %j] : memref<10x20xf32>
    memref.store %0, %arg1[%i, %j] : memref<10x20xf32>
    scf.reduce
  }
  return
}

// -----

// 4M elements: 256 threads a block, each with 4 elements 256 apart, all four
// loads before the stores.
// CHECK-LABEL: func.func private @large_1d(
// CHECK:         scf.parallel (%[[B:.*]]) = (%c0) to (%c4194304) step (%c1024{{.*}}) {
// CHECK-NEXT:      %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT:      scf.parallel (%[[T:.*]]) = ({{.*}}) to (%[[C256]]) step (%c1) {
// CHECK-DAG:         arith.constant 256 : index
// CHECK-DAG:         arith.constant 512 : index
// CHECK-DAG:         arith.constant 768 : index
// CHECK-COUNT-4:     memref.load %arg0
// CHECK-NOT:         memref.load
// CHECK-COUNT-4:     memref.store {{.*}}, %arg1
// CHECK-NEXT:        scf.reduce
func.func private @large_1d(%arg0: memref<4194304xf32>, %arg1: memref<4194304xf32>) attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 4194304 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %0 = memref.load %arg0[%i] : memref<4194304xf32>
    %1 = math.absf %0 : f32
    memref.store %1, %arg1[%i] : memref<4194304xf32>
    scf.reduce
  }
  return
}

// -----

// A sum along rows of 40: a warp per row, its 32 lanes along the innermost
// dimension, combined by five xor shuffles; lane 0 writes the output.
// CHECK-LABEL: func.func private @row_sum(
// CHECK:         scf.parallel ({{.*}}) = (%c0, %{{.*}}) to (%c64, %c32) step
// CHECK-NEXT:      scf.parallel
// CHECK:             scf.for
// CHECK-COUNT-5:     gpu.shuffle xor {{.*}} : i32
// CHECK:             scf.if
// CHECK:               memref.store {{.*}}, %arg1
func.func private @row_sum(%arg0: memref<64x40xi32>, %arg1: memref<64xi32>) attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %k = %c0 to %c40 step %c1 {
      %0 = memref.load %arg0[%i, %k] : memref<64x40xi32>
      %1 = memref.load %arg1[%i] : memref<64xi32>
      %2 = arith.addi %0, %1 : i32
      memref.store %2, %arg1[%i] : memref<64xi32>
    }
    scf.reduce
  }
  return
}

// -----

// A sequential loop over device memory and an element store after it (a
// constant in between) become one one-iteration parallel loop; no
// `aot.serial` mark is left.
// CHECK-LABEL: func.func private @sequential(
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.parallel ({{.*}}) = (%[[Z]]) to (%[[ONE]]) step (%[[ONE]]) {
// CHECK-NEXT:      scf.for
// CHECK:           }
// CHECK-NEXT:      memref.store %[[TRUE]], %arg2[%arg3]
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:     aot.serial
func.func private @sequential(%arg0: memref<16xf32>, %arg1: memref<16xf32>, %arg2: memref<1xi1>, %c0: index, %c1: index, %c16: index) attributes {aot.device_memory} {
  scf.for %i = %c0 to %c16 step %c1 {
    %1 = memref.load %arg0[%i] : memref<16xf32>
    memref.store %1, %arg1[%i] : memref<16xf32>
  }
  %true = arith.constant true
  memref.store %true, %arg2[%c0] : memref<1xi1>
  return
}

// -----

// The host reads an element to decide: a one-thread loop stores it into a
// device scalar, copied to a host scalar that the host reads.
// CHECK-LABEL: func.func private @read_element(
// CHECK:         %[[DEV:.*]] = gpu.alloc () : memref<f32>
// CHECK:         scf.parallel
// CHECK-NEXT:      %[[V:.*]] = memref.load %arg0[%c0] : memref<5xf32>
// CHECK-NEXT:      memref.store %[[V]], %[[DEV]][] : memref<f32>
// CHECK:         %[[HOST:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT:    gpu.memcpy %[[HOST]], %[[DEV]]
// CHECK-NEXT:    gpu.dealloc %[[DEV]]
// CHECK-NEXT:    %[[E:.*]] = memref.load %[[HOST]][] : memref<f32>
// CHECK-NEXT:    arith.cmpf ole, %[[E]], %arg1
func.func private @read_element(%arg0: memref<5xf32>, %arg1: f32) -> i1 attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %0 = memref.load %arg0[%c0] : memref<5xf32>
  %1 = arith.cmpf ole, %0, %arg1 : f32
  return %1 : i1
}

// -----

// A function not marked `aot.device_memory` is left alone.
// CHECK-LABEL: func.func private @unmarked(
// CHECK-NEXT:    scf.parallel (%{{.*}}) = (%arg2) to (%arg3) step (%arg4) {
// CHECK-NEXT:      memref.load
func.func private @unmarked(%arg0: memref<5xf32>, %arg1: memref<5xf32>, %lb: index, %ub: index, %st: index) {
  scf.parallel (%i) = (%lb) to (%ub) step (%st) {
    %0 = memref.load %arg0[%i] : memref<5xf32>
    memref.store %0, %arg1[%i] : memref<5xf32>
    scf.reduce
  }
  return
}

// -----

// A parallel loop with a reduction of its own is refused.
func.func private @parallel_sum(%arg0: memref<40xf32>, %lb: index, %ub: index, %step: index, %zero: f32) -> f32 attributes {aot.device_memory} {
  // expected-error @+1 {{cannot run on the GPU yet: an scf.parallel loop with a reduction (scf.reduce)}}
  %r = scf.parallel (%i) = (%lb) to (%ub) step (%step) init (%zero) -> f32 {
    %v = memref.load %arg0[%i] : memref<40xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
