// TOSA shape operators must compute shapes known when compiling, and the
// shapes they compute must be the ones the ops that take them declare:
// otherwise an error at the op, and no output.

// RUN: rm -rf %t && mkdir -p %t && split-file %s %t
// RUN: %{expect-exit} 1 aot-compile %t/dynamic.mlir -o %t/d.o 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not ls %t/d.o
// DYNAMIC: dynamic.mlir:2:8: error: 'tosa.dim' op needs shapes known when compiling (constant shapes, static dims)
// RUN: %{expect-exit} 1 aot-compile %t/zero.mlir -o %t/z.o 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: zero.mlir:4:8: error: 'tosa.div_floor_shape' op needs shapes known when compiling {{.*}} with a defined result
// RUN: %{expect-exit} 1 aot-compile %t/mismatch.mlir -o %t/m.o 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: mismatch.mlir:4:8: error: 'tosa.reshape' op new shape is inconsistent with result shape

//--- dynamic.mlir
func.func @f(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %d = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %r = tosa.reshape %x, %d : (tensor<?x4xf32>, !tosa.shape<1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
//--- zero.mlir
func.func @f(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %a = tosa.const_shape {values = dense<[3, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q = tosa.div_floor_shape %a, %z : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %q : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
//--- mismatch.mlir
func.func @f(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %a = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.mul_shape %a, %a : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %b : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
