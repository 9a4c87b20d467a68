// Integer matmuls of i8 and i16 operands accumulated in i32, at the sizes
// that choose between the ways the tiled stage computes them.

// Two steps of K at a time (the pair dots of an AVX-512 target): 8-row blocks, two 16-lane chunks per block.
func.func @mm_i8_pairs(%a: tensor<64x256xi8>, %b: tensor<256x96xi8>) -> tensor<64x96xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<64x96xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<64x96xi32>) -> tensor<64x96xi32>
  %r = linalg.matmul ins(%a, %b : tensor<64x256xi8>, tensor<256x96xi8>) outs(%f : tensor<64x96xi32>) -> tensor<64x96xi32>
  return %r : tensor<64x96xi32>
}

// K of 512: cut into cache blocks of 256, each in pairs.
func.func @mm_i8_k_blocks(%a: tensor<32x512xi8>, %b: tensor<512x64xi8>) -> tensor<32x64xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<32x64xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<32x64xi32>) -> tensor<32x64xi32>
  %r = linalg.matmul ins(%a, %b : tensor<32x512xi8>, tensor<512x64xi8>) outs(%f : tensor<32x64xi32>) -> tensor<32x64xi32>
  return %r : tensor<32x64xi32>
}

// An odd K: one step of K at a time.
func.func @mm_i8_odd_k(%a: tensor<24x37xi8>, %b: tensor<37x48xi8>) -> tensor<24x48xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<24x48xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<24x48xi32>) -> tensor<24x48xi32>
  %r = linalg.matmul ins(%a, %b : tensor<24x37xi8>, tensor<37x48xi8>) outs(%f : tensor<24x48xi32>) -> tensor<24x48xi32>
  return %r : tensor<24x48xi32>
}

// N of 24: register blocks narrower than a 16-lane chunk.
func.func @mm_i8_narrow_n(%a: tensor<16x64xi8>, %b: tensor<64x24xi8>) -> tensor<16x24xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x24xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<16x24xi32>) -> tensor<16x24xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x64xi8>, tensor<64x24xi8>) outs(%f : tensor<16x24xi32>) -> tensor<16x24xi32>
  return %r : tensor<16x24xi32>
}

// i16 operands, with -32768 x -32768 twice in a pair: the pair's sum wraps in i32 as the i32 additions do.
func.func @mm_i16_pairs(%a: tensor<16x64xi16>, %b: tensor<64x32xi16>) -> tensor<16x32xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x32xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<16x32xi32>) -> tensor<16x32xi32>
  %r = linalg.matmul ins(%a, %b : tensor<16x64xi16>, tensor<64x32xi16>) outs(%f : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %r : tensor<16x32xi32>
}

// Dynamic shapes: K unknown at compile time, one step of K at a time.
func.func @mm_i8_dynamic(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %m = tensor.dim %a, %c0 : tensor<?x?xi8>
  %n = tensor.dim %b, %c1 : tensor<?x?xi8>
  %e = tensor.empty(%m, %n) : tensor<?x?xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<?x?xi32>) -> tensor<?x?xi32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%f : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

// B stored transposed (N x K, quantized weights as PyTorch keeps them): B is
// transposed once, whole, and the pair dots read its rows.
func.func @mm_i8_transposed(%a: tensor<24x37xi8>, %b: tensor<48x37xi8>) -> tensor<24x48xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<24x48xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<24x48xi32>) -> tensor<24x48xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<24x37xi8>, tensor<48x37xi8>) outs(%f : tensor<24x48xi32>) -> tensor<24x48xi32>
  return %r : tensor<24x48xi32>
}

// The same batched, every size dynamic, as a linalg.generic that extends its
// operands itself; called with 2 x 19 x 30 by 2 x 45 x 30.
func.func @bmm_i8_transposed_dynamic(%a: tensor<?x?x?xi8>, %b: tensor<?x?x?xi8>, %c: tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?x?xi8>, tensor<?x?x?xi8>) outs(%c : tensor<?x?x?xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xe = arith.extsi %x : i8 to i32
    %ye = arith.extsi %y : i8 to i32
    %p = arith.muli %xe, %ye : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<?x?x?xi32>
  return %r : tensor<?x?x?xi32>
}

// Fewer than 8 rows of A by B stored transposed: dot products along K,
// 16 widened products at a time, 8 results side by side (N = 40), K = 200 in
// chunks of 16 and a last one of 8.
func.func @mv_i8_transposed(%a: tensor<3x200xi8>, %b: tensor<40x200xi8>) -> tensor<3x40xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x40xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<3x40xi32>) -> tensor<3x40xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<3x200xi8>, tensor<40x200xi8>) outs(%f : tensor<3x40xi32>) -> tensor<3x40xi32>
  return %r : tensor<3x40xi32>
}

// The same with K = 256, a multiple of 32: pair dots along K.
func.func @mv_i8_transposed_pairs(%a: tensor<3x256xi8>, %b: tensor<40x256xi8>) -> tensor<3x40xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x40xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<3x40xi32>) -> tensor<3x40xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<3x256xi8>, tensor<40x256xi8>) outs(%f : tensor<3x40xi32>) -> tensor<3x40xi32>
  return %r : tensor<3x40xi32>
}

// One row of i16 by B stored transposed, 4 results side by side (N = 36),
// with -32768 x -32768 along the first but for one term: its sum wraps in
// i32.
func.func @mv_i16_transposed_wrap(%a: tensor<1x64xi16>, %b: tensor<36x64xi16>) -> tensor<1x36xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x36xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x36xi32>) -> tensor<1x36xi32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<1x64xi16>, tensor<36x64xi16>) outs(%f : tensor<1x36xi32>) -> tensor<1x36xi32>
  return %r : tensor<1x36xi32>
}

// Few rows by B stored K x N: register tiles of pair dots as wide as 16
// registers of results allow (one row by 128 lanes, three rows by 64), K =
// 201 odd: its last step outer products.
func.func @mv_i8_wide(%a: tensor<1x201xi8>, %b: tensor<201x256xi8>) -> tensor<1x256xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x256xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<1x256xi32>) -> tensor<1x256xi32>
  %r = linalg.matmul ins(%a, %b : tensor<1x201xi8>, tensor<201x256xi8>) outs(%f : tensor<1x256xi32>) -> tensor<1x256xi32>
  return %r : tensor<1x256xi32>
}

func.func @few_i16_wide(%a: tensor<3x64xi16>, %b: tensor<64x192xi16>) -> tensor<3x192xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x192xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<3x192xi32>) -> tensor<3x192xi32>
  %r = linalg.matmul ins(%a, %b : tensor<3x64xi16>, tensor<64x192xi16>) outs(%f : tensor<3x192xi32>) -> tensor<3x192xi32>
  return %r : tensor<3x192xi32>
}
