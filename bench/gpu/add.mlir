// c = a + b over 8192×8192 f32 (256 MiB a tensor) for the GPU benchmark
// (bench/gpu): an elementwise op bound by memory bandwidth.
func.func @add(%a: tensor<8192x8192xf32>, %b: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %c = tosa.add %a, %b : (tensor<8192x8192xf32>, tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  return %c : tensor<8192x8192xf32>
}
