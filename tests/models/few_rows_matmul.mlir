// Matmuls of few rows of A (f32, and f64 at the end). B stored transposed
// (N x K, a linear layer's weights as PyTorch keeps them) and fewer than 8
// rows: each result is a dot product along K, vectorized like a row
// reduction (K = 300 in chunks of the vector width, the last one partial);
// from 8 rows on, B is packed.
// One row of A by B stored K x N: the register tiles' loops run over K
// outside N, each row of B read once, in order.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// A vector times a matrix: one row of A.
func.func @vector_times_transposed(%a: tensor<1x300xf32>, %b: tensor<257x300xf32>) -> tensor<1x257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x257xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x257xf32>) -> tensor<1x257xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<1x300xf32>, tensor<257x300xf32>) outs(%c : tensor<1x257xf32>) -> tensor<1x257xf32>
  return %r : tensor<1x257xf32>
}

// Seven rows, accumulated onto a bias (the init is not zero).
func.func @few_rows_transposed(%a: tensor<7x64xf32>, %b: tensor<40x64xf32>, %c: tensor<7x40xf32>) -> tensor<7x40xf32> {
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<7x64xf32>, tensor<40x64xf32>) outs(%c : tensor<7x40xf32>) -> tensor<7x40xf32>
  return %r : tensor<7x40xf32>
}

// Two rows, N = 36: the dot products four at a time (N is not a multiple
// of eight).
func.func @two_rows_transposed(%a: tensor<2x96xf32>, %b: tensor<36x96xf32>) -> tensor<2x36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x36xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x36xf32>) -> tensor<2x36xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<2x96xf32>, tensor<36x96xf32>) outs(%c : tensor<2x36xf32>) -> tensor<2x36xf32>
  return %r : tensor<2x36xf32>
}

// Eight rows: the first count that packs B.
func.func @eight_rows_transposed(%a: tensor<8x70xf32>, %b: tensor<45x70xf32>) -> tensor<8x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x45xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x45xf32>) -> tensor<8x45xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<8x70xf32>, tensor<45x70xf32>) outs(%c : tensor<8x45xf32>) -> tensor<8x45xf32>
  return %r : tensor<8x45xf32>
}

// Batched (a head per matrix), three rows each.
func.func @batch_few_rows_transposed(%a: tensor<2x3x70xf32>, %b: tensor<2x45x70xf32>) -> tensor<2x3x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x45xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x45xf32>) -> tensor<2x3x45xf32>
  %r = linalg.batch_matmul indexing_maps = [
        affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>,
        affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<2x3x70xf32>, tensor<2x45x70xf32>) outs(%c : tensor<2x3x45xf32>) -> tensor<2x3x45xf32>
  return %r : tensor<2x3x45xf32>
}

// One row by B stored K x N, in cache blocks (K = 300 in blocks of 150,
// N = 520 in blocks of 130: strips of 32 and a last, partial one of 2).
func.func @vector_times_matrix(%a: tensor<1x300xf32>, %b: tensor<300x520xf32>) -> tensor<1x520xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x520xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x520xf32>) -> tensor<1x520xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x300xf32>, tensor<300x520xf32>) outs(%c : tensor<1x520xf32>) -> tensor<1x520xf32>
  return %r : tensor<1x520xf32>
}

// Batched, one row each, accumulated onto a bias.
func.func @batch_vector_times_matrix(%a: tensor<3x1x70xf32>, %b: tensor<3x70x45xf32>, %c: tensor<3x1x45xf32>) -> tensor<3x1x45xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x1x70xf32>, tensor<3x70x45xf32>) outs(%c : tensor<3x1x45xf32>) -> tensor<3x1x45xf32>
  return %r : tensor<3x1x45xf32>
}

// f64: dot products (B transposed, 2 rows by 4 side by side: N = 36) and one
// row by B stored K x N, as f32.
func.func @two_rows_transposed_f64(%a: tensor<2x70xf64>, %b: tensor<36x70xf64>) -> tensor<2x36xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<2x36xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<2x36xf64>) -> tensor<2x36xf64>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<2x70xf64>, tensor<36x70xf64>) outs(%c : tensor<2x36xf64>) -> tensor<2x36xf64>
  return %r : tensor<2x36xf64>
}

func.func @vector_times_matrix_f64(%a: tensor<1x70xf64>, %b: tensor<70x200xf64>, %c: tensor<1x200xf64>) -> tensor<1x200xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<1x70xf64>, tensor<70x200xf64>) outs(%c : tensor<1x200xf64>) -> tensor<1x200xf64>
  return %r : tensor<1x200xf64>
}

// Six rows by B transposed whose N is dynamic (one function for every N):
// every row of A at once, by one row of B at a time; called with N = 29.
func.func @six_rows_dynamic_n(%a: tensor<6x80xf32>, %b: tensor<?x80xf32>) -> tensor<6x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %b, %c0 : tensor<?x80xf32>
  %e = tensor.empty(%n) : tensor<6x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<6x?xf32>) -> tensor<6x?xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<6x80xf32>, tensor<?x80xf32>) outs(%c : tensor<6x?xf32>) -> tensor<6x?xf32>
  return %r : tensor<6x?xf32>
}

// Five rows by B stored K x N, accumulated onto C: 4 rows of B at a time
// added into all five rows of results (N = 300: strips of 32 and a last,
// partial one of 12).
func.func @five_rows_times_matrix(%a: tensor<5x120xf32>, %b: tensor<120x300xf32>, %c: tensor<5x300xf32>) -> tensor<5x300xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<5x120xf32>, tensor<120x300xf32>) outs(%c : tensor<5x300xf32>) -> tensor<5x300xf32>
  return %r : tensor<5x300xf32>
}

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
