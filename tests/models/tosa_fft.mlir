// TOSA's Fourier transforms (lowered by tosa-to-linalg into loops that use
// the index dialect) and cf.assert on a condition that holds.

func.func @rfft(%x: tensor<2x8x16xf32>) -> (tensor<2x8x9xf32>, tensor<2x8x9xf32>) {
  %re, %im = tosa.rfft2d %x : (tensor<2x8x16xf32>) -> (tensor<2x8x9xf32>, tensor<2x8x9xf32>)
  return %re, %im : tensor<2x8x9xf32>, tensor<2x8x9xf32>
}

func.func @fft(%re: tensor<1x4x8xf32>, %im: tensor<1x4x8xf32>)
    -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) {
  %fr, %fi = tosa.fft2d %re, %im {inverse = false} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  %ir, %ii = tosa.fft2d %re, %im {inverse = true} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  return %fr, %fi, %ir, %ii : tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
}

// The assertion holds for the reference's input; a failing one would print
// its message and abort, as C's assert does.
func.func @checked_double(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %positive = arith.cmpi sgt, %n, %c0 : i32
  cf.assert %positive, "n must be positive"
  %r = arith.addi %n, %n : i32
  return %r : i32
}
