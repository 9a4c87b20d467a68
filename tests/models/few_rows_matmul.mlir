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
