// RUN: aot-opt %s --split-input-file --aot-tile-and-vectorize | FileCheck %s --check-prefixes=CHECK,WIDEN
// RUN: aot-opt %s --split-input-file --aot-tile-and-vectorize="x86-pair-dot=true" | FileCheck %s --check-prefixes=CHECK,PAIRS
// RUN: aot-opt %s --split-input-file --aot-tile-and-vectorize="tile-m=4 tile-n=16 vector-width=8" | FileCheck %s --check-prefix=SMALL

// Tiles linalg ops on tensors into register-sized blocks and vectorizes
// them: contractions as M x N register tiles with K innermost (accumulator
// held in vectors across K; 1 x 1 convolutions as matmuls), convolutions a
// row of pixels by channels, each window position and input channel a loop
// (a filter larger than the image: a block of output channels at a time,
// read from a packed panel), elementwise ops and reductions along the
// innermost dim. A tile that does not divide a dim is peeled, its last
// partial tile masked. Large ops get their outer tile loop marked
// aot.parallel, and loops for aot-prefetch-rows are marked too.

// f32 matmul: the fill becomes one flat loop of 16-lane stores; the matmul
// 8 x 32 register tiles (tile-m, tile-n) over K one step at a time, each
// step 8 FMAs of 32 lanes. Enough work for threads: the row loop is marked.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT:     linalg.
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<64x64xf32> into tensor<4096xf32>
// CHECK:         scf.for {{.*}} step %c16 iter_args({{.*}}) -> (tensor<4096xf32>)
// CHECK:           vector.transfer_write {{.*}} : vector<16xf32>, tensor<16xf32>
// CHECK:         scf.for {{.*}} = %c0 to %c64 step %c8
// CHECK:           scf.for {{.*}} = %c0 to %c64 step %c32
// CHECK:             %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK:             scf.for {{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}, %{{.*}} = %[[ACC]]) -> ({{.*}}, vector<8x32xf32>)
// CHECK-COUNT-8:       vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT:           linalg.
// CHECK:             vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK:         } {aot.parallel = 0 : i64}
// SMALL-LABEL: func.func @matmul
// SMALL:         scf.for {{.*}} step %c8 iter_args({{.*}}) -> (tensor<4096xf32>)
// SMALL:         scf.for {{.*}} = %c0 to %c64 step %c4
// SMALL:           scf.for {{.*}} = %c0 to %c64 step %c16
// SMALL:             scf.for {{.*}} step %c1 iter_args({{.*}}) -> ({{.*}}, vector<4x16xf32>)
// SMALL-COUNT-4:       vector.fma {{.*}} : vector<16xf32>
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = linalg.fill ins(%cst : f32) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%0 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// -----

// i8 x i8 into i32: products widened to i32 one step of K at a time; with
// x86-pair-dot, two steps of K, B's two rows interleaved, and each row of
// the tile two 16-lane pair dots (8 rows: 16 tagged contractions).
// CHECK-LABEL: func.func @int_matmul
// WIDEN:         scf.for {{.*}} step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xi32>)
// WIDEN-COUNT-8:   arith.muli {{.*}} : vector<32xi32>
// WIDEN-NOT:     aot.pair_dot
// PAIRS:         scf.for {{.*}} step %c2 iter_args({{.*}}) -> ({{.*}}, vector<8x32xi32>)
// PAIRS:           vector.interleave {{.*}} : vector<16xi8> -> vector<32xi8>
// PAIRS-COUNT-16:  vector.contract {{.*}} {aot.pair_dot} : vector<16x2xi16>, vector<16x2xi16> into vector<16xi32>
// PAIRS-NOT:       arith.muli
func.func @int_matmul(%a: tensor<16x64xi8>, %b: tensor<64x32xi8>, %c: tensor<16x32xi32>) -> tensor<16x32xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<16x64xi8>, tensor<64x32xi8>) outs(%c : tensor<16x32xi32>) -> tensor<16x32xi32>
  return %0 : tensor<16x32xi32>
}

// -----

