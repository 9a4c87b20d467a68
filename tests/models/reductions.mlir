// Reductions: linalg.reduce (sum, max) over one axis, a full reduction to a rank-0
// tensor, a linalg.generic reduction (mean over the last axis of a 3-D tensor), and
// integer reductions.

func.func @sum_axis1(%x: tensor<16x32xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reduce ins(%x : tensor<16x32xf32>) outs(%init : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<16xf32>
}

func.func @max_axis0(%x: tensor<16x32xf32>) -> tensor<32xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<32xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %r = linalg.reduce ins(%x : tensor<16x32xf32>) outs(%init : tensor<32xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<32xf32>
}

// Full reduction: rank-0 result.
func.func @sum_all(%x: tensor<8x8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<8x8xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// Mean over the last axis, reduction written as linalg.generic.
func.func @mean_axis2(%x: tensor<2x3x10xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 10.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<2x3x10xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// Integer reductions: sum over axis 0 (i32) and min over axis 1 (i64), two results.
func.func @int_sum_min(%x: tensor<5x7xi32>, %y: tensor<4x6xi64>) -> (tensor<7xi32>, tensor<4xi64>) {
  %zero = arith.constant 0 : i32
  %big = arith.constant 9223372036854775807 : i64
  %e0 = tensor.empty() : tensor<7xi32>
  %i0 = linalg.fill ins(%zero : i32) outs(%e0 : tensor<7xi32>) -> tensor<7xi32>
  %r0 = linalg.reduce ins(%x : tensor<5x7xi32>) outs(%i0 : tensor<7xi32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %s = arith.addi %in, %acc : i32
      linalg.yield %s : i32
    }
  %e1 = tensor.empty() : tensor<4xi64>
  %i1 = linalg.fill ins(%big : i64) outs(%e1 : tensor<4xi64>) -> tensor<4xi64>
  %r1 = linalg.reduce ins(%y : tensor<4x6xi64>) outs(%i1 : tensor<4xi64>) dimensions = [1]
    (%in: i64, %acc: i64) {
      %m = arith.minsi %in, %acc : i64
      linalg.yield %m : i64
    }
  return %r0, %r1 : tensor<7xi32>, tensor<4xi64>
}

// TOSA reductions keep the reduced axis with size 1.
func.func @tosa_reduce(%x: tensor<4x6xf32>) -> (tensor<4x1xf32>, tensor<1x6xf32>) {
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  %m = tosa.reduce_max %x {axis = 0 : i32} : (tensor<4x6xf32>) -> tensor<1x6xf32>
  return %s, %m : tensor<4x1xf32>, tensor<1x6xf32>
}
