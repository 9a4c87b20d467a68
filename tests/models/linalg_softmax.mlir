// linalg.softmax, an aggregate op that is compiled as the ops it is made of:
// along the last axis with a static shape, along the first axis, and with
// dynamic shapes.

func.func @softmax_rows(%x: tensor<5x37xf32>) -> tensor<5x37xf32> {
  %e = tensor.empty() : tensor<5x37xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<5x37xf32>) outs(%e : tensor<5x37xf32>) -> tensor<5x37xf32>
  return %r : tensor<5x37xf32>
}

func.func @softmax_cols(%x: tensor<19x6xf32>) -> tensor<19x6xf32> {
  %e = tensor.empty() : tensor<19x6xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<19x6xf32>) outs(%e : tensor<19x6xf32>) -> tensor<19x6xf32>
  return %r : tensor<19x6xf32>
}

func.func @softmax_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