// Elementwise, 24 columns: 12 divides 24 but is no power of two, so one
// full 16-lane tile and a last tile of 8 masked at 16 lanes. Too small for
// threads. With vector-width=8: three full tiles of 8, no mask.
// CHECK-LABEL: func.func @bias_add
// CHECK:         vector.create_mask %c8 : vector<16xi1>
// CHECK:         scf.for {{.*}} = %c0 to %c16 step %c1
// CHECK:           tensor.extract_slice %{{.*}}[%{{.*}}, 0] [1, 16] [1, 1]
// CHECK:           arith.addf {{.*}} : vector<16xf32>
// CHECK:           tensor.extract_slice %{{.*}}[%{{.*}}, 16] [1, 8] [1, 1]
// CHECK:           vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %{{.*}} {in_bounds = [true]} : tensor<1x8xf32>, vector<16xf32>
// CHECK:           arith.addf {{.*}} : vector<16xf32>
// CHECK:           vector.transfer_write {{.*}} : vector<16xf32>, tensor<1x8xf32>
// CHECK-NOT:     aot.parallel
// SMALL-LABEL: func.func @bias_add
// SMALL-NOT:     create_mask
// SMALL:         scf.for {{.*}} = %c0 to %c24 step %c8
// SMALL:           arith.addf {{.*}} : vector<8xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_add(%x: tensor<16x24xf32>, %b: tensor<24xf32>, %o: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<16x24xf32>, tensor<24xf32>) outs(%o : tensor<16x24xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %1 = arith.addf %in, %in_0 : f32
    linalg.yield %1 : f32
  } -> tensor<16x24xf32>
  return %0 : tensor<16x24xf32>
}

// -----

// Dynamic sizes: the column loop is peeled at the last multiple of 16, the
// rest one masked tile; exp becomes a polynomial on vectors (math.floor,
// FMAs), not a call per lane.
// CHECK-LABEL: func.func @dynamic_exp
// CHECK:         %[[N:.*]] = tensor.dim %{{.*}}, %c1
// CHECK:         %[[FULL:.*]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK:         scf.for
// CHECK:           scf.for %{{.*}} = %c0 to %[[FULL]] step %c16
// CHECK:             vector.transfer_read {{.*}} : tensor<1x16xf32>, vector<16xf32>
// CHECK-NOT:         math.exp
// CHECK:             math.floor {{.*}} : vector<16xf32>
// CHECK-NOT:         math.exp
// CHECK:           scf.for %{{.*}} = %[[FULL]] to %[[N]] step %c16
// CHECK:             vector.create_mask %c1, %{{.*}} : vector<1x16xi1>
// CHECK:             vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %{{.*}} {in_bounds = [true]} : tensor<1x?xf32>, vector<16xf32>
// CHECK-NOT:         math.exp
// CHECK:         } {aot.parallel = 0 : i64}
func.func @dynamic_exp(%x: tensor<?x?xf32>, %o: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x?xf32>) outs(%o : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = math.exp %in : f32
    linalg.yield %1 : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Dynamic rows of 64: the row loop goes on threads only from 2048 rows on
// (2^17 elements), recorded in the mark.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         scf.for
// CHECK:           scf.for {{.*}} = %c0 to %c64 step %c16
// CHECK:         } {aot.parallel = 2048 : i64}
func.func @dynamic_rows(%x: tensor<?x64xf32>, %o: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<?x64xf32>) outs(%o : tensor<?x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.negf %in : f32
    linalg.yield %1 : f32
  } -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// Row sums: each row adds 16-lane chunks into one vector of partial sums,
// merged once at the end of the row by a reassociable horizontal add.
// CHECK-LABEL: func.func @row_sum
// CHECK:         scf.for {{.*}} = %c0 to %c16 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c64 step %c16 iter_args({{.*}}) -> ({{.*}}, vector<16xf32>)
// CHECK:             arith.addf {{.*}} : vector<16xf32>
// CHECK:           vector.reduction <add>, {{.*}} fastmath<reassoc> : vector<16xf32> into f32
func.func @row_sum(%x: tensor<16x64xf32>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.reduce ins(%x : tensor<16x64xf32>) outs(%o : tensor<16xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %1 = arith.addf %in, %init : f32
      linalg.yield %1 : f32
    }
  return %r : tensor<16xf32>
}

// -----

// Column maxima: rows stay the outer loop (the input read as it lies); each
// row updates the 40 outputs as two 16-lane tiles and a masked one of 8.
// CHECK-LABEL: func.func @column_max
// CHECK:         scf.for {{.*}} = %c0 to %c16 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c32 step %c16
// CHECK:             arith.maximumf {{.*}} : vector<16xf32>
// CHECK:           tensor.extract_slice %{{.*}}[32] [8] [1]
// CHECK:           arith.maximumf {{.*}} : vector<16xf32>
func.func @column_max(%x: tensor<16x40xf32>, %o: tensor<40xf32>) -> tensor<40xf32> {
  %r = linalg.reduce ins(%x : tensor<16x40xf32>) outs(%o : tensor<40xf32>) dimensions = [0]
    (%in: f32, %init: f32) {
      %1 = arith.maximumf %in, %init : f32
      linalg.yield %1 : f32
    }
  return %r : tensor<40xf32>
}

// -----

// NHWC convolution: per output row (on threads; the batch loop runs once),
// 8 pixels by 32 channels, then a loop per window row, column and input
// channel, each step 8 FMAs of 32 lanes into the held accumulator.
// CHECK-LABEL: func.func @conv
// CHECK:         scf.for {{.*}} = %c0 to %c1 step %c1
// CHECK:           scf.for {{.*}} = %c0 to %c8 step %c1
// CHECK:             scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK:               scf.for {{.*}} = %c0 to %c32 step %c32
// CHECK:                 scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK:                   scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK:                     scf.for {{.*}} = %c0 to %c16 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK-COUNT-8:               vector.fma {{.*}} : vector<32xf32>
// CHECK:           } {aot.parallel = 0 : i64}
func.func @conv(%in: tensor<1x10x18x16xf32>, %f: tensor<3x3x16x32xf32>, %o: tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %f : tensor<1x10x18x16xf32>, tensor<3x3x16x32xf32>) outs(%o : tensor<1x8x16x32xf32>) -> tensor<1x8x16x32xf32>
  return %0 : tensor<1x8x16x32xf32>
}

