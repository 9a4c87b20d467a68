// RUN: aot-opt %s --split-input-file --aot-gpu-merge-modules | FileCheck %s

// Kernel outlining leaves a gpu.module per kernel; this pass moves every
// kernel (and what its module holds besides) into one gpu.module @kernels,
// names each kernel after its old module, and points the launches at it.

// Two outlined kernels, one module each: one module is left, holding both,
// and both launches name it.
// CHECK-LABEL: func.func private @add$generic_0(
// CHECK:         gpu.launch_func @kernels::@add$generic_0_kernel blocks in
// CHECK-SAME:      args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>)
// CHECK:         gpu.launch_func @kernels::@add$generic_1_kernel blocks in
// CHECK:       gpu.module @kernels {
// CHECK-NEXT:    gpu.func @add$generic_0_kernel(%arg0: memref<8xf32>, %arg1: memref<8xf32>) kernel
// CHECK:           arith.addf
// CHECK:         gpu.func @add$generic_1_kernel(%arg0: memref<8xf32>, %arg1: memref<8xf32>) kernel
// CHECK:           arith.mulf
// CHECK:       }
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func private @add$generic_0(%arg0: memref<8xf32>, %arg1: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @add$generic_0_kernel::@add$generic_0_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>)
    gpu.launch_func @add$generic_1_kernel::@add$generic_1_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%arg0 : memref<8xf32>, %arg1 : memref<8xf32>)
    return
  }
  gpu.module @add$generic_0_kernel {
    gpu.func @add$generic_0_kernel(%arg0: memref<8xf32>, %arg1: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %arg0[%i] : memref<8xf32>
      %s = arith.addf %v, %v : f32
      memref.store %s, %arg1[%i] : memref<8xf32>
      gpu.return
    }
  }
  gpu.module @add$generic_1_kernel {
    gpu.func @add$generic_1_kernel(%arg0: memref<8xf32>, %arg1: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %arg0[%i] : memref<8xf32>
      %s = arith.mulf %v, %v : f32
      memref.store %s, %arg1[%i] : memref<8xf32>
      gpu.return
    }
  }
}

// -----

// A module's only kernel takes the module's name; the kernels of a module
// with two keep theirs. A function the kernel calls (math.ipowi made one)
// moves along with it.
// CHECK-LABEL: func.func private @pow(
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch_func @kernels::@pow_module blocks in
// CHECK-NEXT:    gpu.launch_func @kernels::@first blocks in
// CHECK-NEXT:    gpu.launch_func @kernels::@second blocks in
// CHECK:       gpu.module @kernels {
// CHECK-NEXT:    gpu.func @pow_module(%arg0: memref<4xi32>) kernel
// CHECK:           func.call @__mlir_math_ipowi_i32(
// CHECK:         func.func private @__mlir_math_ipowi_i32(
// CHECK:         gpu.func @first(
// CHECK:         gpu.func @second(
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func private @pow(%arg0: memref<4xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @pow_module::@pow_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg0 : memref<4xi32>)
    gpu.launch_func @pair::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg0 : memref<4xi32>)
    gpu.launch_func @pair::@second blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg0 : memref<4xi32>)
    return
  }
  gpu.module @pow_module {
    gpu.func @pow_kernel(%arg0: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<4xi32>
      %p = func.call @__mlir_math_ipowi_i32(%v, %v) : (i32, i32) -> i32
      memref.store %p, %arg0[%c0] : memref<4xi32>
      gpu.return
    }
    func.func private @__mlir_math_ipowi_i32(%b: i32, %e: i32) -> i32 {
      return %b : i32
    }
  }
  gpu.module @pair {
    gpu.func @first(%arg0: memref<4xi32>) kernel {
      gpu.return
    }
    gpu.func @second(%arg0: memref<4xi32>) kernel {
      gpu.return
    }
  }
}

// -----

// Names PTX does not take ('.', '-', a leading digit) become identifiers,
// the source's name kept in aot.source_name; a function two kernels'
// modules both copied is kept once.
// CHECK-LABEL: func.func private @m.mlir$generic_0(
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch_func @kernels::@m_mlir$generic_0_kernel blocks in
// CHECK-NEXT:    gpu.launch_func @kernels::@add_one_kernel blocks in
// CHECK-NEXT:    gpu.launch_func @kernels::@k_9lives blocks in
// CHECK:       gpu.module @kernels {
// CHECK-NEXT:    gpu.func @m_mlir$generic_0_kernel(%arg0: memref<4xi32>) kernel attributes {aot.source_name = "m.mlir$generic_0_kernel"}
// CHECK:           func.call @__mlir_math_ipowi_i32(
// CHECK:         func.func private @__mlir_math_ipowi_i32(
// CHECK:         gpu.func @add_one_kernel(%arg0: memref<4xi32>) kernel attributes {aot.source_name = "add-one_kernel"}
// CHECK:           func.call @__mlir_math_ipowi_i32(
// CHECK:         gpu.func @k_9lives(%arg0: memref<4xi32>) kernel attributes {aot.source_name = "9lives"}
// CHECK-NOT:     __mlir_math_ipowi_i32_
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func private @"m.mlir$generic_0"(%arg0: memref<4xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @"m.mlir$generic_0_kernel"::@"m.mlir$generic_0_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg0 : memref<4xi32>)
    gpu.launch_func @"add-one_kernel"::@"add-one_kernel" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg0 : memref<4xi32>)
    gpu.launch_func @"9lives"::@"9lives" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg0 : memref<4xi32>)
    return
  }
  gpu.module @"m.mlir$generic_0_kernel" {
    gpu.func @"m.mlir$generic_0_kernel"(%arg0: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<4xi32>
      %p = func.call @__mlir_math_ipowi_i32(%v, %v) : (i32, i32) -> i32
      memref.store %p, %arg0[%c0] : memref<4xi32>
      gpu.return
    }
    func.func private @__mlir_math_ipowi_i32(%b: i32, %e: i32) -> i32 {
      return %b : i32
    }
  }
  gpu.module @"add-one_kernel" {
    gpu.func @"add-one_kernel"(%arg0: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %arg0[%c0] : memref<4xi32>
      %p = func.call @__mlir_math_ipowi_i32(%v, %v) : (i32, i32) -> i32
      memref.store %p, %arg0[%c0] : memref<4xi32>
      gpu.return
    }
    func.func private @__mlir_math_ipowi_i32(%b: i32, %e: i32) -> i32 {
      return %b : i32
    }
  }
  gpu.module @"9lives" {
    gpu.func @"9lives"(%arg0: memref<4xi32>) kernel {
      gpu.return
    }
  }
}

// -----

// Host code with no kernels: no module is made.
// CHECK-LABEL: func.func @host_only(
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func @host_only(%arg0: f32) -> f32 {
    %0 = arith.addf %arg0, %arg0 : f32
    return %0 : f32
  }
}
