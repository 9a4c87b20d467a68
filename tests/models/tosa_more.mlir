// TOSA ops not covered by the other models: integer bitwise ops and
// shifts, count leading zeros, integer division, float rounding and
// transcendental ops, comparisons, logical ops on i1, more reductions,
// reverse, tile, gather and identity.
func.func @int_ops(%a: tensor<4x16xi32>, %b: tensor<4x16xi32>, %s: tensor<4x16xi32>)
    -> (tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>) {
  %and = tosa.bitwise_and %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  %or = tosa.bitwise_or %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  %xor = tosa.bitwise_xor %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  %not = tosa.bitwise_not %a : (tensor<4x16xi32>) -> tensor<4x16xi32>
  %ars = tosa.arithmetic_right_shift %a, %s {round = false} : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  %lls = tosa.logical_left_shift %a, %s : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  %lrs = tosa.logical_right_shift %a, %s : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  %clz = tosa.clz %a : (tensor<4x16xi32>) -> tensor<4x16xi32>
  %div = tosa.intdiv %a, %b : (tensor<4x16xi32>, tensor<4x16xi32>) -> tensor<4x16xi32>
  return %and, %or, %xor, %not, %ars, %lls, %lrs, %clz, %div : tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>, tensor<4x16xi32>
}

func.func @float_ops(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>, %p: tensor<4x16xf32>)
    -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %ceil = tosa.ceil %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %floor = tosa.floor %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %cos = tosa.cos %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %sin = tosa.sin %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %erf = tosa.erf %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %log = tosa.log %p : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %pow = tosa.pow %p, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %max = tosa.maximum %x, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %min = tosa.minimum %x, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %neg = tosa.negate %x, %zp, %zp : (tensor<4x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16xf32>
  return %ceil, %floor, %cos, %sin, %erf, %log, %pow, %max, %min, %neg : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}

func.func @compare_logic(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>, %p: tensor<4x16xi1>, %q: tensor<4x16xi1>)
    -> (tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x1xi1>, tensor<1x16xi1>) {
  %eq = tosa.equal %x, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xi1>
  %ge = tosa.greater_equal %x, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xi1>
  %and = tosa.logical_and %p, %q : (tensor<4x16xi1>, tensor<4x16xi1>) -> tensor<4x16xi1>
  %or = tosa.logical_or %p, %q : (tensor<4x16xi1>, tensor<4x16xi1>) -> tensor<4x16xi1>
  %xor = tosa.logical_xor %p, %q : (tensor<4x16xi1>, tensor<4x16xi1>) -> tensor<4x16xi1>
  %all = tosa.reduce_all %p {axis = 1 : i32} : (tensor<4x16xi1>) -> tensor<4x1xi1>
  %any = tosa.reduce_any %p {axis = 0 : i32} : (tensor<4x16xi1>) -> tensor<1x16xi1>
  return %eq, %ge, %and, %or, %xor, %all, %any : tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x16xi1>, tensor<4x1xi1>, tensor<1x16xi1>
}

func.func @reductions(%x: tensor<4x16xf32>) -> (tensor<4x1xf32>, tensor<1x16xf32>) {
  %min = tosa.reduce_min %x {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %prod = tosa.reduce_product %x {axis = 0 : i32} : (tensor<4x16xf32>) -> tensor<1x16xf32>
  return %min, %prod : tensor<4x1xf32>, tensor<1x16xf32>
}

func.func @data_movement(%x: tensor<4x16xf32>, %v: tensor<2x8x3xf32>, %i: tensor<2x5xi32>)
    -> (tensor<4x16xf32>, tensor<8x48xf32>, tensor<2x5x3xf32>, tensor<4x16xf32>) {
  %rev = tosa.reverse %x {axis = 1 : i32} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %tile = tosa.tile %x, %m : (tensor<4x16xf32>, !tosa.shape<2>) -> tensor<8x48xf32>
  %gather = tosa.gather %v, %i : (tensor<2x8x3xf32>, tensor<2x5xi32>) -> tensor<2x5x3xf32>
  %id = tosa.identity %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %rev, %tile, %gather, %id : tensor<4x16xf32>, tensor<8x48xf32>, tensor<2x5x3xf32>, tensor<4x16xf32>
}
