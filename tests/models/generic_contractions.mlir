// Matmuls written as linalg.generic (generic_contractions.py): each must be
// tiled and vectorized as a contraction, whatever its operand layout or
// loop order.

// C[m, n] += A[m, k] * B[k, n]
func.func @mm_generic(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>) -> tensor<16x24xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>) outs(%f : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}

// C[m, n] += A[m, k] * B[n, k]
func.func @mm_b_transposed(%a: tensor<16x32xf32>, %b: tensor<24x32xf32>) -> tensor<16x24xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<24x32xf32>) outs(%f : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}

// C[m, n] += A[k, m] * B[k, n]
func.func @mm_a_transposed(%a: tensor<32x16xf32>, %b: tensor<32x24xf32>) -> tensor<16x24xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>,
                       affine_map<(m, n, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<32x16xf32>, tensor<32x24xf32>) outs(%f : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}

// The loops in the order (n, m, k).
func.func @mm_loops_nmk(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>) -> tensor<16x24xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(n, m, k) -> (m, k)>, affine_map<(n, m, k) -> (k, n)>,
                       affine_map<(n, m, k) -> (m, n)>],
      iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>) outs(%f : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}

// C[b, m, n] += A[b, m, k] * B[b, k, n]
func.func @bmm_generic(%a: tensor<3x16x32xf32>, %b: tensor<3x32x24xf32>) -> tensor<3x16x24xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x16x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x16x24xf32>) -> tensor<3x16x24xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>,
                       affine_map<(b, m, n, k) -> (b, m, n)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<3x16x32xf32>, tensor<3x32x24xf32>) outs(%f : tensor<3x16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x16x24xf32>
  return %r : tensor<3x16x24xf32>
}
