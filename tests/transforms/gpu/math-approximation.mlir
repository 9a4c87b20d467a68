// RUN: aot-opt %s --split-input-file --aot-math-approximation | FileCheck %s

// For kernels when libdevice is missing: math functions become MLIR's
// polynomial approximations (arithmetic), and the ops a GPU has instructions
// for become generic calls of LLVM intrinsics (not the LLVM dialect's ops,
// which the NVVM lowering would turn into libdevice calls).

// The ops with instructions, on scalars and vectors.
// CHECK-LABEL: gpu.func @instructions(
// CHECK-SAME:    %[[A:[^:]*]]: f32, %[[B:[^:]*]]: f32, %[[C:[^:]*]]: f32, %[[V:[^:]*]]: vector<4xf32>
// CHECK:         llvm.call_intrinsic "llvm.sqrt"(%[[A]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.fma"(%[[A]], %[[B]], %[[C]]) : (f32, f32, f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.fabs"(%[[A]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.floor"(%[[A]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.ceil"(%[[A]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.trunc"(%[[A]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.roundeven"(%[[A]]) : (f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.copysign"(%[[A]], %[[B]]) : (f32, f32) -> f32
// CHECK:         llvm.call_intrinsic "llvm.sqrt"(%[[V]]) : (vector<4xf32>) -> vector<4xf32>
// CHECK-NOT:     math.
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @instructions(%a: f32, %b: f32, %c: f32, %v: vector<4xf32>, %p: memref<8xf32>, %q: memref<vector<4xf32>>) kernel {
    %i = arith.constant 0 : index
    %0 = math.sqrt %a : f32
    memref.store %0, %p[%i] : memref<8xf32>
    %1 = math.fma %a, %b, %c : f32
    memref.store %1, %p[%i] : memref<8xf32>
    %2 = math.absf %a : f32
    memref.store %2, %p[%i] : memref<8xf32>
    %3 = math.floor %a : f32
    memref.store %3, %p[%i] : memref<8xf32>
    %4 = math.ceil %a : f32
    memref.store %4, %p[%i] : memref<8xf32>
    %5 = math.trunc %a : f32
    memref.store %5, %p[%i] : memref<8xf32>
    %6 = math.roundeven %a : f32
    memref.store %6, %p[%i] : memref<8xf32>
    %7 = math.copysign %a, %b : f32
    memref.store %7, %p[%i] : memref<8xf32>
    %8 = math.sqrt %v : vector<4xf32>
    memref.store %8, %q[] : memref<vector<4xf32>>
    gpu.return
  }
}

// -----

// f32 tanh becomes a rational approximation: clamped input, polynomials
// evaluated with fma intrinsics, a division; no math op is left.
// CHECK-LABEL: gpu.func @tanh(
// CHECK:         arith.select
// CHECK:         llvm.call_intrinsic "llvm.fabs"
// CHECK:         llvm.call_intrinsic "llvm.fma"
// CHECK:         %[[Q:.*]] = arith.divf
// CHECK:         %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : f32
// CHECK-NEXT:    memref.store %[[R]]
// CHECK-NOT:     math.
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @tanh(%a: f32, %p: memref<f32>) kernel {
    %0 = math.tanh %a : f32
    memref.store %0, %p[] : memref<f32>
    gpu.return
  }
}

// -----

// f16 exp is computed in f32 (the approximation is f32's) and truncated.
// CHECK-LABEL: gpu.func @exp_f16(
// CHECK-SAME:    %[[H:[^:]*]]: f16
// CHECK:         %[[X:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK:         llvm.call_intrinsic "llvm.floor"
// CHECK:         arith.shli
// CHECK:         %[[E:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:    memref.store %[[E]]
// CHECK-NOT:     math.exp
gpu.module @kernels {
  gpu.func @exp_f16(%h: f16, %p: memref<f16>) kernel {
    %0 = math.exp %h : f16
    memref.store %0, %p[] : memref<f16>
    gpu.return
  }
}

// -----

// f64 erf has no approximation: it is left for libdevice (whose absence the
// PTX stage then reports).
// CHECK-LABEL: gpu.func @erf_f64(
// CHECK-NEXT:    %[[E:.*]] = math.erf %{{.*}} : f64
// CHECK-NEXT:    memref.store %[[E]]
gpu.module @kernels {
  gpu.func @erf_f64(%d: f64, %p: memref<f64>) kernel {
    %0 = math.erf %d : f64
    memref.store %0, %p[] : memref<f64>
    gpu.return
  }
}
