// One public function whose reference uses mlir-tcp's aot_compile keys,
// Input0, Input1, ... and Output0, ...: a scalar and a dynamic tensor in,
// a tensor and a rank-0 tensor out.
func.func @scale_and_sum(%x: tensor<?x3xf32>, %s: f32) -> (tensor<?x3xf32>, tensor<f32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%m) : tensor<?x3xf32>
  %scaled = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x3xf32>) outs(%e : tensor<?x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %p = arith.mulf %v, %s : f32
    linalg.yield %p : f32
  } -> tensor<?x3xf32>
  %init0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%init0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%x : tensor<?x3xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %scaled, %sum : tensor<?x3xf32>, tensor<f32>
}
