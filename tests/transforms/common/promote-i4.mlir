// RUN: aot-opt %s --split-input-file --verify-diagnostics --aot-promote-i4 | FileCheck %s

// Every i4 (function argument and result, tensor, vector, block argument,
// scalar) becomes an i8 holding the same value, sign-extended. Ops whose
// result may leave -8..7 are done on i8 and wrapped back (shift left then
// arithmetic shift right by 4); the unsigned ones first read the low four
// bits of their operands (and 15). Ops that mean the same on the widened
// values are only retyped. An arith op on i4 with no rule is an error.

// An addition in the body of an elementwise linalg.generic, as the TOSA
// lowering leaves it: i8 tensors and block arguments, the sum wrapped.
// CHECK-LABEL: func.func @add_in_generic
// CHECK-SAME:    (%[[A:.*]]: tensor<64xi8>, %[[B:.*]]: tensor<64xi8>) -> tensor<64xi8>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<64xi8>, tensor<64xi8>) outs(%[[A]] : tensor<64xi8>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %{{.*}}: i8):
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[X]], %[[Y]] : i8
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : i8
// CHECK-NEXT:      %[[HI:.*]] = arith.shli %[[S]], %[[C4]] : i8
// CHECK-NEXT:      %[[W:.*]] = arith.shrsi %[[HI]], %[[C4]] : i8
// CHECK-NEXT:      linalg.yield %[[W]] : i8
// CHECK-NEXT:    } -> tensor<64xi8>
// CHECK-NOT:     i4
#id = affine_map<(d0) -> (d0)>
func.func @add_in_generic(%a: tensor<64xi4>, %b: tensor<64xi4>) -> tensor<64xi4> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xi4>, tensor<64xi4>) outs(%a : tensor<64xi4>) {
  ^bb0(%x: i4, %y: i4, %o: i4):
    %s = arith.addi %x, %y : i4
    linalg.yield %s : i4
  } -> tensor<64xi4>
  return %r : tensor<64xi4>
}

// -----

// divui reads both operands as unsigned (low four bits) and wraps its
// result; remsi and cmpi ult give the same answer on the sign-extended
// values and are only retyped.
// CHECK-LABEL: func.func @unsigned_and_kept
// CHECK-SAME:    (%[[X:.*]]: i8, %[[Y:.*]]: i8) -> (i8, i8, i1)
// CHECK-NEXT:    %[[M0:.*]] = arith.constant 15 : i8
// CHECK-NEXT:    %[[XL:.*]] = arith.andi %[[X]], %[[M0]] : i8
// CHECK-NEXT:    %[[M1:.*]] = arith.constant 15 : i8
// CHECK-NEXT:    %[[YL:.*]] = arith.andi %[[Y]], %[[M1]] : i8
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %[[XL]], %[[YL]] : i8
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i8
// CHECK-NEXT:    %[[HI:.*]] = arith.shli %[[Q]], %[[C4]] : i8
// CHECK-NEXT:    %[[QW:.*]] = arith.shrsi %[[HI]], %[[C4]] : i8
// CHECK-NEXT:    %[[R:.*]] = arith.remsi %[[X]], %[[Y]] : i8
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi ult, %[[X]], %[[Y]] : i8
// CHECK-NEXT:    return %[[QW]], %[[R]], %[[LT]] : i8, i8, i1
func.func @unsigned_and_kept(%x: i4, %y: i4) -> (i4, i4, i1) {
  %q = arith.divui %x, %y : i4
  %r = arith.remsi %x, %y : i4
  %c = arith.cmpi ult, %x, %y : i4
  return %q, %r, %c : i4, i4, i1
}

// -----

// Conversions: extsi is the i8 value extended; extui extends its low bits
// (and to i8 is the low bits alone); trunci into i4 truncates to i8 and
// wraps, and from i8 is the wrap alone.
// CHECK-LABEL: func.func @conversions
// CHECK-SAME:    (%[[X:.*]]: i8, %[[W:.*]]: i32, %[[V:.*]]: i8) -> (i32, i32, i8, i8, i8)
// CHECK-NEXT:    %[[S:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:    %[[M0:.*]] = arith.constant 15 : i8
// CHECK-NEXT:    %[[L0:.*]] = arith.andi %[[X]], %[[M0]] : i8
// CHECK-NEXT:    %[[U:.*]] = arith.extui %[[L0]] : i8 to i32
// CHECK-NEXT:    %[[M1:.*]] = arith.constant 15 : i8
// CHECK-NEXT:    %[[U8:.*]] = arith.andi %[[X]], %[[M1]] : i8
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %[[W]] : i32 to i8
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i8
// CHECK-NEXT:    %[[T1:.*]] = arith.shli %[[T]], %[[C4]] : i8
// CHECK-NEXT:    %[[T2:.*]] = arith.shrsi %[[T1]], %[[C4]] : i8
// CHECK-NEXT:    %[[C4B:.*]] = arith.constant 4 : i8
// CHECK-NEXT:    %[[V1:.*]] = arith.shli %[[V]], %[[C4B]] : i8
// CHECK-NEXT:    %[[V2:.*]] = arith.shrsi %[[V1]], %[[C4B]] : i8
// CHECK-NEXT:    return %[[S]], %[[U]], %[[U8]], %[[T2]], %[[V2]] : i32, i32, i8, i8, i8
func.func @conversions(%x: i4, %w: i32, %v: i8) -> (i32, i32, i8, i4, i4) {
  %s = arith.extsi %x : i4 to i32
  %u = arith.extui %x : i4 to i32
  %u8 = arith.extui %x : i4 to i8
  %t = arith.trunci %w : i32 to i4
  %t8 = arith.trunci %v : i8 to i4
  return %s, %u, %u8, %t, %t8 : i32, i32, i8, i4, i4
}

