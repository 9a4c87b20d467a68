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
