// RUN: aot-opt %s --split-input-file --aot-weights-as-bytes=min-bytes=16 | FileCheck %s
// RUN: aot-opt %s --split-input-file --aot-weights-as-bytes | FileCheck %s --check-prefix=DEFAULT

// At the end of the LLVM lowering, a constant global of at least min-bytes
// (default 1024) holding a dense or dense_resource array becomes an array of
// i8 whose value is a dense_resource over the same bytes, named after the
// global; aot.weight_type keeps the original type. A non-zero splat is
// written out; a zero splat stays a splat. Every constant global with bytes
// gets aot.weight_name: its NameLoc, else "file:line:col".

// A non-splat f32 array of exactly min-bytes (16) becomes 16 bytes, little
// endian (1.0 is 0000803F). Under the default 1 KiB it only gets its name.
// CHECK-LABEL: llvm.mlir.global private constant @w
// CHECK-SAME:    (dense_resource<w> : tensor<16xi8>)
// CHECK-SAME:    {addr_space = 0 : i32, alignment = 64 : i64, aot.weight_name = "weights-as-bytes.mlir:[[@LINE+7]]:1", aot.weight_type = tensor<4xf32>}
// CHECK-SAME:    : !llvm.array<16 x i8>
// CHECK:       dialect_resources
// CHECK:         w: "0x{{[0-9A-F]+}}0000803F00000040000080BF0000003F"
// DEFAULT-LABEL: llvm.mlir.global private constant @w
// DEFAULT-SAME:    (dense<[1.000000e+00, 2.000000e+00, -1.000000e+00, 5.000000e-01]> : tensor<4xf32>)
// DEFAULT-SAME:    {addr_space = 0 : i32, alignment = 64 : i64, aot.weight_name = "weights-as-bytes.mlir:[[@LINE+1]]:1"} : !llvm.array<4 x f32>
llvm.mlir.global private constant @w(dense<[1.0, 2.0, -1.0, 0.5]> : tensor<4xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x f32>

// -----

// One element short of min-bytes (12 bytes): named, but kept as it is.
// CHECK-LABEL: llvm.mlir.global private constant @below
// CHECK-SAME:    (dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 0 : i32, alignment = 64 : i64, aot.weight_name = "weights-as-bytes.mlir:[[@LINE+2]]:1"} : !llvm.array<3 x i32>
// CHECK-NOT:   dialect_resources
llvm.mlir.global private constant @below(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<3 x i32>

// -----

// A non-zero splat of a nested array type is written out in full: eight
// i16 sevens.
// CHECK-LABEL: llvm.mlir.global private constant @splat
// CHECK-SAME:    (dense_resource<splat> : tensor<16xi8>)
// CHECK-SAME:    aot.weight_type = tensor<2x4xi16>
// CHECK-SAME:    : !llvm.array<16 x i8>
// CHECK:         splat: "0x{{[0-9A-F]+}}07000700070007000700070007000700"
llvm.mlir.global private constant @splat(dense<7> : tensor<2x4xi16>) {addr_space = 0 : i32} : !llvm.array<2 x array<4 x i16>>

// -----

// A dense_resource of i64 keeps its bytes under a resource of the global's
// name; the NameLoc is the weight's name.
// CHECK-LABEL: llvm.mlir.global private constant @res
// CHECK-SAME:    (dense_resource<res> : tensor<16xi8>) {addr_space = 0 : i32, aot.weight_name = "layer1.weight", aot.weight_type = tensor<2xi64>} : !llvm.array<16 x i8>
// CHECK:         res: "0x{{[0-9A-F]+}}010000000000000002000000000000FF"
llvm.mlir.global private constant @res(dense_resource<blob1> : tensor<2xi64>) {addr_space = 0 : i32} : !llvm.array<2 x i64> loc("layer1.weight")
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x08000000010000000000000002000000000000FF"
    }
  }
#-}

// -----

// Left alone, without a name: a zero splat (it takes no space in the
// object), a global that is not constant, and i1 elements (no whole bytes).
// CHECK-LABEL: llvm.mlir.global private constant @zero
// CHECK-SAME:    (dense<0.000000e+00> : tensor<64xf32>) {addr_space = 0 : i32} : !llvm.array<64 x f32>
// CHECK-NEXT:  llvm.mlir.global private @mutable
// CHECK-SAME:    (dense<[1, 2, 3, 4]> : tensor<4xi32>) {addr_space = 0 : i32} : !llvm.array<4 x i32>
// CHECK-NEXT:  llvm.mlir.global private constant @bools
// CHECK-SAME:    (dense<true> : tensor<256xi1>) {addr_space = 0 : i32} : !llvm.array<256 x i1>
// CHECK-NOT:   dialect_resources
llvm.mlir.global private constant @zero(dense<0.0> : tensor<64xf32>) {addr_space = 0 : i32} : !llvm.array<64 x f32>
llvm.mlir.global private @mutable(dense<[1, 2, 3, 4]> : tensor<4xi32>) {addr_space = 0 : i32} : !llvm.array<4 x i32>
llvm.mlir.global private constant @bools(dense<true> : tensor<256xi1>) {addr_space = 0 : i32} : !llvm.array<256 x i1>

// -----

// The default min-bytes, 1024: 256 floats become bytes, 255 do not (with
// min-bytes=16, both do).
// CHECK-LABEL: llvm.mlir.global private constant @kib
// CHECK-SAME:    (dense_resource<kib> : tensor<1024xi8>)
// CHECK-NEXT:  llvm.mlir.global private constant @under_kib
// CHECK-SAME:    (dense_resource<under_kib> : tensor<1020xi8>)
// DEFAULT-LABEL: llvm.mlir.global private constant @kib
// DEFAULT-SAME:    (dense_resource<kib> : tensor<1024xi8>)
// DEFAULT-SAME:    aot.weight_type = tensor<256xf32>
// DEFAULT-NEXT:  llvm.mlir.global private constant @under_kib
// DEFAULT-SAME:    (dense<1.000000e+00> : tensor<255xf32>)
// DEFAULT-NOT:     aot.weight_type
// DEFAULT-SAME:    : !llvm.array<255 x f32>
llvm.mlir.global private constant @kib(dense<1.0> : tensor<256xf32>) {addr_space = 0 : i32} : !llvm.array<256 x f32>
llvm.mlir.global private constant @under_kib(dense<1.0> : tensor<255xf32>) {addr_space = 0 : i32} : !llvm.array<255 x f32>