// -----

// Over an image of dynamic height and width, the register blocks of pixels
// have a loop of their own, peeled: full blocks of 8 pixels as above, the
// last partial block a pixel at a time, its accumulator (one pixel by 32
// channels) held in registers across the window and the input channels.
// No tile is left unvectorized.
// CHECK-LABEL: func.func @dynamic_width_conv
// CHECK-NOT:     linalg.
// CHECK:         scf.for {{.*}} = %c0 to %{{.*}} step %c8
// CHECK:           scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK:             scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK:               scf.for {{.*}} = %c0 to %c16 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK-COUNT-8:         vector.fma {{.*}} : vector<32xf32>
// CHECK:         scf.for {{.*}} = %{{.*}} to %{{.*}} step %c8
// CHECK:           scf.for {{.*}} = %c0 to %{{.*}} step %c1
// CHECK:             scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<32xf32>)
// CHECK:               scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<32xf32>)
// CHECK:                 scf.for {{.*}} = %c0 to %c16 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<32xf32>)
// CHECK:                   vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT:               vector.fma
// CHECK:         } {aot.parallel = 0 : i64}
// CHECK-NOT:     linalg.
func.func @dynamic_width_conv(%in: tensor<1x?x?x16xf32>, %f: tensor<3x3x16x32xf32>, %o: tensor<1x?x?x32xf32>) -> tensor<1x?x?x32xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %f : tensor<1x?x?x16xf32>, tensor<3x3x16x32xf32>) outs(%o : tensor<1x?x?x32xf32>) -> tensor<1x?x?x32xf32>
  return %0 : tensor<1x?x?x32xf32>
}

// -----

