// Elementwise adds for the GPU mapping: large enough for several elements a
// thread (4M), too small (64x64), and large but 2000 wide (not a multiple of
// the 128 columns four threads' elements span).
func.func @big(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %c = tosa.add %a, %b : (tensor<2048x2048xf32>, tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}

func.func @small(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = tosa.add %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

func.func @ragged(%a: tensor<2048x2000xf32>, %b: tensor<2048x2000xf32>) -> tensor<2048x2000xf32> {
  %c = tosa.add %a, %b : (tensor<2048x2000xf32>, tensor<2048x2000xf32>) -> tensor<2048x2000xf32>
  return %c : tensor<2048x2000xf32>
}

func.func @flat(%a: tensor<4194304xf32>) -> tensor<4194304xf32> {
  %c = tosa.abs %a : (tensor<4194304xf32>) -> tensor<4194304xf32>
  return %c : tensor<4194304xf32>
}

