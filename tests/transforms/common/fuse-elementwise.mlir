// RUN: aot-opt %s --split-input-file --aot-fuse-elementwise | FileCheck %s

// Upstream elementwise fusion (a producer generic merged into its consumer,
// reshapes moved out by expanding the generic), except that a reshape is
// never folded into a contraction or convolution (the matmul stays a
// matmul), and a producer with several uses is fused into each of them
// only when it is a few arith ops on one full-size tensor. Into a contraction
// or convolution, only a producer of casts is fused (it stays one).

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// A bias add feeding a tanh: one generic computing both.

// CHECK-LABEL: func.func @chain
// CHECK-SAME:    (%[[X:.*]]: tensor<4x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[X]], %[[B]] : tensor<4x16xf32>, tensor<16xf32>)
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32, %[[W:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[V]], %[[W]] : f32
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[S]] : f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK:         return %[[R]]
// CHECK-NOT:     linalg.generic
func.func @chain(%x: tensor<4x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A collapse_shape read by a matmul stays outside it: still a 2-D matmul
// (upstream would make it a 4-loop linalg.generic on the 3-D input).

// CHECK-LABEL: func.func @collapse_into_matmul
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4x8xf32>, %[[W:.*]]: tensor<8x16xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
// CHECK:         %[[F:.*]] = linalg.fill
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%[[C]], %[[W]] : tensor<8x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<8x16xf32>)
// CHECK-NEXT:    return %[[M]]
func.func @collapse_into_matmul(%x: tensor<2x4x8xf32>, %w: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%c, %w : tensor<8x8xf32>, tensor<8x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// -----

// The same collapse read by an elementwise op is folded by expansion: the
// generic runs on the 3-D tensor and the collapse moves to its result.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @collapse_into_elementwise
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME:        ins(%[[X]] : tensor<2x4x8xf32>) outs(%{{.*}} : tensor<2x4x8xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
// CHECK-NEXT:    return %[[C]]
func.func @collapse_into_elementwise(%x: tensor<2x4x8xf32>) -> tensor<8x8xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.tanh %v : f32
    linalg.yield %t : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// x - mean, used twice, is cheap: computed again in each consumer, and the
// producer goes.

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @cheap_producer_two_uses
// CHECK-SAME:    (%[[X:.*]]: tensor<4x16xf32>, %[[M:.*]]: tensor<4xf32>)
// CHECK:         %[[SQ:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[M]] :
// CHECK:           %[[D1:.*]] = arith.subf
// CHECK-NEXT:      arith.mulf %[[D1]], %[[D1]] : f32
// CHECK:         %[[EX:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[M]] :
// CHECK:           %[[D2:.*]] = arith.subf
// CHECK-NEXT:      math.exp %[[D2]] : f32
// CHECK:         return %[[SQ]], %[[EX]]
func.func @cheap_producer_two_uses(%x: tensor<4x16xf32>, %m: tensor<4xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (i)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.subf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.mulf %v, %v : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.exp %v : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  return %sq, %ex : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// An exp (not plain arith) used twice is kept and read by both consumers;
// a matmul is never fused into the bias add that reads it.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
// CHECK-LABEL: func.func @left_alone
// CHECK:         %[[EXP:.*]] = linalg.generic
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      math.exp
// CHECK:         linalg.generic {{.*}} ins(%[[EXP]] : tensor<4x16xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[EXP]] : tensor<4x16xf32>)
// CHECK:         %[[MM:.*]] = linalg.matmul
// CHECK-NEXT:    linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<4x16xf32>, tensor<16xf32>)
func.func @left_alone(%x: tensor<4x16xf32>, %a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.mulf %v, %v : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  %db = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %v : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x16xf32>, tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %sq, %db, %r : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#e2 = affine_map<(i, j) -> (i, j)>

// A scaled operand of a matmul written as a generic (attention's scores):
// fused, the scaling would be computed again for every column of the
// result and the matmul no longer be one. It stays a producer of its own.
// CHECK-LABEL: func.func @arith_not_into_contraction
// CHECK:         %[[SCALED:.*]] = linalg.generic
// CHECK:           arith.divf
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%[[SCALED]], %{{.*}} : tensor<8x4xf32>, tensor<4x16xf32>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      linalg.yield
func.func @arith_not_into_contraction(%x: tensor<8x4xf32>, %y: tensor<4x16xf32>, %o: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %c8 = arith.constant 8.0 : f32
  %s = linalg.generic {indexing_maps = [#e2, #e2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%v: f32, %w: f32):
    %d = arith.divf %v, %c8 : f32
    linalg.yield %d : f32
  } -> tensor<8x4xf32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s, %y : tensor<8x4xf32>, tensor<4x16xf32>) outs(%o : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %t = arith.mulf %p, %q : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  } -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// -----

#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#e2 = affine_map<(i, j) -> (i, j)>

// A conversion is fused: the product still is a matmul, B converted from
// f16 as it is read.
// CHECK-LABEL: func.func @cast_into_contraction
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<4x16xf16>)
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @cast_into_contraction(%x: tensor<8x4xf32>, %y: tensor<4x16xf16>, %o: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %w = linalg.generic {indexing_maps = [#e2, #e2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x16xf16>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f16, %z: f32):
    %d = arith.extf %v : f16 to f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<8x4xf32>, tensor<4x16xf32>) outs(%o : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %t = arith.mulf %p, %q : f32
    %u = arith.addf %acc, %t : f32
    linalg.yield %u : f32
  } -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}
