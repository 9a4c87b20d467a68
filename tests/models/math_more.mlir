// Math functions not covered by the other models, each checked against
// numpy on inputs in its domain: on f32 vectors (MLIR's polynomial
// approximations where it has one, libm otherwise), the rounding functions
// with ties, the classification predicates on NaN, infinities and
// subnormals, and the integer ops; ipowi and fpowi become functions of
// their own (convert-math-to-funcs), in kernels too.

func.func @unary(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %acos = math.acos %x : tensor<64xf32>
  %asin = math.asin %x : tensor<64xf32>
  %asinh = math.asinh %x : tensor<64xf32>
  %atan = math.atan %x : tensor<64xf32>
  %atanh = math.atanh %x : tensor<64xf32>
  %cbrt = math.cbrt %x : tensor<64xf32>
  %cos = math.cos %x : tensor<64xf32>
  %cosh = math.cosh %x : tensor<64xf32>
  %erfc = math.erfc %x : tensor<64xf32>
  %exp2 = math.exp2 %x : tensor<64xf32>
  %sinh = math.sinh %x : tensor<64xf32>
  %tan = math.tan %x : tensor<64xf32>
  return %acos, %asin, %asinh, %atan, %atanh, %cbrt, %cos, %cosh, %erfc, %exp2, %sinh, %tan : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

func.func @logs(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %log10 = math.log10 %x : tensor<64xf32>
  %log2 = math.log2 %x : tensor<64xf32>
  return %log10, %log2 : tensor<64xf32>, tensor<64xf32>
}

func.func @rounding(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %ceil = math.ceil %x : tensor<64xf32>
  %floor = math.floor %x : tensor<64xf32>
  %round = math.round %x : tensor<64xf32>
  %roundeven = math.roundeven %x : tensor<64xf32>
  %trunc = math.trunc %x : tensor<64xf32>
  return %ceil, %floor, %round, %roundeven, %trunc : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

func.func @inverse_cosh(%x: tensor<64xf32>) -> (tensor<64xf32>) {
  %acosh = math.acosh %x : tensor<64xf32>
  return %acosh : tensor<64xf32>
}

func.func @binary(%x: tensor<64xf32>, %y: tensor<64xf32>, %z: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %atan2 = math.atan2 %x, %y : tensor<64xf32>
  %copysign = math.copysign %x, %y : tensor<64xf32>
  %powf = math.powf %z, %x : tensor<64xf32>
  %fma = math.fma %x, %y, %z : tensor<64xf32>
  return %atan2, %copysign, %powf, %fma : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

func.func @classify(%x: tensor<64xf32>) -> (tensor<64xi1>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>) {
  %isnan = math.isnan %x : tensor<64xf32>
  %isinf = math.isinf %x : tensor<64xf32>
  %isfinite = math.isfinite %x : tensor<64xf32>
  %isnormal = math.isnormal %x : tensor<64xf32>
  return %isnan, %isinf, %isfinite, %isnormal : tensor<64xi1>, tensor<64xi1>, tensor<64xi1>, tensor<64xi1>
}

func.func @integer(%n: tensor<64xi32>, %p: tensor<64xi32>) -> (tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>) {
  %absi = math.absi %n : tensor<64xi32>
  %ctlz = math.ctlz %n : tensor<64xi32>
  %cttz = math.cttz %n : tensor<64xi32>
  %ctpop = math.ctpop %n : tensor<64xi32>
  %ipowi = math.ipowi %n, %p : tensor<64xi32>
  return %absi, %ctlz, %cttz, %ctpop, %ipowi : tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>
}

func.func @fpowi(%x: tensor<64xf32>, %p: tensor<64xi32>) -> (tensor<64xf32>) {
  %r = math.fpowi %x, %p : tensor<64xf32>, tensor<64xi32>
  return %r : tensor<64xf32>
}
