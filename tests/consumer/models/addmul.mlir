// (a + b) * b on i32 vectors, elementwise.
func.func @addmul(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8xi32> {
  %s = arith.addi %a, %b : tensor<8xi32>
  %p = arith.muli %s, %b : tensor<8xi32>
  return %p : tensor<8xi32>
}
