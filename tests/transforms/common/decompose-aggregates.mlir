// RUN: aot-opt %s --split-input-file --aot-decompose-aggregates | FileCheck %s

// Ops that have no lowering of their own become the ops they are made of:
// linalg.softmax a max reduction, an exp, a sum and a division;
// tensor.bitcast an elementwise generic; a tensor.reshape between static
// shapes a collapse_shape to one dim and an expand_shape; linalg.pack a pad,
// an expand_shape and a transpose, linalg.unpack the way back.

// Softmax along dim 1 of 5x37: the row max (from NaN, the identity of
// maxnumf), exp(x - max), the row sum and the quotient.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<5x37xf32>)
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<5x37xf32>
// CHECK-NEXT:    %[[ROW:.*]] = tensor.empty() : tensor<5xf32>
// CHECK-NEXT:    %[[NAN:.*]] = arith.constant 0xFFC00000 : f32
// CHECK-NEXT:    %[[MAX0:.*]] = linalg.fill ins(%[[NAN]] : f32) outs(%[[ROW]] : tensor<5xf32>)
// CHECK-NEXT:    %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<5x37xf32>) outs(%[[MAX0]] : tensor<5xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[MAX]] : tensor<5x37xf32>, tensor<5xf32>) outs(%[[OUT]] : tensor<5x37xf32>)
// CHECK:           arith.subf
// CHECK-NEXT:      math.exp
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[SUM0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[ROW]] : tensor<5xf32>)
// CHECK-NEXT:    %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<5x37xf32>) outs(%[[SUM0]] : tensor<5xf32>)
// CHECK:           arith.addf
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<5x37xf32>, tensor<5xf32>) outs(%[[OUT]] : tensor<5x37xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[R]]
func.func @softmax_rows(%x: tensor<5x37xf32>) -> tensor<5x37xf32> {
  %e = tensor.empty() : tensor<5x37xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<5x37xf32>) outs(%e : tensor<5x37xf32>) -> tensor<5x37xf32>
  return %r : tensor<5x37xf32>
}

// -----

// A bitcast of a dynamic tensor: an elementwise generic into an empty tensor
// of the source's dynamic size.
// CHECK-LABEL: func.func @bitcast_dynamic
// CHECK-SAME:    (%[[X:.*]]: tensor<?x4xi32>)
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x4xi32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<?x4xi32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT:      %[[B:.*]] = arith.bitcast %[[IN]] : i32 to f32
// CHECK-NEXT:      linalg.yield %[[B]] : f32
// CHECK:         return %[[G]]
func.func @bitcast_dynamic(%x: tensor<?x4xi32>) -> tensor<?x4xf32> {
  %r = tensor.bitcast %x : tensor<?x4xi32> to tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// Static reshapes go through one dim and do not read their shape operand: a
// collapse only when the source has several dims, an expand only when the
// result has. A reshape with dynamic sizes is left alone.
// CHECK-LABEL: func.func @reshapes
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>, %[[Y:.*]]: tensor<24xf32>, %[[D:.*]]: tensor<?xf32>, %[[S:.*]]: tensor<2xindex>, %[[S1:.*]]: tensor<1xindex>)
// CHECK-NEXT:    %[[F0:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT:    %[[A:.*]] = tensor.expand_shape %[[F0]] {{\[\[}}0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
// CHECK-NEXT:    %[[B:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT:    %[[C:.*]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.reshape %[[D]](%[[S]]) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]], %[[E]]
func.func @reshapes(%x: tensor<2x3x4xf32>, %y: tensor<24xf32>, %d: tensor<?xf32>, %s: tensor<2xindex>, %s1: tensor<1xindex>)
    -> (tensor<6x4xf32>, tensor<24xf32>, tensor<4x6xf32>, tensor<?x?xf32>) {
  %a = tensor.reshape %x(%s) : (tensor<2x3x4xf32>, tensor<2xindex>) -> tensor<6x4xf32>
  %b = tensor.reshape %x(%s1) : (tensor<2x3x4xf32>, tensor<1xindex>) -> tensor<24xf32>
  %c = tensor.reshape %y(%s) : (tensor<24xf32>, tensor<2xindex>) -> tensor<4x6xf32>
  %e = tensor.reshape %d(%s) : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %a, %b, %c, %e : tensor<6x4xf32>, tensor<24xf32>, tensor<4x6xf32>, tensor<?x?xf32>
}

// -----

// Packing 13 rows into tiles of 8: padded with the padding value up to 16
// rows, split into 2x8 by 8x1 and the tile dims moved inwards.
// CHECK-LABEL: func.func @pack_padded
// CHECK-SAME:    (%[[X:.*]]: tensor<13x8xf32>)
// CHECK:         %[[PV:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x8x8x1xf32>
// CHECK-NEXT:    %[[P:.*]] = tensor.pad %[[X]] low[0, 0] high[3, 0]
// CHECK:           tensor.yield %[[PV]] : f32
// CHECK-NEXT:    } : tensor<13x8xf32> to tensor<16x8xf32>
// CHECK-NEXT:    %[[X4:.*]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 8, 8, 1] : tensor<16x8xf32> into tensor<2x8x8x1xf32>
// CHECK-NEXT:    %[[T:.*]] = linalg.transpose ins(%[[X4]] : tensor<2x8x8x1xf32>) outs(%[[E]] : tensor<2x8x8x1xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT:    return %[[T]]
func.func @pack_padded(%x: tensor<13x8xf32>) -> tensor<2x8x8x1xf32> {
  %pad = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x8x8x1xf32>
  %r = linalg.pack %x padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %e : tensor<13x8xf32> -> tensor<2x8x8x1xf32>
  return %r : tensor<2x8x8x1xf32>
}

// -----

// Unpacking back to 13 rows: the transpose, the merge of the tile dims, and
// the slice that drops the 3 padded rows, copied into the destination.
// CHECK-LABEL: func.func @unpack_sliced
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8x8x1xf32>)
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<13x8xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x8x8x1xf32>
// CHECK-NEXT:    %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<2x8x8x1xf32>) outs(%[[E]] : tensor<2x8x8x1xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0, 1], [2, 3]] : tensor<2x8x8x1xf32> into tensor<16x8xf32>
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[C]][0, 0] [13, 8] [1, 1] : tensor<16x8xf32> to tensor<13x8xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.copy ins(%[[S]] : tensor<13x8xf32>) outs(%[[DEST]] : tensor<13x8xf32>)
// CHECK-NEXT:    return %[[R]]
func.func @unpack_sliced(%x: tensor<2x8x8x1xf32>) -> tensor<13x8xf32> {
  %e = tensor.empty() : tensor<13x8xf32>
  %r = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %e : tensor<2x8x8x1xf32> -> tensor<13x8xf32>
  return %r : tensor<13x8xf32>
}

// -----

// Ops that are not aggregates, such as a matmul, are left alone.
// CHECK-LABEL: func.func @matmul_untouched
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x2xf32>, %[[C:.*]]: tensor<4x2xf32>)
// CHECK-NEXT:    %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x2xf32>) outs(%[[C]] : tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    return %[[R]]
func.func @matmul_untouched(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
