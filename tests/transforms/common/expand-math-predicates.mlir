// RUN: aot-opt %s --split-input-file --aot-expand-math-predicates | FileCheck %s

// math.isinf and math.isnormal have no lowering to LLVM, so they become
// ordered comparisons of the absolute value: isinf(x) is |x| == inf, and
// isnormal(x) is |x| >= the smallest normal number && |x| < inf. The
// constants are splats of the operand's type. isnan and isfinite, which do
// have a lowering, are kept.

// isinf in the body of an elementwise linalg.generic, as the conversion of
// tensor math to linalg leaves it: |x| == +inf (the constant is hoisted out
// of the body by the rewrite driver).
// CHECK-LABEL: func.func @isinf_in_generic
// CHECK:         %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: i1):
// CHECK-NEXT:      %[[ABS:.*]] = math.absf %[[IN]] : f32
// CHECK-NEXT:      %[[EQ:.*]] = arith.cmpf oeq, %[[ABS]], %[[INF]] : f32
// CHECK-NEXT:      linalg.yield %[[EQ]] : i1
#id = affine_map<(d0) -> (d0)>
func.func @isinf_in_generic(%x: tensor<64xf32>) -> tensor<64xi1> {
  %e = tensor.empty() : tensor<64xi1>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xi1>) {
  ^bb0(%in: f32, %out: i1):
    %b = math.isinf %in : f32
    linalg.yield %b : i1
  } -> tensor<64xi1>
  return %r : tensor<64xi1>
}

// -----

// isnormal on an f32 scalar: at least FLT_MIN, below inf, both ordered.
// CHECK-LABEL: func.func @isnormal_f32
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK-DAG:     %[[MIN:.*]] = arith.constant 1.17549435E-38 : f32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpf oge, %[[ABS]], %[[MIN]] : f32
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : f32
// CHECK-NEXT:    %[[AND:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT:    return %[[AND]] : i1
func.func @isnormal_f32(%x: f32) -> i1 {
  %b = math.isnormal %x : f32
  return %b : i1
}

// -----

// On a vector of f16 the bounds are f16's own (2^-14 and its infinity),
// as splat vector constants, and the result is a vector of i1.
// CHECK-LABEL: func.func @isnormal_vector_f16
// CHECK-SAME:    (%[[X:.*]]: vector<4xf16>)
// CHECK-DAG:     %[[MIN:.*]] = arith.constant dense<6.103520e-05> : vector<4xf16>
// CHECK-DAG:     %[[INF:.*]] = arith.constant dense<0x7C00> : vector<4xf16>
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : vector<4xf16>
// CHECK-NEXT:    %[[GE:.*]] = arith.cmpf oge, %[[ABS]], %[[MIN]] : vector<4xf16>
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %[[ABS]], %[[INF]] : vector<4xf16>
// CHECK-NEXT:    arith.andi %[[GE]], %[[LT]] : vector<4xi1>
func.func @isnormal_vector_f16(%x: vector<4xf16>) -> vector<4xi1> {
  %b = math.isnormal %x : vector<4xf16>
  return %b : vector<4xi1>
}

// -----

// isinf on a tensor of f64 compares with a splat tensor of f64's infinity.
// CHECK-LABEL: func.func @isinf_tensor_f64
// CHECK-SAME:    (%[[X:.*]]: tensor<3xf64>)
// CHECK:         %[[INF:.*]] = arith.constant dense<0x7FF0000000000000> : tensor<3xf64>
// CHECK:         %[[ABS:.*]] = math.absf %[[X]] : tensor<3xf64>
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpf oeq, %[[ABS]], %[[INF]] : tensor<3xf64>
// CHECK-NEXT:    return %[[EQ]] : tensor<3xi1>
func.func @isinf_tensor_f64(%x: tensor<3xf64>) -> tensor<3xi1> {
  %b = math.isinf %x : tensor<3xf64>
  return %b : tensor<3xi1>
}

// -----

// isnan and isfinite are left as they are: no constants, no comparisons.
// CHECK-LABEL: func.func @others_untouched
// CHECK-SAME:    (%[[X:.*]]: f32)
// CHECK-NEXT:    %[[NAN:.*]] = math.isnan %[[X]] : f32
// CHECK-NEXT:    %[[FIN:.*]] = math.isfinite %[[X]] : f32
// CHECK-NEXT:    return %[[NAN]], %[[FIN]] : i1, i1
func.func @others_untouched(%x: f32) -> (i1, i1) {
  %a = math.isnan %x : f32
  %b = math.isfinite %x : f32
  return %a, %b : i1, i1
}
