// RUN: aot-opt %s --split-input-file --aot-bit-counts-to-llvm | FileCheck %s

// In kernels, before convert-gpu-to-nvvm (which leaves these integer ops
// alone and makes math.trunc a call of libm's truncf): math.ctlz, cttz and
// ctpop become the LLVM intrinsics, with a zero input defined (the bit width,
// is_zero_poison = false), and math.trunc becomes llvm.intr.trunc.

// The three bit counts on i32.
// CHECK-LABEL: gpu.func @counts(
// CHECK-SAME:    %[[A:[^:]*]]: i32
// CHECK:         %[[LZ:.*]] = "llvm.intr.ctlz"(%[[A]]) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-NEXT:    memref.store %[[LZ]]
// CHECK-NEXT:    %[[TZ:.*]] = "llvm.intr.cttz"(%[[A]]) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-NEXT:    memref.store %[[TZ]]
// CHECK-NEXT:    %[[POP:.*]] = llvm.intr.ctpop(%[[A]]) : (i32) -> i32
// CHECK-NEXT:    memref.store %[[POP]]
// CHECK-NOT:     math.
gpu.module @kernels {
  gpu.func @counts(%a: i32, %p: memref<3xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %0 = math.ctlz %a : i32
    memref.store %0, %p[%c0] : memref<3xi32>
    %1 = math.cttz %a : i32
    memref.store %1, %p[%c1] : memref<3xi32>
    %2 = math.ctpop %a : i32
    memref.store %2, %p[%c2] : memref<3xi32>
    gpu.return
  }
}

// -----

// Other widths and vectors keep their type.
// CHECK-LABEL: func.func @widths(
// CHECK-SAME:    %[[V:[^:]*]]: vector<4xi8>, %[[W:[^:]*]]: i64
// CHECK-NEXT:    %[[LZ:.*]] = "llvm.intr.ctlz"(%[[V]]) <{is_zero_poison = false}> : (vector<4xi8>) -> vector<4xi8>
// CHECK-NEXT:    %[[TZ:.*]] = "llvm.intr.cttz"(%[[W]]) <{is_zero_poison = false}> : (i64) -> i64
// CHECK-NEXT:    %[[POP:.*]] = llvm.intr.ctpop(%[[V]]) : (vector<4xi8>) -> vector<4xi8>
// CHECK-NEXT:    return %[[LZ]], %[[TZ]], %[[POP]]
gpu.module @kernels {
  func.func @widths(%v: vector<4xi8>, %w: i64) -> (vector<4xi8>, i64, vector<4xi8>) {
    %0 = math.ctlz %v : vector<4xi8>
    %1 = math.cttz %w : i64
    %2 = math.ctpop %v : vector<4xi8>
    return %0, %1, %2 : vector<4xi8>, i64, vector<4xi8>
  }
}

// -----

// math.trunc on f32 and on a vector of f64.
// CHECK-LABEL: func.func @trunc(
// CHECK-SAME:    %[[F:[^:]*]]: f32, %[[FV:[^:]*]]: vector<2xf64>
// CHECK-NEXT:    %[[T:.*]] = llvm.intr.trunc(%[[F]]) : (f32) -> f32
// CHECK-NEXT:    %[[TV:.*]] = llvm.intr.trunc(%[[FV]]) : (vector<2xf64>) -> vector<2xf64>
// CHECK-NEXT:    return %[[T]], %[[TV]]
gpu.module @kernels {
  func.func @trunc(%f: f32, %fv: vector<2xf64>) -> (f32, vector<2xf64>) {
    %0 = math.trunc %f : f32
    %1 = math.trunc %fv : vector<2xf64>
    return %0, %1 : f32, vector<2xf64>
  }
}

// -----

// Other math ops, rounding included, are left for the NVVM lowering.
// CHECK-LABEL: func.func @others(
// CHECK-NEXT:    math.absi %{{.*}} : i32
// CHECK-NEXT:    math.floor %{{.*}} : f32
// CHECK-NEXT:    math.roundeven %{{.*}} : f32
// CHECK-NEXT:    return
gpu.module @kernels {
  func.func @others(%a: i32, %f: f32) -> (i32, f32, f32) {
    %0 = math.absi %a : i32
    %1 = math.floor %f : f32
    %2 = math.roundeven %f : f32
    return %0, %1, %2 : i32, f32, f32
  }
}
