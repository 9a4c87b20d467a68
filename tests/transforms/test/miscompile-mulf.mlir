// RUN: aot-opt %s --split-input-file --aot-test-miscompile-mulf | FileCheck %s

// Test only: a deliberately wrong pattern (aot-test-mulf-to-addf) turns every
// arith.mulf into an arith.addf of the same operands, so that the action
// bisection has a known miscompile to find. Nothing else is touched.

// A scalar product becomes a sum of the same operands, in the same order.
// CHECK-LABEL: func.func @scalar
// CHECK-SAME:    (%[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    return %[[S]] : f32
func.func @scalar(%a: f32, %b: f32) -> f32 {
  %p = arith.mulf %a, %b : f32
  return %p : f32
}

// -----

// Vectors of f16, and a product that feeds another: both rewritten.
// CHECK-LABEL: func.func @vector_chain
// CHECK-SAME:    (%[[A:.*]]: vector<8xf16>, %[[B:.*]]: vector<8xf16>)
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[A]], %[[B]] : vector<8xf16>
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[S0]], %[[A]] : vector<8xf16>
// CHECK-NEXT:    return %[[S1]]
func.func @vector_chain(%a: vector<8xf16>, %b: vector<8xf16>) -> vector<8xf16> {
  %p = arith.mulf %a, %b : vector<8xf16>
  %q = arith.mulf %p, %a : vector<8xf16>
  return %q : vector<8xf16>
}

// -----

// The product in the body of a linalg.generic is rewritten too (the pattern
// applies to every nested region of the function).
// CHECK-LABEL: func.func @in_generic
// CHECK:         linalg.generic
// CHECK:         ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
#id = affine_map<(d0) -> (d0)>
func.func @in_generic(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Integer products and the other float ops are left alone.
// CHECK-LABEL: func.func @others_untouched
// CHECK-SAME:    (%[[A:.*]]: f32, %[[B:.*]]: f32, %[[I:.*]]: i32, %[[J:.*]]: i32)
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[I]], %[[J]] : i32
// CHECK-NEXT:    %[[D:.*]] = arith.divf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.subf %[[D]], %[[B]] : f32
// CHECK-NEXT:    return %[[S]], %[[M]] : f32, i32
func.func @others_untouched(%a: f32, %b: f32, %i: i32, %j: i32) -> (f32, i32) {
  %m = arith.muli %i, %j : i32
  %d = arith.divf %a, %b : f32
  %s = arith.subf %d, %b : f32
  return %s, %m : f32, i32
}