// -----

// Conversions between i4 and narrower integers: extensions into i4 are the
// same extensions into i8; a trunci out of i4 takes the low bits of the i8
// value. Inside a linalg.generic, as tosa.cast of i1 to i4 leaves them.
// CHECK-LABEL: func.func @narrower
// CHECK-SAME:    (%[[B:.*]]: tensor<4xi1>, %[[H:.*]]: i2, %[[X:.*]]: i8) -> (tensor<4xi8>, i8, i2)
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i1, %[[OUT:.*]]: i8):
// CHECK-NEXT:      %[[E:.*]] = arith.extui %[[IN]] : i1 to i8
// CHECK-NEXT:      linalg.yield %[[E]] : i8
// CHECK:         %[[S:.*]] = arith.extsi %[[H]] : i2 to i8
// CHECK-NEXT:    %[[T:.*]] = arith.trunci %[[X]] : i8 to i2
// CHECK-NEXT:    return %{{.*}}, %[[S]], %[[T]] : tensor<4xi8>, i8, i2
func.func @narrower(%b: tensor<4xi1>, %h: i2, %x: i4) -> (tensor<4xi4>, i4, i2) {
  %e = tensor.empty() : tensor<4xi4>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%b : tensor<4xi1>) outs(%e : tensor<4xi4>) {
  ^bb0(%in: i1, %out: i4):
    %w = arith.extui %in : i1 to i4
    linalg.yield %w : i4
  } -> tensor<4xi4>
  %s = arith.extsi %h : i2 to i4
  %t = arith.trunci %x : i4 to i2
  return %r, %s, %t : tensor<4xi4>, i4, i2
}

// -----

// Constants keep their values, sign-extended: 15 as an i4 is -1. A splat
// stays a splat; a vector multiply wraps with a splat shift amount.
// CHECK-LABEL: func.func @constants_and_vectors
// CHECK-SAME:    (%[[V:.*]]: vector<8xi8>) -> (tensor<4xi8>, i8, vector<8xi8>)
// CHECK-NEXT:    %[[T:.*]] = arith.constant dense<[-8, 7, -1, -1]> : tensor<4xi8>
// CHECK-NEXT:    %[[S:.*]] = arith.constant -1 : i8
// CHECK-NEXT:    %[[SPLAT:.*]] = arith.constant dense<3> : vector<8xi8>
// CHECK-NEXT:    %[[P:.*]] = arith.muli %[[V]], %[[SPLAT]] : vector<8xi8>
// CHECK-NEXT:    %[[C4:.*]] = arith.constant dense<4> : vector<8xi8>
// CHECK-NEXT:    %[[P1:.*]] = arith.shli %[[P]], %[[C4]] : vector<8xi8>
// CHECK-NEXT:    %[[P2:.*]] = arith.shrsi %[[P1]], %[[C4]] : vector<8xi8>
// CHECK-NEXT:    return %[[T]], %[[S]], %[[P2]]
func.func @constants_and_vectors(%v: vector<8xi4>) -> (tensor<4xi4>, i4, vector<8xi4>) {
  %t = arith.constant dense<[-8, 7, -1, 15]> : tensor<4xi4>
  %s = arith.constant 15 : i4
  %three = arith.constant dense<3> : vector<8xi4>
  %p = arith.muli %v, %three : vector<8xi4>
  return %t, %s, %p : tensor<4xi4>, i4, vector<8xi4>
}

// -----

// Calls and the functions they call change signature together.
// CHECK-LABEL: func.func @callee
// CHECK-SAME:    (%[[A:.*]]: i8) -> i8
// CHECK-NEXT:    return %[[A]] : i8
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    (%[[A:.*]]: i8) -> i8
// CHECK-NEXT:    %[[R:.*]] = call @callee(%[[A]]) : (i8) -> i8
// CHECK-NEXT:    return %[[R]] : i8
func.func @callee(%a: i4) -> i4 {
  return %a : i4
}
func.func @caller(%a: i4) -> i4 {
  %r = call @callee(%a) : (i4) -> i4
  return %r : i4
}

// -----

// Without i4 nothing changes: an i8 sum is not wrapped.
// CHECK-LABEL: func.func @no_i4
// CHECK-SAME:    (%[[A:.*]]: i8, %[[B:.*]]: i8) -> i8
// CHECK-NEXT:    %[[S:.*]] = arith.addi %[[A]], %[[B]] : i8
// CHECK-NEXT:    return %[[S]] : i8
func.func @no_i4(%a: i8, %b: i8) -> i8 {
  %s = arith.addi %a, %b : i8
  return %s : i8
}

// -----

// An arith op this pass has no rule for is an error naming it.
func.func @unsupported(%a: i4, %b: i4) -> (i4, i4) {
  // expected-error @+1 {{'arith.mului_extended' on i4 values is not supported}}
  %l, %h = arith.mului_extended %a, %b : i4
  return %l, %h : i4, i4
}
