// TOSA's shape operators, each computing the shape a tosa.reshape takes:
// they are folded into constant shapes before the TOSA lowerings
// (aot-fold-tosa-shapes), and each reshape is checked against numpy.

func.func @shapes(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x6xf32>, tensor<24xf32>, tensor<3x8xf32>, tensor<2x12xf32>, tensor<12x2xf32>) {
  %s32 = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s22 = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s14 = tosa.const_shape {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s3 = tosa.const_shape {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
  // dim(x, 0) * dim(x, 1) ++ dim(x, 2) = [6, 4]
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %d1 = tosa.dim %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %d2 = tosa.dim %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> !tosa.shape<1>
  %d01 = tosa.mul_shape %d0, %d1 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %a = tosa.concat_shape %d01, %d2 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r0 = tosa.reshape %x, %a : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  // [1, 4] + [3, 2] = [4, 6]
  %b = tosa.add_shape %s14, %s32 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %r1 = tosa.reshape %x, %b : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  // [3] * exp2([3]) = [24]
  %e = tosa.exp2_shape %s3 : (!tosa.shape<1>) -> !tosa.shape<1>
  %c = tosa.mul_shape %s3, %e : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %r2 = tosa.reshape %x, %c : (tensor<2x3x4xf32>, !tosa.shape<1>) -> tensor<24xf32>
  // max([10, 9] - [7, 1], min([2, 2], [3, 8])) = [3, 8]
  %s109 = tosa.const_shape {values = dense<[10, 9]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s71 = tosa.const_shape {values = dense<[7, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s38 = tosa.const_shape {values = dense<[3, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sub = tosa.sub_shape %s109, %s71 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %min = tosa.min_shape %s22, %s38 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %d = tosa.max_shape %sub, %min : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %r3 = tosa.reshape %x, %d : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<3x8xf32>
  // slice([9, 5, 23, 7], 1, 2) = [5, 23]; [5, 23] /ceil [2, 2] = [3, 12];
  // [3, 12] /floor [2, 1] = [1, 12]; * [2, 1] = [2, 12]
  %s9 = tosa.const_shape {values = dense<[9, 5, 23, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %two = "tosa.const"() <{values = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sl = tosa.slice_shape %s9, %one, %two : (!tosa.shape<4>, tensor<1xi32>, tensor<1xi32>) -> !tosa.shape<2>
  %ce = tosa.div_ceil_shape %sl, %s22 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %s21 = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %fl = tosa.div_floor_shape %ce, %s21 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %f = tosa.mul_shape %fl, %s21 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %r4 = tosa.reshape %x, %f : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<2x12xf32>
  // [12, 8] mod [13, 3] = [12, 2]
  %s128 = tosa.const_shape {values = dense<[12, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s133 = tosa.const_shape {values = dense<[13, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m = tosa.mod_shape %s128, %s133 : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<2>
  %r5 = tosa.reshape %x, %m : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<12x2xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<6x4xf32>, tensor<4x6xf32>, tensor<24xf32>, tensor<3x8xf32>, tensor<2x12xf32>, tensor<12x2xf32>
}

// log2_ceil([5]) ++ log2_floor([17]) = [3, 4]: the shape of the result.
func.func @logs(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %s5 = tosa.const_shape {values = dense<5> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s17 = tosa.const_shape {values = dense<17> : tensor<1xindex>} : () -> !tosa.shape<1>
  %c = tosa.log2_ceil_shape %s5 : (!tosa.shape<1>) -> !tosa.shape<1>
  %f = tosa.log2_floor_shape %s17 : (!tosa.shape<1>) -> !tosa.shape<1>
  %s = tosa.concat_shape %c, %f : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %s : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
