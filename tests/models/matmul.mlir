// linalg.matmul on f32: a 64x64x64 product, a small non-square one, and a matmul
// followed by a fused bias add in linalg.generic.

func.func @matmul_64(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @matmul_rect(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>)
                     outs(%c : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func @matmul_bias(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>, %bias: tensor<24xf32>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>)
                     outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
  %init = tensor.empty() : tensor<16x24xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m, %bias : tensor<16x24xf32>, tensor<24xf32>) outs(%init : tensor<16x24xf32>) {
  ^bb0(%mv: f32, %bv: f32, %o: f32):
    %s = arith.addf %mv, %bv : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}
