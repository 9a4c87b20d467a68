// Reductions for the GPU mapping: along rows (a warp per output: f32 sum,
// max over the last of three dims, i32 sum, a 64-bit sum), down columns and
// shorter than a warp (a thread per output).
func.func @row_sum(%x: tensor<100x1000xf32>) -> tensor<100x1xf32> {
  %r = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<100x1000xf32>) -> tensor<100x1xf32>
  return %r : tensor<100x1xf32>
}

func.func @row_max(%x: tensor<4x50x77xf32>) -> tensor<4x50x1xf32> {
  %r = tosa.reduce_max %x {axis = 2 : i32} : (tensor<4x50x77xf32>) -> tensor<4x50x1xf32>
  return %r : tensor<4x50x1xf32>
}

func.func @int_sum(%x: tensor<64x40xi32>) -> tensor<64x1xi32> {
  %r = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<64x40xi32>) -> tensor<64x1xi32>
  return %r : tensor<64x1xi32>
}

func.func @wide_sum(%x: tensor<8x64xf64>) -> tensor<8x1xf64> {
  %r = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<8x64xf64>) -> tensor<8x1xf64>
  return %r : tensor<8x1xf64>
}

func.func @col_sum(%x: tensor<1000x100xf32>) -> tensor<1x100xf32> {
  %r = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<1000x100xf32>) -> tensor<1x100xf32>
  return %r : tensor<1x100xf32>
}

func.func @short_sum(%x: tensor<100x20xf32>) -> tensor<100x1xf32> {
  %r = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<100x20xf32>) -> tensor<100x1xf32>
  return %r : tensor<100x1xf32>
}

// A matmul reads B down K: it keeps its thread per output element.
func.func @matmul(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// A sum of index values (no 32-bit shuffle carries them): a thread per row.
func.func @index_sum(%x: tensor<16x64xi32>) -> tensor<16xi32> {
  %xi = arith.index_cast %x : tensor<16x64xi32> to tensor<16x64xindex>
  %zero = arith.constant 0 : index
  %e = tensor.empty() : tensor<16xindex>
  %init = linalg.fill ins(%zero : index) outs(%e : tensor<16xindex>) -> tensor<16xindex>
  %r = linalg.reduce ins(%xi : tensor<16x64xindex>) outs(%init : tensor<16xindex>) dimensions = [1]
    (%in: index, %acc: index) {
      %s = arith.addi %in, %acc : index
      linalg.yield %s : index
    }
  %r32 = arith.index_cast %r : tensor<16xindex> to tensor<16xi32>
  return %r32 : tensor<16xi32>
}
