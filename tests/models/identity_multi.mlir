// Functions that return their arguments unchanged (results aliasing inputs) and
// functions with several results, including the same value returned twice.

func.func @identity(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  return %x : tensor<3x4xf32>
}

func.func @identity_dyn_i64(%x: tensor<?xi64>) -> tensor<?xi64> {
  return %x : tensor<?xi64>
}

func.func @swap(%a: tensor<2x3xf32>, %b: tensor<5xi16>) -> (tensor<5xi16>, tensor<2x3xf32>) {
  return %b, %a : tensor<5xi16>, tensor<2x3xf32>
}

// The same argument returned twice.
func.func @same_twice(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  return %x, %x : tensor<4xi32>, tensor<4xi32>
}

// An argument passed through next to a newly computed result.
func.func @pass_and_double(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4xi32>
  %d = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xi32>) outs(%e : tensor<4xi32>) {
  ^bb0(%v: i32, %o: i32):
    %s = arith.addi %v, %v : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %x, %d : tensor<4xi32>, tensor<4xi32>
}

// Row statistics: min, max and the row-centred input (x - mean), three results of two
// ranks; the rank-0 total is a fourth result.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowv = affine_map<(d0, d1) -> (d0)>
func.func @row_stats(%x: tensor<6x5xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6x5xf32>, tensor<f32>) {
  %pinf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %five = arith.constant 5.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %mi = linalg.fill ins(%pinf : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %min = linalg.reduce ins(%x : tensor<6x5xf32>) outs(%mi : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.minimumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %ma = linalg.fill ins(%ninf : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %max = linalg.reduce ins(%x : tensor<6x5xf32>) outs(%ma : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %si = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.reduce ins(%x : tensor<6x5xf32>) outs(%si : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<6x5xf32>
  %c = linalg.generic {indexing_maps = [#id2, #rowv, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<6x5xf32>, tensor<6xf32>) outs(%e2 : tensor<6x5xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %mean = arith.divf %s, %five : f32
    %d = arith.subf %v, %mean : f32
    linalg.yield %d : f32
  } -> tensor<6x5xf32>
  %e0 = tensor.empty() : tensor<f32>
  %ti = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %tot = linalg.reduce ins(%sum : tensor<6xf32>) outs(%ti : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %min, %max, %c, %tot : tensor<6xf32>, tensor<6xf32>, tensor<6x5xf32>, tensor<f32>
}
