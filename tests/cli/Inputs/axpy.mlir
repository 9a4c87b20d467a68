// r = 3 * x + y, elementwise: the multiplication is on line 5.
func.func @axpy(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %three = arith.constant dense<3.0> : tensor<64xf32>
  %s = arith.addf %x, %three : tensor<64xf32>
  %m = arith.mulf %s, %three : tensor<64xf32>
  %r = arith.addf %m, %y : tensor<64xf32>
  return %r : tensor<64xf32>
}
