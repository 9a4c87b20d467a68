// TOSA control flow (tosa.cond_if, tosa.while_loop; lowered by tosa-to-scf)
// and the requantization every int8 TOSA model has (tosa.rescale with
// per-channel multipliers and double rounding; tosa.apply_scale lowered by
// tosa-to-arith).
// Both branches run: once on %p, once on its negation.
func.func @select_branch(%p: tensor<i1>, %x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %r = call @branch(%p, %x, %y) : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = tosa.logical_not %p : (tensor<i1>) -> tensor<i1>
  %s = call @branch(%q, %x, %y) : (tensor<i1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func private @branch(%p: tensor<i1>, %x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tosa.cond_if %p (%a = %x, %b = %y) : tensor<i1> (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %s = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    tosa.yield %s : tensor<4x8xf32>
  } else {
  ^bb0(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>):
    %s = tosa.sub %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    tosa.yield %s : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// Doubles %x while the counter is below %n: x * 2^max(n, 0).
func.func @double_n_times(%n: tensor<i32>, %x: tensor<16xf32>) -> tensor<16xf32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = tosa.while_loop (%i = %zero, %acc = %x) : (tensor<i32>, tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
    %c = tosa.greater %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %acc: tensor<16xf32>):
    %i2 = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %acc2 = tosa.add %acc, %acc : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    tosa.yield %i2, %acc2 : tensor<i32>, tensor<16xf32>
  }
  return %r#1 : tensor<16xf32>
}

// i32 accumulators to i8, per channel: multipliers and shifts as a
// quantizer makes them (shifts 20..40, both sides of 31, where double
// rounding differs from single rounding), output zero point -5 (an i32
// input has zero point 0).
func.func @requantize(%acc: tensor<64x4xi32>) -> tensor<64x4xi8> {
  %mult = "tosa.const"() <{values = dense<[1073741824, 1518500250, 2147483000, 1234567890]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %shift = "tosa.const"() <{values = dense<[20, 31, 36, 40]> : tensor<4xi8>}> : () -> tensor<4xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<-5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %acc, %mult, %shift, %izp, %ozp {input_unsigned = false, output_unsigned = false, per_channel = true, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<64x4xi32>, tensor<4xi32>, tensor<4xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<64x4xi8>
  return %r : tensor<64x4xi8>
}
