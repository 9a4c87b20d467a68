// Row softmax of a 4096×4096 f32 tensor for the GPU benchmark (bench/gpu):
// y = exp(x - max(x)) / sum(exp(x - max(x))) along the last axis.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4096xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %max = linalg.reduce ins(%x : tensor<4096x4096xf32>) outs(%minit : tensor<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<4096x4096xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096x4096xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4096x4096xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %sum = linalg.reduce ins(%ex : tensor<4096x4096xf32>) outs(%sinit : tensor<4096xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%e2 : tensor<4096x4096xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