// An image of dynamic size counts as smaller than a filter of more than
// 2^18 values (3 x 3 x 256 x 256): blocks of output channels outermost,
// each reading its slice of the filter from a panel, as @filter_blocks.
// CHECK-LABEL: func.func @dynamic_image_large_filter
// CHECK:         scf.for {{.*}} = %c0 to %c256 step %c32
// CHECK:           tensor.extract_slice %arg1[0, 0, 0, %{{.*}}] [3, 3, 256, 32] [1, 1, 1, 1] : tensor<3x3x256x256xf32> to tensor<3x3x256x32xf32>
// CHECK:           bufferization.alloc_tensor() : tensor<3x3x256x32xf32>
// CHECK:           scf.for {{.*}} step %c8
// CHECK-COUNT-8:     vector.fma {{.*}} : vector<32xf32>
func.func @dynamic_image_large_filter(%in: tensor<1x?x?x256xf32>, %f: tensor<3x3x256x256xf32>, %o: tensor<1x?x?x256xf32>) -> tensor<1x?x?x256xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %f : tensor<1x?x?x256xf32>, tensor<3x3x256x256xf32>) outs(%o : tensor<1x?x?x256xf32>) -> tensor<1x?x?x256xf32>
  return %0 : tensor<1x?x?x256xf32>
}

// -----

// A 1 x 1 convolution of unit strides is a matmul of the pixels (32 of
// them, rows of A across the image's rows) by the filter (16 x 32), tiled
// as one: 8 x 32 register tiles over the 16 input channels. The operands
// and the result are reshaped, not copied.
// CHECK-LABEL: func.func @pointwise_conv
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x4x8x16xf32> into tensor<32x16xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x1x16x32xf32> into tensor<16x32xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<1x4x8x32xf32> into tensor<32x32xf32>
// CHECK:         scf.for {{.*}} = %c0 to %c32 step %c8
// CHECK:           scf.for {{.*}} = %c0 to %c32 step %c32
// CHECK:             scf.for {{.*}} = %c0 to %c16 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK-COUNT-8:       vector.fma {{.*}} : vector<32xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 4, 8, 32] : tensor<32x32xf32> into tensor<1x4x8x32xf32>
func.func @pointwise_conv(%in: tensor<1x4x8x16xf32>, %f: tensor<1x1x16x32xf32>, %o: tensor<1x4x8x32xf32>) -> tensor<1x4x8x32xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %f : tensor<1x4x8x16xf32>, tensor<1x1x16x32xf32>) outs(%o : tensor<1x4x8x32xf32>) -> tensor<1x4x8x32xf32>
  return %0 : tensor<1x4x8x32xf32>
}

// -----

// Strided, a 1 x 1 convolution skips pixels: it stays a convolution.
// CHECK-LABEL: func.func @strided_pointwise_conv
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         vector.fma {{.*}} : vector<32xf32>
func.func @strided_pointwise_conv(%in: tensor<1x8x8x16xf32>, %f: tensor<1x1x16x32xf32>, %o: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%in, %f : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%o : tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %0 : tensor<1x4x4x32xf32>
}

// -----

// A filter (3 x 3 x 64 x 64) larger than the image (4 x 4 x 64): blocks of
// 32 output channels outermost (on threads), each block's slice of the
// filter first copied into a panel of its own, a channel row at a time,
// and read from there by the register blocks (2 pixels by 32 channels).
// CHECK-LABEL: func.func @filter_blocks
// CHECK:         scf.for {{.*}} = %c0 to %c64 step %c32
// CHECK:           %[[SLICE:.*]] = tensor.extract_slice %arg1[0, 0, 0, %{{.*}}] [3, 3, 64, 32] [1, 1, 1, 1] : tensor<3x3x64x64xf32> to tensor<3x3x64x32xf32>
// CHECK:           %[[EMPTY:.*]] = bufferization.alloc_tensor() : tensor<3x3x64x32xf32>
// CHECK:           %[[PANEL:.*]] = scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}} = %[[EMPTY]])
// CHECK:             scf.for {{.*}} = %c0 to %c3 step %c1
// CHECK:               scf.for {{.*}} = %c0 to %c64 step %c1
// CHECK:                 vector.transfer_read %[[SLICE]]{{.*}} : tensor<3x3x64x32xf32>, vector<32xf32>
// CHECK:                 vector.transfer_write {{.*}} : vector<32xf32>, tensor<3x3x64x32xf32>
// CHECK:           scf.for {{.*}} = %c0 to %c2 step %c1
// CHECK:                     tensor.extract_slice %[[PANEL]]
// CHECK-COUNT-2:             vector.fma {{.*}} : vector<32xf32>
// CHECK:         } {aot.parallel = 0 : i64}
func.func @filter_blocks(%in: tensor<1x4x4x64xf32>, %f: tensor<3x3x64x64xf32>, %o: tensor<1x2x2x64xf32>) -> tensor<1x2x2x64xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %f : tensor<1x4x4x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x2x2x64xf32>) -> tensor<1x2x2x64xf32>
  return %0 : tensor<1x2x2x64xf32>
}

