// Reductions of dynamic shape, and along another axis than the innermost
// (columns): rows reduce into one vector of partial results per row, whose
// last chunk is masked; columns are read row after row, a vector of outputs
// per tile of 16 columns, in blocks of 1024 columns, the last tile masked.

// Sums of rows, every size dynamic (37 x 1021 in the test: 63 full chunks
// of 16 and one of 13 per row).
func.func @row_sums(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}

// Maxima of rows shorter than one vector (5 x 13 in the test).
func.func @row_max(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %low = arith.constant 0xFF800000 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.maximumf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}

// Sums of columns, every size dynamic (300 x 2100 in the test: blocks of
// 1024, 1024 and 52 columns, the last tile of 4).
func.func @column_sums(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}

// Minima of columns of a static, prime width: 63 full tiles and one of 13.
func.func @column_min(%x: tensor<70x1021xf32>) -> tensor<1021xf32> {
  %high = arith.constant 0x7F800000 : f32
  %e = tensor.empty() : tensor<1021xf32>
  %f = linalg.fill ins(%high : f32) outs(%e : tensor<1021xf32>) -> tensor<1021xf32>
  %r = linalg.reduce ins(%x : tensor<70x1021xf32>) outs(%f : tensor<1021xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.minimumf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1021xf32>
}

// Sums along the middle axis of a dynamic 3-D tensor (3 x 50 x 37).
func.func @middle_sums(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %b = tensor.dim %x, %c0 : tensor<?x?x?xf32>
  %n = tensor.dim %x, %c2 : tensor<?x?x?xf32>
  %e = tensor.empty(%b, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?x?xf32>) outs(%f : tensor<?x?xf32>) dimensions = [1]
    (%a: f32, %s0: f32) {
      %s = arith.addf %a, %s0 : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?x?xf32>
}

// Integer sums of columns, dynamic (29 x 45): exact.
func.func @int_column_sums(%x: tensor<?x?xi32>) -> tensor<?xi32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %n = tensor.dim %x, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
  %r = linalg.reduce ins(%x : tensor<?x?xi32>) outs(%f : tensor<?xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %s = arith.addi %a, %b : i32
      linalg.yield %s : i32
    }
  return %r : tensor<?xi32>
}

// Softmax of rows of dynamic length (33 x 1000): a maximum, a sum of
// exponentials and a division per row.
func.func @softmax_rows(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
