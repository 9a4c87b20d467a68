// linalg.pack and linalg.unpack (data tiling layouts): static tiles, a
// padding value, outer_dims_perm, transposed inner_dims_pos, f32 and i8, odd
// shapes, an unpack that drops the padding again, dynamic shapes and a
// dynamic inner tile. Lowered to pad + reshape + transpose (and back).
func.func @pack_rows(%x: tensor<16x8xf32>) -> tensor<2x8x8x1xf32> {
  %e = tensor.empty() : tensor<2x8x8x1xf32>
  %r = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %e : tensor<16x8xf32> -> tensor<2x8x8x1xf32>
  return %r : tensor<2x8x8x1xf32>
}

// 1x9 into 8x4 tiles, both dims padded with 0.5, outer dims swapped and
// the inner tiles transposed.
func.func @pack_padded_transposed(%x: tensor<1x9xf32>) -> tensor<2x1x8x4xf32> {
  %pad = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x1x8x4xf32>
  %r = linalg.pack %x padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 4] into %e : tensor<1x9xf32> -> tensor<2x1x8x4xf32>
  return %r : tensor<2x1x8x4xf32>
}

// i8, 3-D, only the last dim tiled, padded with -1.
func.func @pack_i8(%x: tensor<3x5x7xi8>) -> tensor<3x5x2x4xi8> {
  %pad = arith.constant -1 : i8
  %e = tensor.empty() : tensor<3x5x2x4xi8>
  %r = linalg.pack %x padding_value(%pad : i8) inner_dims_pos = [2] inner_tiles = [4] into %e : tensor<3x5x7xi8> -> tensor<3x5x2x4xi8>
  return %r : tensor<3x5x2x4xi8>
}

// Back from 16 rows of tiles to 13: the unpack drops the padding.
func.func @unpack_sliced(%x: tensor<2x8x8x1xf32>) -> tensor<13x8xf32> {
  %e = tensor.empty() : tensor<13x8xf32>
  %r = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %e : tensor<2x8x8x1xf32> -> tensor<13x8xf32>
  return %r : tensor<13x8xf32>
}

// The inverse of pack_padded_transposed, to the unpadded 1x9.
func.func @unpack_transposed(%x: tensor<2x1x8x4xf32>) -> tensor<1x9xf32> {
  %e = tensor.empty() : tensor<1x9xf32>
  %r = linalg.unpack %x outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 4] into %e : tensor<2x1x8x4xf32> -> tensor<1x9xf32>
  return %r : tensor<1x9xf32>
}

func.func @pack_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?x8x4xf32> {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %n = arith.ceildivui %d0, %c8 : index
  %m = arith.ceildivui %d1, %c4 : index
  %e = tensor.empty(%n, %m) : tensor<?x?x8x4xf32>
  %r = linalg.pack %x padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %e : tensor<?x?xf32> -> tensor<?x?x8x4xf32>
  return %r : tensor<?x?x8x4xf32>
}

// The row tile is only known at run time (the packed tensor's dim 2);
// `rows` is the unpacked row count.
func.func @unpack_dynamic_tile(%x: tensor<?x?x?x4xi8>, %rows: i64) -> tensor<?x?xi8> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %t = tensor.dim %x, %c2 : tensor<?x?x?x4xi8>
  %o1 = tensor.dim %x, %c1 : tensor<?x?x?x4xi8>
  %m = arith.muli %o1, %c4 : index
  %n = arith.index_cast %rows : i64 to index
  %e = tensor.empty(%n, %m) : tensor<?x?xi8>
  %r = linalg.unpack %x inner_dims_pos = [0, 1] inner_tiles = [%t, 4] into %e : tensor<?x?x?x4xi8> -> tensor<?x?xi8>
  return %r : tensor<?x?xi8>
}
