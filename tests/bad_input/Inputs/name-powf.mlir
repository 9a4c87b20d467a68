// Named like libm's powf, which math.powf lowers to a call of.
func.func @powf(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.powf %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
