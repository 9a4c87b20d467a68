// Integer division: a zero divisor traps (SIGFPE on x86), which aot-run
// reports as a crash of the compiled function.
func.func @divide(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
