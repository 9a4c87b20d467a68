// RUN: aot-opt %s --split-input-file --verify-diagnostics --aot-fold-tosa-shapes | FileCheck %s

// TOSA's shape operators (tosa.dim, concat_shape, slice_shape and the
// elementwise *_shape ops) are replaced, in order, by the tosa.const_shape of
// the value they compute, so that the TOSA lowerings only see constant
// shapes. The folded operands are left behind for a later canonicalize. A
// shape that cannot be known when compiling, or has no defined value, is an
// error at the op; so is a user of a folded shape that no longer verifies.

// The dims of a static tensor, multiplied and concatenated, become the
// constant [6, 4] that the reshape reads; no shape operator is left.
// CHECK-LABEL: func.func @dims_to_reshape
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NOT:     tosa.dim
// CHECK-NOT:     tosa.mul_shape
// CHECK-NOT:     tosa.concat_shape
// CHECK:         %[[S:.*]] = tosa.const_shape {values = dense<[6, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[X]], %[[S]] : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @dims_to_reshape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %d1 = tosa.dim %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %d2 = tosa.dim %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %m = tosa.mul_shape %d0, %d1 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %s = tosa.concat_shape %m, %d2 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

// Divisions round as their names say, also for negative values (floor
// towards -inf, ceil towards +inf); mod keeps the dividend's sign.
// CHECK-LABEL: func.func @signed_divisions
// CHECK-DAG:     %[[F:.*]] = tosa.const_shape {values = dense<[-4, -4, 2]> : tensor<3xindex>}
// CHECK-DAG:     %[[C:.*]] = tosa.const_shape {values = dense<[-3, -3, 3]> : tensor<3xindex>}
// CHECK-DAG:     %[[M:.*]] = tosa.const_shape {values = dense<[-1, 1, 2]> : tensor<3xindex>}
// CHECK:         return %[[F]], %[[C]], %[[M]]
func.func @signed_divisions() -> (!tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>) {
  %a = tosa.const_shape {values = dense<[-7, 7, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %b = tosa.const_shape {values = dense<[2, -2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f = tosa.div_floor_shape %a, %b : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %c = tosa.div_ceil_shape %a, %b : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  %m = tosa.mod_shape %a, %b : (!tosa.shape<3>, !tosa.shape<3>) -> !tosa.shape<3>
  return %f, %c, %m : !tosa.shape<3>, !tosa.shape<3>, !tosa.shape<3>
}

// -----

// The unary ops at and around powers of two: log2_ceil and log2_floor agree
// only on exact powers; exp2 reads the value log2_floor folded to.
// CHECK-LABEL: func.func @logs_and_exp2
// CHECK-DAG:     %[[C:.*]] = tosa.const_shape {values = dense<[0, 3, 3, 5]> : tensor<4xindex>}
// CHECK-DAG:     %[[F:.*]] = tosa.const_shape {values = dense<[0, 2, 3, 4]> : tensor<4xindex>}
// CHECK-DAG:     %[[E:.*]] = tosa.const_shape {values = dense<[1, 4, 8, 16]> : tensor<4xindex>}
// CHECK:         return %[[C]], %[[F]], %[[E]]
func.func @logs_and_exp2() -> (!tosa.shape<4>, !tosa.shape<4>, !tosa.shape<4>) {
  %a = tosa.const_shape {values = dense<[1, 5, 8, 17]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c = tosa.log2_ceil_shape %a : (!tosa.shape<4>) -> !tosa.shape<4>
  %f = tosa.log2_floor_shape %a : (!tosa.shape<4>) -> !tosa.shape<4>
  %e = tosa.exp2_shape %f : (!tosa.shape<4>) -> !tosa.shape<4>
  return %c, %f, %e : !tosa.shape<4>, !tosa.shape<4>, !tosa.shape<4>
}

// -----

// slice_shape takes its start and size from tosa.const tensors: elements 1
// and 2 of [9, 5, 23, 7].
// CHECK-LABEL: func.func @slice
// CHECK:         %[[S:.*]] = tosa.const_shape {values = dense<[5, 23]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    return %[[S]]
func.func @slice() -> !tosa.shape<2> {
  %s = tosa.const_shape {values = dense<[9, 5, 23, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %two = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sl = tosa.slice_shape %s, %one, %two : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  return %sl : !tosa.shape<2>
}

// -----

// A reshape whose shape is already constant is left as it is.
// CHECK-LABEL: func.func @already_constant
// CHECK-SAME:    (%[[X:.*]]: tensor<2x6xf32>)
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {values = dense<[3, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[X]], %[[S]]
// CHECK-NEXT:    return %[[R]]
func.func @already_constant(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %s = tosa.const_shape {values = dense<[3, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %x, %s : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// A dynamic dim is not known when compiling.
func.func @dynamic_dim(%x: tensor<?x4xf32>) -> !tosa.shape<1> {
  // expected-error @+1 {{'tosa.dim' op needs shapes known when compiling}}
  %d = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  return %d : !tosa.shape<1>
}

// -----

// A zero divisor in any element leaves the result undefined.
func.func @zero_divisor() -> !tosa.shape<2> {
  %a = tosa.const_shape {values = dense<[4, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[2, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.div_floor_shape' op needs shapes known when compiling}}
  %f = tosa.div_floor_shape %a, %b : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  return %f : !tosa.shape<2>
}

// -----

// Once folded to [2, 4], the shape contradicts the reshape's result type:
// the reshape, verified again, is the error.
func.func @wrong_reshape(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %d2 = tosa.dim %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %s = tosa.concat_shape %d0, %d2 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.reshape' op new shape is inconsistent with result shape}}
  %r = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
