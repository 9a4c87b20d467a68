// RUN: aot-opt %s --split-input-file --aot-accumulate-half-in-f32 | FileCheck %s

// A float multiply-add contraction on tensors whose accumulator is f16 or
// bf16 becomes: its init widened to f32 by an elementwise generic, a
// linalg.contract with the same inputs and indexing maps accumulating into
// that f32 tensor, and one elementwise truncf of the result back into the
// original init. Contractions that already accumulate in f32, and
// reductions that are not a multiply-add, are left alone.

// A named f16 matmul from a zero fill.

// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_f16
// CHECK-SAME:    (%[[LHS:.*]]: tensor<4x8xf16>, %[[RHS:.*]]: tensor<8x16xf16>)
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<4x16xf16>)
// CHECK-NEXT:    %[[E32:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[FILL]] : tensor<4x16xf16>) outs(%[[E32]] : tensor<4x16xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT:      %[[EXT:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:      linalg.yield %[[EXT]] : f32
// CHECK:         %[[SUM:.*]] = linalg.contract indexing_maps = [#[[A]], #[[B]], #[[C]]]
// CHECK-SAME:        ins(%[[LHS]], %[[RHS]] : tensor<4x8xf16>, tensor<8x16xf16>) outs(%[[WIDE]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[OUT:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<4x16xf32>) outs(%[[FILL]] : tensor<4x16xf16>)
// CHECK-NEXT:    ^bb0(%[[IN2:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:      %[[TR:.*]] = arith.truncf %[[IN2]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[TR]] : f16
// CHECK:         return %[[OUT]] : tensor<4x16xf16>
// CHECK-NOT:     linalg.matmul
func.func @matmul_f16(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>) -> tensor<4x16xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<4x16xf16>) -> tensor<4x16xf16>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%f : tensor<4x16xf16>) -> tensor<4x16xf16>
  return %m : tensor<4x16xf16>
}

// -----

// A bf16 batch matmul with a dynamic dim: the f32 accumulator takes its
// size from the init with tensor.dim.

// CHECK-LABEL: func.func @batch_matmul_bf16_dynamic
// CHECK-SAME:    (%[[LHS:.*]]: tensor<2x?x8xbf16>, %[[RHS:.*]]: tensor<2x8x16xbf16>, %[[INIT:.*]]: tensor<2x?x16xbf16>)
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[DIM:.*]] = tensor.dim %[[INIT]], %[[C1]] : tensor<2x?x16xbf16>
// CHECK-NEXT:    %[[E32:.*]] = tensor.empty(%[[DIM]]) : tensor<2x?x16xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[INIT]] : tensor<2x?x16xbf16>) outs(%[[E32]] : tensor<2x?x16xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:         %[[SUM:.*]] = linalg.contract
// CHECK-SAME:        ins(%[[LHS]], %[[RHS]] : tensor<2x?x8xbf16>, tensor<2x8x16xbf16>) outs(%[[WIDE]] : tensor<2x?x16xf32>)
// CHECK-NEXT:    %[[OUT:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[SUM]] : tensor<2x?x16xf32>) outs(%[[INIT]] : tensor<2x?x16xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         return %[[OUT]]
func.func @batch_matmul_bf16_dynamic(%a: tensor<2x?x8xbf16>, %b: tensor<2x8x16xbf16>, %c: tensor<2x?x16xbf16>) -> tensor<2x?x16xbf16> {
  %m = linalg.batch_matmul ins(%a, %b : tensor<2x?x8xbf16>, tensor<2x8x16xbf16>) outs(%c : tensor<2x?x16xbf16>) -> tensor<2x?x16xbf16>
  return %m : tensor<2x?x16xbf16>
}

// -----

// A linalg.generic multiply-add with B transposed keeps its indexing maps
// on the linalg.contract.

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @generic_transposed_b
// CHECK-SAME:    (%[[LHS:.*]]: tensor<4x8xf16>, %[[RHS:.*]]: tensor<16x8xf16>, %[[INIT:.*]]: tensor<4x16xf16>)
// CHECK:         linalg.contract indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[LHS]], %[[RHS]] : tensor<4x8xf16>, tensor<16x8xf16>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK-NOT:     arith.mulf
func.func @generic_transposed_b(%a: tensor<4x8xf16>, %b: tensor<16x8xf16>, %c: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x8xf16>, tensor<16x8xf16>) outs(%c : tensor<4x16xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}

// -----

// Half inputs accumulated in f32 already: nothing to do.

// CHECK-LABEL: func.func @f32_accumulator
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[M]]
func.func @f32_accumulator(%a: tensor<4x8xf16>, %b: tensor<8x16xf16>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x16xf16>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %m : tensor<4x16xf32>
}

// -----

// A half reduction that is not a multiply-add (max-plus) is left alone.

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @max_plus
// CHECK-NEXT:    linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<4x16xf16>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.addf %{{.*}}, %{{.*}} : f16
// CHECK-NEXT:      arith.maximumf %{{.*}}, %{{.*}} : f16
// CHECK-NOT:     linalg.contract
// CHECK-NOT:     arith.extf
func.func @max_plus(%a: tensor<4x8xf16>, %b: tensor<16x8xf16>, %c: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %r = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x8xf16>, tensor<16x8xf16>) outs(%c : tensor<4x16xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.addf %x, %y : f16
    %s = arith.maximumf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<4x16xf16>
  return %r : tensor<4x16xf16>
}
