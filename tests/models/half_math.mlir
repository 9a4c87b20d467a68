// Math on f16 and bf16 is computed in f32 and rounded once
// (math-extend-to-supported-types), so each result is the f16/bf16 value
// nearest to the f32 one, not the end of a computation in half precision.
func.func @f16_math(%x: tensor<128xf16>) -> (tensor<128xf16>, tensor<128xf16>, tensor<128xf16>, tensor<128xf16>, tensor<128xf16>, tensor<128xf16>) {
  %a = math.expm1 %x : tensor<128xf16>
  %b = math.exp %x : tensor<128xf16>
  %c = math.tanh %x : tensor<128xf16>
  %d = math.erf %x : tensor<128xf16>
  %e = math.sin %x : tensor<128xf16>
  %ax = math.absf %x : tensor<128xf16>
  %f = math.log1p %ax : tensor<128xf16>
  return %a, %b, %c, %d, %e, %f : tensor<128xf16>, tensor<128xf16>, tensor<128xf16>, tensor<128xf16>, tensor<128xf16>, tensor<128xf16>
}

func.func @bf16_math(%x: tensor<64xbf16>) -> (tensor<64xbf16>, tensor<64xbf16>) {
  %a = math.expm1 %x : tensor<64xbf16>
  %b = math.tanh %x : tensor<64xbf16>
  return %a, %b : tensor<64xbf16>, tensor<64xbf16>
}

// The same off the vector path: element by element (dynamic shape, whose
// remainder is scalar code, and a 0-d tensor, which is never vectorized).
func.func @f16_expm1_dynamic(%x: tensor<?xf16>) -> tensor<?xf16> {
  %a = math.expm1 %x : tensor<?xf16>
  return %a : tensor<?xf16>
}

func.func @f16_expm1_scalar(%x: tensor<f16>) -> tensor<f16> {
  %a = math.expm1 %x : tensor<f16>
  return %a : tensor<f16>
}
