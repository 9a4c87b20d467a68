// The 8-bit floats: every code of each format widened, f32/f64/f16/bf16
// rounded to each format (ties, subnormals, overflow, NaN, infinities, -0),
// elementwise arithmetic computed in f32 and rounded once, matmuls with f32
// accumulation (static and dynamic), a constant, a dynamic shape.

func.func @ext_e4m3fn(%x: tensor<256xf8E4M3FN>) -> tensor<256xf32> {
  %0 = arith.extf %x : tensor<256xf8E4M3FN> to tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func @ext_e5m2(%x: tensor<256xf8E5M2>) -> tensor<256xf32> {
  %0 = arith.extf %x : tensor<256xf8E5M2> to tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func @ext_e4m3fnuz(%x: tensor<256xf8E4M3FNUZ>) -> tensor<256xf32> {
  %0 = arith.extf %x : tensor<256xf8E4M3FNUZ> to tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func @ext_e5m2fnuz(%x: tensor<256xf8E5M2FNUZ>) -> tensor<256xf32> {
  %0 = arith.extf %x : tensor<256xf8E5M2FNUZ> to tensor<256xf32>
  return %0 : tensor<256xf32>
}
func.func @ext_e5m2_to_f16(%x: tensor<256xf8E5M2>) -> tensor<256xf16> {
  %0 = arith.extf %x : tensor<256xf8E5M2> to tensor<256xf16>
  return %0 : tensor<256xf16>
}
func.func @ext_e4m3fnuz_dyn(%x: tensor<?xf8E4M3FNUZ>) -> tensor<?xf64> {
  %0 = arith.extf %x : tensor<?xf8E4M3FNUZ> to tensor<?xf64>
  return %0 : tensor<?xf64>
}

func.func @trunc_e4m3fn(%x: tensor<301xf32>) -> tensor<301xf8E4M3FN> {
  %0 = arith.truncf %x : tensor<301xf32> to tensor<301xf8E4M3FN>
  return %0 : tensor<301xf8E4M3FN>
}
func.func @trunc_e5m2(%x: tensor<301xf32>) -> tensor<301xf8E5M2> {
  %0 = arith.truncf %x : tensor<301xf32> to tensor<301xf8E5M2>
  return %0 : tensor<301xf8E5M2>
}
func.func @trunc_e4m3fnuz(%x: tensor<301xf32>) -> tensor<301xf8E4M3FNUZ> {
  %0 = arith.truncf %x : tensor<301xf32> to tensor<301xf8E4M3FNUZ>
  return %0 : tensor<301xf8E4M3FNUZ>
}
func.func @trunc_e5m2fnuz(%x: tensor<301xf32>) -> tensor<301xf8E5M2FNUZ> {
  %0 = arith.truncf %x : tensor<301xf32> to tensor<301xf8E5M2FNUZ>
  return %0 : tensor<301xf8E5M2FNUZ>
}
func.func @trunc_f64_e5m2(%x: tensor<301xf64>) -> tensor<301xf8E5M2> {
  %0 = arith.truncf %x : tensor<301xf64> to tensor<301xf8E5M2>
  return %0 : tensor<301xf8E5M2>
}
func.func @trunc_bf16_e4m3fn(%x: tensor<64xbf16>) -> tensor<64xf8E4M3FN> {
  %0 = arith.truncf %x : tensor<64xbf16> to tensor<64xf8E4M3FN>
  return %0 : tensor<64xf8E4M3FN>
}
func.func @trunc_f16_e5m2fnuz(%x: tensor<64xf16>) -> tensor<64xf8E5M2FNUZ> {
  %0 = arith.truncf %x : tensor<64xf16> to tensor<64xf8E5M2FNUZ>
  return %0 : tensor<64xf8E5M2FNUZ>
}

#id = affine_map<(i) -> (i)>
func.func @arith_e4m3fn(%a: tensor<64xf8E4M3FN>, %b: tensor<64xf8E4M3FN>)
    -> (tensor<64xf8E4M3FN>, tensor<64xf8E4M3FN>, tensor<64xf8E4M3FN>, tensor<64xf8E4M3FN>) {
  %add = arith.addf %a, %b : tensor<64xf8E4M3FN>
  %mul = arith.mulf %a, %b : tensor<64xf8E4M3FN>
  %e = tensor.empty() : tensor<64xf8E4M3FN>
  %sub = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xf8E4M3FN>, tensor<64xf8E4M3FN>) outs(%e : tensor<64xf8E4M3FN>) {
  ^bb0(%x: f8E4M3FN, %y: f8E4M3FN, %o: f8E4M3FN):
    %d = arith.subf %x, %y : f8E4M3FN
    linalg.yield %d : f8E4M3FN
  } -> tensor<64xf8E4M3FN>
  %max = arith.maximumf %a, %b : tensor<64xf8E4M3FN>
  return %add, %mul, %sub, %max : tensor<64xf8E4M3FN>, tensor<64xf8E4M3FN>, tensor<64xf8E4M3FN>, tensor<64xf8E4M3FN>
}
func.func @arith_e5m2_dyn(%a: tensor<?xf8E5M2>, %b: tensor<?xf8E5M2>) -> tensor<?xf8E5M2> {
  %0 = arith.divf %a, %b : tensor<?xf8E5M2>
  return %0 : tensor<?xf8E5M2>
}

func.func @matmul_e4m3fn(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x24xf8E4M3FN>) -> tensor<16x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<16x32xf8E4M3FN>, tensor<32x24xf8E4M3FN>)
                     outs(%acc : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %0 : tensor<16x24xf32>
}
func.func @matmul_e5m2_dyn(%a: tensor<?x?xf8E5M2>, %b: tensor<?x?xf8E5M2>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf8E5M2>
  %n = tensor.dim %b, %c1 : tensor<?x?xf8E5M2>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xf8E5M2>, tensor<?x?xf8E5M2>)
                     outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @const_e4m3fn(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[0.5, -1.5, 448.0, 0.015625]> : tensor<4xf8E4M3FN>
  %w = arith.extf %c : tensor<4xf8E4M3FN> to tensor<4xf32>
  %0 = arith.addf %x, %w : tensor<4xf32>
  return %0 : tensor<4xf32>
}
