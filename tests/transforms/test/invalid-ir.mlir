// RUN: aot-opt %s --split-input-file --verify-diagnostics --aot-test-invalid-ir | FileCheck %s

// Test only: drops the operands of every func.return, so that a function
// with results is left invalid and the verifier after the pass rejects it
// (this is what the compiler's stage checks and --verify-each are tested on).

// A function with one result: its return loses the value, which the verifier
// reports at the return.
func.func @one_result(%x: f32) -> f32 {
  // expected-error @+1 {{'func.return' op has 0 operands, but enclosing function (@one_result) returns 1}}
  return %x : f32
}

// -----

// With several results and several returns, the first return in the body
// is the one the verifier reports.
func.func @two_returns(%c: i1, %x: i32, %y: tensor<4xf32>) -> (i32, tensor<4xf32>) {
  cf.cond_br %c, ^a, ^b
^a:
  // expected-error @+1 {{'func.return' op has 0 operands, but enclosing function (@two_returns) returns 2}}
  return %x, %y : i32, tensor<4xf32>
^b:
  return %x, %y : i32, tensor<4xf32>
}

// -----

// A function without results has nothing to lose: it stays valid and is
// printed unchanged.
// CHECK-LABEL: func.func @no_result
// CHECK-SAME:    (%[[M:.*]]: memref<4xf32>, %[[V:.*]]: f32)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[V]], %[[M]][%[[C]]] : memref<4xf32>
// CHECK-NEXT:    return{{$}}
func.func @no_result(%m: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0] : memref<4xf32>
  return
}
