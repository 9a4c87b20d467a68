// Static contractions large enough to be cut into cache blocks (more than
// 256 along K or N) before the register tiles, at sizes the blocks do not
// divide into powers of two.

#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

func.func @big_k_n(%a: tensor<72x520xf32>, %b: tensor<520x300xf32>) -> tensor<72x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<72x300xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<72x300xf32>) -> tensor<72x300xf32>
  %r = linalg.matmul ins(%a, %b : tensor<72x520xf32>, tensor<520x300xf32>) outs(%c : tensor<72x300xf32>) -> tensor<72x300xf32>
  return %r : tensor<72x300xf32>
}

// One tile of 8 rows over each block of B (blocks of 130 x 256), read where
// it lies; the next block is prefetched while one runs.
func.func @eight_rows(%a: tensor<8x520xf32>, %b: tensor<520x512xf32>) -> tensor<8x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<8x512xf32>) -> tensor<8x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x520xf32>, tensor<520x512xf32>) outs(%c : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %r : tensor<8x512xf32>
}

// Three tiles of 8 rows over each block: the first prefetches the next
// block, the other two find this one in the cache.
func.func @three_tiles(%a: tensor<24x520xf32>, %b: tensor<520x512xf32>) -> tensor<24x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<24x512xf32>) -> tensor<24x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<24x520xf32>, tensor<520x512xf32>) outs(%c : tensor<24x512xf32>) -> tensor<24x512xf32>
  return %r : tensor<24x512xf32>
}

// A @ B^T with B stored N x K.
func.func @big_transposed(%a: tensor<64x384xf32>, %b: tensor<320x384xf32>) -> tensor<64x320xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x320xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x320xf32>) -> tensor<64x320xf32>
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x384xf32>, tensor<320x384xf32>) outs(%c : tensor<64x320xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x320xf32>
  return %r : tensor<64x320xf32>
}

func.func @big_batch(%a: tensor<2x40x300xf32>, %b: tensor<2x300x272xf32>) -> tensor<2x40x272xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x40x272xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x40x272xf32>) -> tensor<2x40x272xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x40x300xf32>, tensor<2x300x272xf32>) outs(%c : tensor<2x40x272xf32>) -> tensor<2x40x272xf32>
  return %r : tensor<2x40x272xf32>
}

// Enough row blocks (256 rows and more) that each block of B is first packed
// into a panel of strips: N = 300 is cut into blocks of 150 and strips of 30,
// K = 520 into blocks of 130.
func.func @packed_panels(%a: tensor<260x520xf32>, %b: tensor<520x300xf32>) -> tensor<260x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<260x300xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<260x300xf32>) -> tensor<260x300xf32>
  %r = linalg.matmul ins(%a, %b : tensor<260x520xf32>, tensor<520x300xf32>) outs(%c : tensor<260x300xf32>) -> tensor<260x300xf32>
  return %r : tensor<260x300xf32>
}

// The same with every dim dynamic: called with K = 300 (a full block of 256
// and one of 44) and N = 70 (two strips of 32 and a partial one of 6, whose
// panel is filled with zeros past the end of B).
func.func @packed_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// B stored transposed (N x K) is packed wherever 64 rows or more read it,
// gathered into the same panels: K = 300 in blocks of 150, N = 270 in
// blocks of 135 (strips of 32, the last of 7 columns).
func.func @packed_transposed(%a: tensor<260x300xf32>, %b: tensor<270x300xf32>) -> tensor<260x270xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<260x270xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<260x270xf32>) -> tensor<260x270xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<260x300xf32>, tensor<270x300xf32>) outs(%c : tensor<260x270xf32>) -> tensor<260x270xf32>
  return %r : tensor<260x270xf32>
}

// Small enough for one cache block, transposed: still packed, one panel.
func.func @small_transposed(%a: tensor<100x64xf32>, %b: tensor<40x64xf32>) -> tensor<100x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x40xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<100x40xf32>) -> tensor<100x40xf32>
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn]
      ins(%a, %b : tensor<100x64xf32>, tensor<40x64xf32>) outs(%c : tensor<100x40xf32>) -> tensor<100x40xf32>
  return %r : tensor<100x40xf32>
}

// A batch matmul's matrices are packed one at a time.
func.func @packed_batch(%a: tensor<2x260x130xf32>, %b: tensor<2x130x300xf32>) -> tensor<2x260x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x260x300xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x260x300xf32>) -> tensor<2x260x300xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x260x130xf32>, tensor<2x130x300xf32>) outs(%c : tensor<2x260x300xf32>) -> tensor<2x260x300xf32>
  return %r : tensor<2x260x300xf32>
}

// Batched, transposed and dynamic (attention scores, Q K^T): called with
// 3 x 70 x 50 by 3 x 45 x 50, one partial strip of 45 columns per matrix.
#bmk = affine_map<(b, m, n, k) -> (b, m, k)>
#bnk = affine_map<(b, m, n, k) -> (b, n, k)>
#bmn = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @dynamic_batch_transposed(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>, %c: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#bmk, #bnk, #bmn], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%c : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// f64 takes the same panels: a large matmul, and B stored transposed,
// large and small.
func.func @packed_panels_f64(%a: tensor<260x520xf64>, %b: tensor<520x300xf64>) -> tensor<260x300xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<260x300xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<260x300xf64>) -> tensor<260x300xf64>
  %r = linalg.matmul ins(%a, %b : tensor<260x520xf64>, tensor<520x300xf64>) outs(%c : tensor<260x300xf64>) -> tensor<260x300xf64>
  return %r : tensor<260x300xf64>
}

func.func @packed_transposed_f64(%a: tensor<260x300xf64>, %b: tensor<270x300xf64>) -> tensor<260x270xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<260x270xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<260x270xf64>) -> tensor<260x270xf64>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<260x300xf64>, tensor<270x300xf64>) outs(%c : tensor<260x270xf64>) -> tensor<260x270xf64>
  return %r : tensor<260x270xf64>
}

func.func @small_transposed_f64(%a: tensor<100x64xf64>, %b: tensor<40x64xf64>, %c: tensor<100x40xf64>) -> tensor<100x40xf64> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<100x64xf64>, tensor<40x64xf64>) outs(%c : tensor<100x40xf64>) -> tensor<100x40xf64>
  return %r : tensor<100x40xf64>
}
