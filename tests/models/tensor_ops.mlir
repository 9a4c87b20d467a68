// tensor dialect data movement: extract_slice / insert_slice (with strides), concat,
// expand_shape / collapse_shape, pad with a non-zero value, linalg.transpose, and
// tensor.generate / tensor.extract.

func.func @slices(%x: tensor<8x8xf32>, %y: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<8x8xf32>) {
  // every second row starting at 1, columns 4 and 6
  %s = tensor.extract_slice %x[1, 4] [3, 2] [2, 2] : tensor<8x8xf32> to tensor<3x2xf32>
  // overwrite a 2x3 block at (5, 2)
  %i = tensor.insert_slice %y into %x[5, 2] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<8x8xf32>
  return %s, %i : tensor<3x2xf32>, tensor<8x8xf32>
}

func.func @concat(%a: tensor<2x3xi32>, %b: tensor<4x3xi32>, %c: tensor<6x2xi32>) -> tensor<6x5xi32> {
  %ab = tensor.concat dim(0) %a, %b : (tensor<2x3xi32>, tensor<4x3xi32>) -> tensor<6x3xi32>
  %r = tensor.concat dim(1) %ab, %c : (tensor<6x3xi32>, tensor<6x2xi32>) -> tensor<6x5xi32>
  return %r : tensor<6x5xi32>
}

func.func @reshapes(%x: tensor<2x12xf32>) -> (tensor<2x3x4xf32>, tensor<24xf32>, tensor<4x3x2xf32>) {
  %e = tensor.expand_shape %x [[0], [1, 2]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
  %c = tensor.collapse_shape %e [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  %init = tensor.empty() : tensor<4x3x2xf32>
  %t = linalg.transpose ins(%e : tensor<2x3x4xf32>) outs(%init : tensor<4x3x2xf32>) permutation = [2, 1, 0]
  return %e, %c, %t : tensor<2x3x4xf32>, tensor<24xf32>, tensor<4x3x2xf32>
}

// Pad with -1 (low 1/2, high 0/1) and with a value depending on the position.
func.func @pads(%x: tensor<3x4xf64>) -> (tensor<4x7xf64>, tensor<5x6xf64>) {
  %m1 = arith.constant -1.0 : f64
  %p = tensor.pad %x low[1, 2] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %m1 : f64
  } : tensor<3x4xf64> to tensor<4x7xf64>
  %q = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %k = arith.muli %i, %j : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    tensor.yield %kf : f64
  } : tensor<3x4xf64> to tensor<5x6xf64>
  return %p, %q : tensor<4x7xf64>, tensor<5x6xf64>
}

// out[i, j] = 10 * i + j via tensor.generate, plus x[2, 1] broadcast via tensor.extract.
func.func @generate(%x: tensor<3x3xi64>) -> tensor<4x5xi64> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ten = arith.constant 10 : index
  %v = tensor.extract %x[%c2, %c1] : tensor<3x3xi64>
  %g = tensor.generate {
  ^bb0(%i: index, %j: index):
    %a = arith.muli %i, %ten : index
    %b = arith.addi %a, %j : index
    %bi = arith.index_cast %b : index to i64
    %r = arith.addi %bi, %v : i64
    tensor.yield %r : i64
  } : tensor<4x5xi64>
  return %g : tensor<4x5xi64>
}

// Transposes that move the innermost dim: in 8 x 8 tiles transposed in
// registers where both dims it swaps are multiples of 8 (f32, i64), element
// by element where not (12 x 20); one that keeps the innermost dim copies
// rows.
func.func @transposes(%x: tensor<16x3x24xf32>, %y: tensor<8x40xi64>, %z: tensor<12x20xf32>, %w: tensor<4x5x24xf32>)
    -> (tensor<3x24x16xf32>, tensor<40x8xi64>, tensor<20x12xf32>, tensor<5x4x24xf32>) {
  %ex = tensor.empty() : tensor<3x24x16xf32>
  %tx = linalg.transpose ins(%x : tensor<16x3x24xf32>) outs(%ex : tensor<3x24x16xf32>) permutation = [1, 2, 0]
  %ey = tensor.empty() : tensor<40x8xi64>
  %ty = linalg.transpose ins(%y : tensor<8x40xi64>) outs(%ey : tensor<40x8xi64>) permutation = [1, 0]
  %ez = tensor.empty() : tensor<20x12xf32>
  %tz = linalg.transpose ins(%z : tensor<12x20xf32>) outs(%ez : tensor<20x12xf32>) permutation = [1, 0]
  %ew = tensor.empty() : tensor<5x4x24xf32>
  %tw = linalg.transpose ins(%w : tensor<4x5x24xf32>) outs(%ew : tensor<5x4x24xf32>) permutation = [1, 0, 2]
  return %tx, %ty, %tz, %tw : tensor<3x24x16xf32>, tensor<40x8xi64>, tensor<20x12xf32>, tensor<5x4x24xf32>
}
