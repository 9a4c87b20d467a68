// A module whose ops carry only names, as an importer (TFLite, PyTorch)
// writes them: NameLoc over UnknownLoc, no file, line or column.
func.func @net(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.sub %x, %w : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("conv1")
  %1 = tosa.add %0, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> loc("add1")
  %2 = call @helper(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32> loc("call1")
  return %2 : tensor<4x8xf32> loc("ret")
} loc("net")

func.func private @helper(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8> loc("shift")
  %0 = tosa.mul %x, %x, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32> loc("square")
  return %0 : tensor<4x8xf32> loc("ret2")
} loc("helper")
