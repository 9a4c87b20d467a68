// RUN: aot-opt %s --split-input-file --aot-gpu-device-constants | FileCheck %s

// In host code lowered to the LLVM dialect, the address of a constant global
// (a weight that kernels read) is replaced by the device copy that the
// runtime's aotCudaConstant(address, size in bytes) returns.

// Every use of the address goes to the device copy; the size is the global's
// in bytes; aotCudaConstant is declared once for both functions.
// CHECK-LABEL: llvm.func @weight$body(
// CHECK-NEXT:    %[[HOST:.*]] = llvm.mlir.addressof @__constant_64x64xf16 : !llvm.ptr
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(8192 : i64) : i64
// CHECK-NEXT:    %[[DEV:.*]] = llvm.call @aotCudaConstant(%[[HOST]], %[[SIZE]]) : (!llvm.ptr, i64) -> !llvm.ptr
// CHECK-NEXT:    %[[GEP:.*]] = llvm.getelementptr %[[DEV]][0, 0, 0]
// CHECK-NEXT:    llvm.return %[[GEP]]
// CHECK-LABEL: llvm.func @bias$body(
// CHECK-NEXT:    %[[B:.*]] = llvm.mlir.addressof @__constant_3xi32 : !llvm.ptr
// CHECK-NEXT:    %[[BSIZE:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK-NEXT:    %[[BDEV:.*]] = llvm.call @aotCudaConstant(%[[B]], %[[BSIZE]])
// CHECK-NEXT:    llvm.return %[[BDEV]]
// CHECK:       llvm.func @aotCudaConstant(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-NOT:   llvm.func @aotCudaConstant
module {
  llvm.mlir.global private constant @__constant_64x64xf16(dense<1.0> : tensor<64x64xf16>) {addr_space = 0 : i32} : !llvm.array<64 x array<64 x f16>>
  llvm.mlir.global private constant @__constant_3xi32(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 0 : i32} : !llvm.array<3 x i32>
  llvm.func @weight$body() -> !llvm.ptr attributes {sym_visibility = "private"} {
    %0 = llvm.mlir.addressof @__constant_64x64xf16 : !llvm.ptr
    %1 = llvm.getelementptr %0[0, 0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<64 x array<64 x f16>>
    llvm.return %1 : !llvm.ptr
  }
  llvm.func @bias$body() -> !llvm.ptr attributes {sym_visibility = "private"} {
    %0 = llvm.mlir.addressof @__constant_3xi32 : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}

// -----

// A declaration already there is used, not a second one added.
// CHECK-LABEL: module
// CHECK:         llvm.func @aotCudaConstant(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-LABEL:   llvm.func @user(
// CHECK:           llvm.call @aotCudaConstant(
// CHECK-NOT:     llvm.func @aotCudaConstant
module {
  llvm.mlir.global private constant @__constant_4xf32(dense<1.0> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
  llvm.func @aotCudaConstant(!llvm.ptr, i64) -> !llvm.ptr
  llvm.func @user() -> !llvm.ptr {
    %0 = llvm.mlir.addressof @__constant_4xf32 : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}

// -----

// Left alone: a global that is not constant, a text only the host reads
// (`aot.host_only`, removed from every global at the end), and kernels,
// which read the device copies they are passed.
// CHECK-LABEL: module
// CHECK:         llvm.mlir.global private constant @trace_text("add\00") {addr_space = 0 : i32}{{$}}
// CHECK-NOT:     aot.host_only
// CHECK-LABEL:   llvm.func @host(
// CHECK-NEXT:      llvm.mlir.addressof @counter
// CHECK-NEXT:      llvm.mlir.addressof @trace_text
// CHECK-NEXT:      llvm.return
// CHECK:         gpu.module @kernels
// CHECK-NEXT:      llvm.mlir.global private constant @table
// CHECK-NEXT:      llvm.func @kernel(
// CHECK-NEXT:        llvm.mlir.addressof @table
// CHECK-NEXT:        llvm.return
// CHECK-NOT:     aotCudaConstant
module attributes {gpu.container_module} {
  llvm.mlir.global private @counter(0 : i64) {addr_space = 0 : i32} : i64
  llvm.mlir.global private constant @trace_text("add\00") {addr_space = 0 : i32, aot.host_only} : !llvm.array<4 x i8>
  llvm.func @host() {
    %0 = llvm.mlir.addressof @counter : !llvm.ptr
    %1 = llvm.mlir.addressof @trace_text : !llvm.ptr
    llvm.return
  }
  gpu.module @kernels {
    llvm.mlir.global private constant @table(dense<7> : tensor<2xi32>) {addr_space = 0 : i32} : !llvm.array<2 x i32>
    llvm.func @kernel() {
      %0 = llvm.mlir.addressof @table : !llvm.ptr
      llvm.return
    }
  }
}
