// Functions whose tensor results are computed "into" an argument (the argument is the
// outs operand). Tensors are values: the caller's input buffers must be left unchanged,
// so a test should also check that the inputs still hold their original values after
// the call (and that calling twice gives the same result).

func.func @matmul_acc(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>)
                     outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// x := x * 3 + 1, written with the argument as its own output.
func.func @update_arg(%x: tensor<5x5xi32>) -> tensor<5x5xi32> {
  %three = arith.constant 3 : i32
  %one = arith.constant 1 : i32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%x : tensor<5x5xi32>) {
  ^bb0(%v: i32):
    %m = arith.muli %v, %three : i32
    %a = arith.addi %m, %one : i32
    linalg.yield %a : i32
  } -> tensor<5x5xi32>
  return %r : tensor<5x5xi32>
}

// Returns both the original argument and an updated copy of it: the first result must
// still hold the input values.
func.func @old_and_new(%x: tensor<6xf32>, %v: tensor<2xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %n = tensor.insert_slice %v into %x[3] [2] [1] : tensor<2xf32> into tensor<6xf32>
  return %x, %n : tensor<6xf32>, tensor<6xf32>
}
