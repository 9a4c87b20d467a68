// f32 math in a kernel: what MLIR approximates with arithmetic (exp, tanh,
// erf, log) and what PTX has instructions for (sqrt, fma, floor).
#id = affine_map<(d0) -> (d0)>
func.func @math(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = math.exp %v : f32
    %b = math.tanh %a : f32
    %c = math.erf %b : f32
    %d = math.log %a : f32
    %s = math.sqrt %a : f32
    %f = math.fma %c, %d, %s : f32
    %g = math.floor %f : f32
    linalg.yield %g : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
