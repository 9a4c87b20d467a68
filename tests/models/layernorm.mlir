// Layer normalisation over the last axis with math.rsqrt and broadcast gamma/beta,
// followed by the tanh approximation of GELU.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowv = affine_map<(d0, d1) -> (d0)>
#colv = affine_map<(d0, d1) -> (d1)>

func.func @layernorm(%x: tensor<6x32xf32>, %gamma: tensor<32xf32>, %beta: tensor<32xf32>) -> tensor<6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 32.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<6xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.reduce ins(%x : tensor<6x32xf32>) outs(%z1 : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<6x32xf32>
  %centred = linalg.generic {indexing_maps = [#id2, #rowv, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<6x32xf32>, tensor<6xf32>) outs(%e2 : tensor<6x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %v, %mean : f32
    linalg.yield %d : f32
  } -> tensor<6x32xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<6xf32>) -> tensor<6xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #rowv], iterator_types = ["parallel", "reduction"]}
      ins(%centred : tensor<6x32xf32>) outs(%z2 : tensor<6xf32>) {
  ^bb0(%d: f32, %acc: f32):
    %sq = arith.mulf %d, %d : f32
    %a = arith.addf %sq, %acc : f32
    linalg.yield %a : f32
  } -> tensor<6xf32>
  %e3 = tensor.empty() : tensor<6x32xf32>
  %y = linalg.generic {indexing_maps = [#id2, #rowv, #colv, #colv, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%centred, %ss, %gamma, %beta : tensor<6x32xf32>, tensor<6xf32>, tensor<32xf32>, tensor<32xf32>)
      outs(%e3 : tensor<6x32xf32>) {
  ^bb0(%d: f32, %s: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %nd = arith.mulf %d, %r : f32
    %sc = arith.mulf %nd, %gv : f32
    %sh = arith.addf %sc, %bv : f32
    linalg.yield %sh : f32
  } -> tensor<6x32xf32>
  return %y : tensor<6x32xf32>
}

// gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
func.func @gelu_tanh(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.7978845608028654 : f32
  %c = arith.constant 0.044715 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %cv3 = arith.mulf %c, %v3 : f32
    %in = arith.addf %v, %cv3 : f32
    %arg = arith.mulf %k, %in : f32
    %t = math.tanh %arg : f32
    %t1 = arith.addf %one, %t : f32
    %hv = arith.mulf %half, %v : f32
    %r = arith.mulf %hv, %t1 : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
