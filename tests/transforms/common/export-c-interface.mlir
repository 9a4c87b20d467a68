// RUN: aot-opt %s --split-input-file --aot-export-c-interface | FileCheck %s

// Every public function that has a body gets `llvm.emit_c_interface`, so
// that the LLVM lowering adds a `_mlir_ciface_` wrapper for it. Private
// functions (dispatches, helpers) and declarations are left as they are.

// A public function with a body is marked; its body is untouched.

// CHECK-LABEL: func.func @entry
// CHECK-SAME:    (%{{.*}}: memref<4xf32>) -> memref<4xf32>
// CHECK-SAME:    attributes {llvm.emit_c_interface}
// CHECK-NEXT:    return %{{.*}} : memref<4xf32>
func.func @entry(%arg0: memref<4xf32>) -> memref<4xf32> {
  return %arg0 : memref<4xf32>
}

// -----

// Attributes already on the function are kept beside the new one.

// CHECK-LABEL: func.func @with_attrs
// CHECK-SAME:    attributes {llvm.emit_c_interface, some.attr = 3 : i64}
func.func @with_attrs(%arg0: f32) -> f32 attributes {some.attr = 3 : i64} {
  return %arg0 : f32
}

// -----

// Private functions with a body (a dispatch) and external declarations are
// not exported; the public caller in the same module is.

// CHECK-LABEL: module
// CHECK:         func.func private @main$generic_0(%{{.*}}: memref<4xf32>)
// CHECK-SAME:      attributes {aot.dispatch, passthrough = ["noinline"]}
// CHECK-NOT:       llvm.emit_c_interface
// CHECK:         func.func private @expf(f32) -> f32{{$}}
// CHECK:         func.func @main(%{{.*}}: memref<4xf32>)
// CHECK-SAME:      attributes {llvm.emit_c_interface}
// CHECK-NEXT:      call @main$generic_0
module {
  func.func private @main$generic_0(%arg0: memref<4xf32>) attributes {aot.dispatch, passthrough = ["noinline"]} {
    return
  }
  func.func private @expf(f32) -> f32
  func.func @main(%arg0: memref<4xf32>) {
    call @main$generic_0(%arg0) : (memref<4xf32>) -> ()
    return
  }
}

// -----

// Every public function of the module is marked, not only the first; a
// private one with a body between them is not.

// CHECK-LABEL: module
// CHECK:         func.func @first() attributes {llvm.emit_c_interface}
// CHECK:         func.func private @helper() {
// CHECK:         func.func @second() attributes {llvm.emit_c_interface}
module {
  func.func @first() {
    call @helper() : () -> ()
    return
  }
  func.func private @helper() {
    return
  }
  func.func @second() {
    return
  }
}
