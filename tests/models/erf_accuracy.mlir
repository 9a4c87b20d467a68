// math.erf on f32 over its whole range, element by element: the vectorized
// code evaluates a polynomial approximation (a rational function on the
// CPU), the -O0 code a libm call; both within a few ulp of erf.

func.func @erf_f32(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.erf %v : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}