// -----

// Two rows of A by B stored transposed (N x K): dot products along K, both
// rows by 4 rows of B at a time (8 results), 16 lanes of K a step; the K
// loop is marked for aot-prefetch-rows.
// CHECK-LABEL: func.func @dot_products
// CHECK:         scf.for {{.*}} = %c0 to %c36 step %c4
// CHECK:           scf.for {{.*}} = %c0 to %c96 step %c16 iter_args({{.*}}) -> ({{.*}}, vector<2x4x16xf32>)
// CHECK:           } {aot.prefetch_rows}
// CHECK-COUNT-8:   vector.reduction <add>, {{.*}} fastmath<reassoc> : vector<16xf32> into f32
func.func @dot_products(%a: tensor<2x96xf32>, %b: tensor<36x96xf32>, %c: tensor<2x36xf32>) -> tensor<2x36xf32> {
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<2x96xf32>, tensor<36x96xf32>) outs(%c : tensor<2x36xf32>) -> tensor<2x36xf32>
  return %0 : tensor<2x36xf32>
}

// -----

// 8 rows by a 512 x 512 B: cache blocks of 256 columns (on threads) and 256
// of K, B read where it lies; the loop over K blocks is marked for the
// prefetch of the next block.
// CHECK-LABEL: func.func @cache_blocks
// CHECK:         scf.for {{.*}} = %c0 to %c512 step %c256
// CHECK:           scf.for {{.*}} = %c0 to %c512 step %c256
// CHECK:             tensor.extract_slice %{{.*}} [256, 256] [1, 1] : tensor<512x512xf32> to tensor<256x256xf32>
// CHECK:                 scf.for {{.*}} = %c0 to %c256 step %c1 iter_args({{.*}}) -> ({{.*}}, vector<8x32xf32>)
// CHECK:           } {aot.prefetch_next_block}
// CHECK:         } {aot.parallel = 0 : i64}
func.func @cache_blocks(%a: tensor<8x512xf32>, %b: tensor<512x512xf32>, %c: tensor<8x512xf32>) -> tensor<8x512xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x512xf32>, tensor<512x512xf32>) outs(%c : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %0 : tensor<8x512xf32>
}

// -----

// An op on i1 (a byte per element in memory, packed bits in a vector) is
// left untouched for the loop lowering.
// CHECK-LABEL: func.func @compare
// CHECK-NEXT:    linalg.generic
// CHECK-NOT:     vector.
func.func @compare(%x: tensor<8x32xf32>, %y: tensor<8x32xf32>, %o: tensor<8x32xi1>) -> tensor<8x32xi1> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8x32xf32>, tensor<8x32xf32>) outs(%o : tensor<8x32xi1>) {
  ^bb0(%a: f32, %b: f32, %out: i1):
    %1 = arith.cmpf ogt, %a, %b : f32
    linalg.yield %1 : i1
  } -> tensor<8x32xi1>
  return %0 : tensor<8x32xi1>
}

// -----

// Two batch dims side by side in every operand (batch x heads, as attention
// comes in from ONNX): one batch dim of their product, reshaped without a
// copy, and the batch matmul's register tiles (8 rows by 32 columns).
// CHECK-LABEL: func.func @two_batch_dims
// CHECK:         tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2], [3]] : tensor<?x3x8x16xf32> into tensor<?x8x16xf32>
// CHECK:         tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2], [3]] : tensor<?x3x16x32xf32> into tensor<?x16x32xf32>
// CHECK:         tensor.collapse_shape %arg2 {{\[\[}}0, 1], [2], [3]] : tensor<?x3x8x32xf32> into tensor<?x8x32xf32>
// CHECK:         scf.for {{.*}} -> (tensor<?x8x32xf32>, tensor<1x8x32xf32>, vector<8x32xf32>)
// CHECK-COUNT-8:   vector.fma {{.*}} : vector<32xf32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [%{{.*}}, 3, 8, 32] : tensor<?x8x32xf32> into tensor<?x3x8x32xf32>
#a = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#b = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
func.func @two_batch_dims(%q: tensor<?x3x8x16xf32>, %k: tensor<?x3x16x32xf32>, %o: tensor<?x3x8x32xf32>) -> tensor<?x3x8x32xf32> {
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<?x3x8x16xf32>, tensor<?x3x16x32xf32>) outs(%o : tensor<?x3x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x3x8x32xf32>
  return %0 : tensor<?x3x8x32xf32>
}

