// Numerically stable softmax along the last axis, written with linalg.reduce,
// linalg.generic and math.exp: y = exp(x - max(x)) / sum(exp(x - max(x))).
// Inputs reach |x| ~ 200, where exp(x) alone overflows f32.

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowv = affine_map<(d0, d1) -> (d0)>

func.func @softmax_rows(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.reduce ins(%x : tensor<8x32xf32>) outs(%minit : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<8x32xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #rowv, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<8x32xf32>, tensor<8xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %m: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<8x32xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%ex : tensor<8x32xf32>) outs(%sinit : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e3 = tensor.empty() : tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [#id2, #rowv, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<8x32xf32>, tensor<8xf32>) outs(%e3 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %q = arith.divf %v, %s : f32
    linalg.yield %q : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}

// log_softmax on a 3-D tensor along the last axis: x - max - log(sum(exp(x - max))).
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#red3 = affine_map<(d0, d1, d2) -> (d0, d1)>

func.func @log_softmax_3d(%x: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x4xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %max = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x4x16xf32>) outs(%minit : tensor<2x4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %v, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2x4xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3, #red3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %max : tensor<2x4x16xf32>, tensor<2x4xf32>) outs(%sinit : tensor<2x4xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %e2 = tensor.empty() : tensor<2x4x16xf32>
  %y = linalg.generic {indexing_maps = [#id3, #red3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<2x4xf32>) outs(%e2 : tensor<2x4x16xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %l = math.log %s : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16xf32>
  return %y : tensor<2x4x16xf32>
}
