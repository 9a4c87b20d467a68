// Matmuls whose rows of A are dynamic (a dynamic batch): each compiled once,
// under a branch on M at run time (tests/cli/dynamic-rows.test checks the
// code), called with few rows and with many. few_rows_matmul.mlir has the
// same matmuls with static rows.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A dynamic M (a dynamic batch): compiled once, under a branch on M at run
// time, for few rows (fewer than 8: the code of so many static rows, on A
// padded to 1, 2, 4, 5, 6 or 7 rows where B is a float stored K x N, else
// 3 rows as a piece of their own and other counts in static pieces of 4,
// 2 and 1 rows, the bits of M) and for many (packed panels). The same
// matmul is called with 3 rows and with 11, and with 7 (pieces of 4, 2 and
// 1); by B stored K x N with 3, 5, 6, 7 and 9 rows; i8 with 2, 3 and 6
// rows, f16 with two, and batches of matrices of 3 rows.
func.func @dynamic_rows_transposed(%a: tensor<?x80xf32>, %b: tensor<40x80xf32>) -> tensor<?x40xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x80xf32>
  %e = tensor.empty(%m) : tensor<?x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x40xf32>) -> tensor<?x40xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<?x80xf32>, tensor<40x80xf32>) outs(%c : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %r : tensor<?x40xf32>
}

func.func @dynamic_rows_transposed_many(%a: tensor<?x80xf32>, %b: tensor<40x80xf32>) -> tensor<?x40xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x80xf32>
  %e = tensor.empty(%m) : tensor<?x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x40xf32>) -> tensor<?x40xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<?x80xf32>, tensor<40x80xf32>) outs(%c : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %r : tensor<?x40xf32>
}

func.func @dynamic_rows_transposed_seven(%a: tensor<?x80xf32>, %b: tensor<40x80xf32>) -> tensor<?x40xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x80xf32>
  %e = tensor.empty(%m) : tensor<?x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x40xf32>) -> tensor<?x40xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<?x80xf32>, tensor<40x80xf32>) outs(%c : tensor<?x40xf32>) -> tensor<?x40xf32>
  return %r : tensor<?x40xf32>
}

func.func @dynamic_rows_times_matrix(%a: tensor<?x96xf32>, %b: tensor<96x70xf32>, %c: tensor<?x70xf32>) -> tensor<?x70xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x96xf32>, tensor<96x70xf32>) outs(%c : tensor<?x70xf32>) -> tensor<?x70xf32>
  return %r : tensor<?x70xf32>
}

func.func @dynamic_rows_times_matrix_many(%a: tensor<?x96xf32>, %b: tensor<96x70xf32>, %c: tensor<?x70xf32>) -> tensor<?x70xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x96xf32>, tensor<96x70xf32>) outs(%c : tensor<?x70xf32>) -> tensor<?x70xf32>
  return %r : tensor<?x70xf32>
}

func.func @dynamic_rows_seven(%a: tensor<?x96xf32>, %b: tensor<96x70xf32>, %c: tensor<?x70xf32>) -> tensor<?x70xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x96xf32>, tensor<96x70xf32>) outs(%c : tensor<?x70xf32>) -> tensor<?x70xf32>
  return %r : tensor<?x70xf32>
}

func.func @dynamic_rows_six(%a: tensor<?x96xf32>, %b: tensor<96x70xf32>, %c: tensor<?x70xf32>) -> tensor<?x70xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x96xf32>, tensor<96x70xf32>) outs(%c : tensor<?x70xf32>) -> tensor<?x70xf32>
  return %r : tensor<?x70xf32>
}

func.func @dynamic_rows_three(%a: tensor<?x96xf32>, %b: tensor<96x70xf32>, %c: tensor<?x70xf32>) -> tensor<?x70xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x96xf32>, tensor<96x70xf32>) outs(%c : tensor<?x70xf32>) -> tensor<?x70xf32>
  return %r : tensor<?x70xf32>
}

func.func @dynamic_rows_i8_transposed(%a: tensor<?x64xi8>, %b: tensor<24x64xi8>) -> tensor<?x24xi32> {
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xi8>
  %e = tensor.empty(%m) : tensor<?x24xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<?x24xi32>) -> tensor<?x24xi32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<?x64xi8>, tensor<24x64xi8>) outs(%c : tensor<?x24xi32>) -> tensor<?x24xi32>
  return %r : tensor<?x24xi32>
}

func.func @dynamic_rows_f16(%a: tensor<?x64xf16>, %b: tensor<64x50xf16>) -> tensor<?x50xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xf16>
  %e = tensor.empty(%m) : tensor<?x50xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x50xf32>) -> tensor<?x50xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x64xf16>, tensor<64x50xf16>) outs(%c : tensor<?x50xf32>) -> tensor<?x50xf32>
  return %r : tensor<?x50xf32>
}

#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bnk = affine_map<(b, m, n, k) -> (b, n, k)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @dynamic_rows_batch_transposed(%a: tensor<2x?x48xf32>, %b: tensor<2x20x48xf32>) -> tensor<2x?x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c1 : tensor<2x?x48xf32>
  %e = tensor.empty(%m) : tensor<2x?x20xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  %r = linalg.batch_matmul indexing_maps = [#bmk, #bnk, #bmn]
      ins(%a, %b : tensor<2x?x48xf32>, tensor<2x20x48xf32>) outs(%c : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  return %r : tensor<2x?x20xf32>
}

// i8 by B stored K x N, dynamic M, 3 rows (a piece of their own) and 6 (4
// and 2): pair dots in register tiles of so many rows.
func.func @dynamic_rows_i8_six(%a: tensor<?x64xi8>, %b: tensor<64x128xi8>) -> tensor<?x128xi32> {
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xi8>
  %e = tensor.empty(%m) : tensor<?x128xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<?x128xi32>) -> tensor<?x128xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x64xi8>, tensor<64x128xi8>) outs(%c : tensor<?x128xi32>) -> tensor<?x128xi32>
  return %r : tensor<?x128xi32>
}

func.func @dynamic_rows_i8(%a: tensor<?x64xi8>, %b: tensor<64x128xi8>) -> tensor<?x128xi32> {
  %zero = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x64xi8>
  %e = tensor.empty(%m) : tensor<?x128xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e : tensor<?x128xi32>) -> tensor<?x128xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x64xi8>, tensor<64x128xi8>) outs(%c : tensor<?x128xi32>) -> tensor<?x128xi32>
  return %r : tensor<?x128xi32>
}

// A batch of matrices by B stored K x N, dynamic M, 3 rows: padded to 4.
func.func @dynamic_rows_batch(%a: tensor<2x?x48xf32>, %b: tensor<2x48x20xf32>, %c: tensor<2x?x20xf32>) -> tensor<2x?x20xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x?x48xf32>, tensor<2x48x20xf32>) outs(%c : tensor<2x?x20xf32>) -> tensor<2x?x20xf32>
  return %r : tensor<2x?x20xf32>
}
