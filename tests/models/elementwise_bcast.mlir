// Elementwise ops with broadcasting: linalg.generic with broadcasting indexing maps
// (a dropped dimension and a constant-0 size-1 dimension) and TOSA ops whose operands
// broadcast along size-1 dimensions.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#col1 = affine_map<(d0, d1) -> (d0, 0)>
#colv = affine_map<(d0, d1) -> (d0)>

// (x + b[j]) * s[i, 0]
func.func @bias_scale(%x: tensor<8x16xf32>, %b: tensor<16xf32>, %s: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %init = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row, #col1, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b, %s : tensor<8x16xf32>, tensor<16xf32>, tensor<8x1xf32>)
      outs(%init : tensor<8x16xf32>) {
  ^bb0(%xv: f32, %bv: f32, %sv: f32, %o: f32):
    %t = arith.addf %xv, %bv : f32
    %u = arith.mulf %t, %sv : f32
    linalg.yield %u : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// out[i, j] = a[i] - b[j]: both operands broadcast, the output comes from tensor.empty
func.func @outer_sub(%a: tensor<8xf32>, %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %init = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#colv, #row, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<16xf32>)
      outs(%init : tensor<8x16xf32>) {
  ^bb0(%av: f32, %bv: f32, %o: f32):
    %t = arith.subf %av, %bv : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Integer broadcasting with linalg.broadcast followed by an elementwise linalg.generic.
func.func @bcast_max_i32(%x: tensor<6x5xi32>, %v: tensor<5xi32>) -> tensor<6x5xi32> {
  %e = tensor.empty() : tensor<6x5xi32>
  %vb = linalg.broadcast ins(%v : tensor<5xi32>) outs(%e : tensor<6x5xi32>) dimensions = [0]
  %init = tensor.empty() : tensor<6x5xi32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %vb : tensor<6x5xi32>, tensor<6x5xi32>)
      outs(%init : tensor<6x5xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %m = arith.maxsi %a, %b : i32
    linalg.yield %m : i32
  } -> tensor<6x5xi32>
  return %r : tensor<6x5xi32>
}

// tosa.add with an operand broadcast along two leading size-1 dimensions.
func.func @tosa_add_bcast(%x: tensor<4x8x16xf32>, %y: tensor<1x1x16xf32>) -> tensor<4x8x16xf32> {
  %0 = tosa.add %x, %y : (tensor<4x8x16xf32>, tensor<1x1x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// Both operands broadcast: (4x1) * (1x6) - (1x6) -> 4x6.
func.func @tosa_mul_sub_bcast(%x: tensor<4x1xf32>, %y: tensor<1x6xf32>) -> tensor<4x6xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.mul %x, %y, %shift : (tensor<4x1xf32>, tensor<1x6xf32>, tensor<1xi8>) -> tensor<4x6xf32>
  %1 = tosa.sub %0, %y : (tensor<4x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// Integer TOSA add with a broadcast operand.
func.func @tosa_add_bcast_i32(%x: tensor<3x7xi32>, %y: tensor<3x1xi32>) -> tensor<3x7xi32> {
  %0 = tosa.add %x, %y : (tensor<3x7xi32>, tensor<3x1xi32>) -> tensor<3x7xi32>
  return %0 : tensor<3x7xi32>
}