// -----

// Batch dims in another order in A: no one dim indexes them all alike; the
// op stays as it is (dot products along K).
// CHECK-LABEL: func.func @batch_dims_apart
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         vector.reduction <add>
#a = affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d2, d4)>
#b = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
func.func @batch_dims_apart(%q: tensor<3x2x8x16xf32>, %k: tensor<2x3x16x32xf32>, %o: tensor<2x3x8x32xf32>) -> tensor<2x3x8x32xf32> {
  %0 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<3x2x8x16xf32>, tensor<2x3x16x32xf32>) outs(%o : tensor<2x3x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x8x32xf32>
  return %0 : tensor<2x3x8x32xf32>
}

// -----

// A transpose that moves the innermost dim: 8 x 8 tiles over the two dims
// it swaps, each read as 8 rows of the input and written as 8 rows of the
// output. Where either dim is not a multiple of 8 it is left as it is
// (element by element).
// CHECK-LABEL: func.func @transpose_tiles
// CHECK:         scf.for {{.*}} = %c0 to %c24 step %c8
// CHECK:           scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK:             vector.transfer_read {{.*}} permutation_map = {{.*}} : tensor<8x1x8xf32>, vector<8x8xf32>
// CHECK:             vector.transfer_write {{.*}} : vector<8x8xf32>, tensor<1x8x8xf32>
// CHECK-LABEL: func.func @transpose_partial
// CHECK-NOT:     vector.
// CHECK:         linalg.transpose
func.func @transpose_tiles(%x: tensor<16x3x24xf32>) -> tensor<3x24x16xf32> {
  %e = tensor.empty() : tensor<3x24x16xf32>
  %t = linalg.transpose ins(%x : tensor<16x3x24xf32>) outs(%e : tensor<3x24x16xf32>) permutation = [1, 2, 0]
  return %t : tensor<3x24x16xf32>
}
func.func @transpose_partial(%x: tensor<12x20xf32>) -> tensor<20x12xf32> {
  %e = tensor.empty() : tensor<20x12xf32>
  %t = linalg.transpose ins(%x : tensor<12x20xf32>) outs(%e : tensor<20x12xf32>) permutation = [1, 0]
  return %t : tensor<20x12xf32>
}

// -----

// Results that start as a fill, cut into cache blocks that each run all of
// K: each block fills its own slice (a vector loop inside the loop over row
// blocks) just before its register tiles, and the fill of the whole goes.
// Where K runs in two blocks the second adds to what the first wrote, so
// the whole fill stays, before the blocks.
// CHECK-LABEL: func.func @block_fills
// CHECK-NOT:     vector.transfer_write
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<256x512xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[EMPTY]])
// CHECK:             scf.for {{.*}} = %c0 to %c256 step %c64
// CHECK:               vector.transfer_write %cst{{.*}} : vector<16xf32>, tensor<1x16xf32>
// CHECK:               scf.for {{.*}} = %c0 to %c512 step %c1 iter_args
// CHECK-LABEL: func.func @whole_fill
// CHECK:         vector.transfer_write %cst{{.*}} : vector<16xf32>, tensor<16xf32>
// CHECK:         %[[WHOLE:.*]] = tensor.expand_shape
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[WHOLE]])
// CHECK:           scf.for {{.*}} = %c0 to %c1024 step %c512
func.func @block_fills(%a: tensor<256x512xf32>, %b: tensor<512x512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}
func.func @whole_fill(%a: tensor<256x1024xf32>, %b: tensor<1024x512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<256x1024xf32>, tensor<1024x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %0 : tensor<256x512xf32>
}
