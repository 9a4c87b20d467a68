// RUN: aot-opt %s --split-input-file --aot-number-constants | FileCheck %s

// Globals are renamed after their type and the order of their first use,
// functions in module order, and moved to the top in that order.

// CHECK-LABEL: module
// CHECK-NEXT:    memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.000000e+00>
// CHECK-NEXT:    memref.global "private" constant @__constant_4xf32_0 : memref<4xf32> = dense<1.000000e+00>
// CHECK-NEXT:    memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<7>
// CHECK:         func.func @first
// CHECK-NEXT:      memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT:      memref.get_global @__constant_4xf32_0 : memref<4xf32>
// CHECK:         func.func @second
// CHECK-NEXT:      memref.get_global @__constant_4xf32 : memref<4xf32>
// CHECK-NEXT:      memref.get_global @__constant_2xi32 : memref<2xi32>
module {
  memref.global "private" constant @__constant_4xf32_1 : memref<4xf32> = dense<1.0>
  memref.global "private" constant @__constant_2xi32 : memref<2xi32> = dense<7>
  memref.global "private" constant @__constant_4xf32 : memref<4xf32> = dense<2.0>
  func.func @first() -> (memref<4xf32>, memref<4xf32>) {
    %a = memref.get_global @__constant_4xf32 : memref<4xf32>
    %b = memref.get_global @__constant_4xf32_1 : memref<4xf32>
    return %a, %b : memref<4xf32>, memref<4xf32>
  }
  func.func @second() -> (memref<4xf32>, memref<2xi32>) {
    %a = memref.get_global @__constant_4xf32 : memref<4xf32>
    %b = memref.get_global @__constant_2xi32 : memref<2xi32>
    return %a, %b : memref<4xf32>, memref<2xi32>
  }
}
