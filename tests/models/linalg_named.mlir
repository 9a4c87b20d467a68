// Named linalg ops not covered by the other models: matrix-vector
// products, mmt4d, convolutions and pooling in other layouts and ranks,
// the quantized matmul, and the named elementwise ops, against numpy.

func.func @unary(%a: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %exp = linalg.exp ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %log = linalg.log ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %sqrt = linalg.sqrt ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %rsqrt = linalg.rsqrt ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %tanh = linalg.tanh ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %abs = linalg.abs ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %negf = linalg.negf ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %floor = linalg.floor ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ceil = linalg.ceil ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %round = linalg.round ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %square = linalg.square ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %reciprocal = linalg.reciprocal ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %erf = linalg.erf ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %copy = linalg.copy ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %exp, %log, %sqrt, %rsqrt, %tanh, %abs, %negf, %floor, %ceil, %round, %square, %reciprocal, %erf, %copy : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

func.func @binary(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %sub = linalg.sub ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %max = linalg.max ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %min = linalg.min ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %powf = linalg.powf ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %sub, %max, %min, %powf : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
func.func @select_map(%c: tensor<8x16xi1>, %a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %s = linalg.select ins(%c, %a, %b : tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.map ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %p, %x : f32
      linalg.yield %q : f32
    }
  return %s, %m : tensor<8x16xf32>, tensor<8x16xf32>
}

func.func @vectors(%m: tensor<24x40xf32>, %x: tensor<40xf32>, %y: tensor<24xf32>, %bm: tensor<3x24x40xf32>, %bx: tensor<3x40xf32>)
    -> (tensor<24xf32>, tensor<40xf32>, tensor<f32>, tensor<3x24xf32>) {
  %z = arith.constant 0.0 : f32
  %e24 = tensor.empty() : tensor<24xf32>
  %f24 = linalg.fill ins(%z : f32) outs(%e24 : tensor<24xf32>) -> tensor<24xf32>
  %mv = linalg.matvec ins(%m, %x : tensor<24x40xf32>, tensor<40xf32>) outs(%f24 : tensor<24xf32>) -> tensor<24xf32>
  %e40 = tensor.empty() : tensor<40xf32>
  %f40 = linalg.fill ins(%z : f32) outs(%e40 : tensor<40xf32>) -> tensor<40xf32>
  %vm = linalg.vecmat ins(%y, %m : tensor<24xf32>, tensor<24x40xf32>) outs(%f40 : tensor<40xf32>) -> tensor<40xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %dot = linalg.dot ins(%x, %x : tensor<40xf32>, tensor<40xf32>) outs(%f0 : tensor<f32>) -> tensor<f32>
  %eb = tensor.empty() : tensor<3x24xf32>
  %fb = linalg.fill ins(%z : f32) outs(%eb : tensor<3x24xf32>) -> tensor<3x24xf32>
  %bmv = linalg.batch_matvec ins(%bm, %bx : tensor<3x24x40xf32>, tensor<3x40xf32>) outs(%fb : tensor<3x24xf32>) -> tensor<3x24xf32>
  return %mv, %vm, %dot, %bmv : tensor<24xf32>, tensor<40xf32>, tensor<f32>, tensor<3x24xf32>
}

// mmt4d: packed LHS (M1 x K1 x m0 x k0) times packed, transposed RHS
// (N1 x K1 x n0 x k0) into M1 x N1 x m0 x n0.
func.func @mmt4d(%a: tensor<3x5x4x2xf32>, %b: tensor<6x5x8x2xf32>) -> tensor<3x6x4x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x6x4x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x6x4x8xf32>) -> tensor<3x6x4x8xf32>
  %r = linalg.mmt4d ins(%a, %b : tensor<3x5x4x2xf32>, tensor<6x5x8x2xf32>) outs(%f : tensor<3x6x4x8xf32>) -> tensor<3x6x4x8xf32>
  return %r : tensor<3x6x4x8xf32>
}

func.func @convolutions(%x1: tensor<2x20x3xf32>, %w1: tensor<5x3x4xf32>, %xc: tensor<1x3x10x10xf32>, %wc: tensor<4x3x3x3xf32>,
                        %xn: tensor<1x10x10x3xf32>, %wf: tensor<4x3x3x3xf32>, %dw: tensor<3x3xf32>, %dm: tensor<3x3x3x2xf32>,
                        %x3: tensor<1x6x6x6x2xf32>, %w3: tensor<2x2x2x2x3xf32>)
    -> (tensor<2x16x4xf32>, tensor<1x4x8x8xf32>, tensor<1x8x8x4xf32>, tensor<2x18x3xf32>, tensor<1x8x8x3x2xf32>, tensor<1x5x5x5x3xf32>) {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x16x4xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
  %c1 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
          ins(%x1, %w1 : tensor<2x20x3xf32>, tensor<5x3x4xf32>) outs(%f1 : tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
  %e2 = tensor.empty() : tensor<1x4x8x8xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%xc, %wc : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%f2 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e3 = tensor.empty() : tensor<1x8x8x4xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c3 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%xn, %wf : tensor<1x10x10x3xf32>, tensor<4x3x3x3xf32>) outs(%f3 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %e4 = tensor.empty() : tensor<2x18x3xf32>
  %f4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<2x18x3xf32>) -> tensor<2x18x3xf32>
  %c4 = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
          ins(%x1, %dw : tensor<2x20x3xf32>, tensor<3x3xf32>) outs(%f4 : tensor<2x18x3xf32>) -> tensor<2x18x3xf32>
  %e5 = tensor.empty() : tensor<1x8x8x3x2xf32>
  %f5 = linalg.fill ins(%z : f32) outs(%e5 : tensor<1x8x8x3x2xf32>) -> tensor<1x8x8x3x2xf32>
  %c5 = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%xn, %dm : tensor<1x10x10x3xf32>, tensor<3x3x3x2xf32>) outs(%f5 : tensor<1x8x8x3x2xf32>) -> tensor<1x8x8x3x2xf32>
  %e6 = tensor.empty() : tensor<1x5x5x5x3xf32>
  %f6 = linalg.fill ins(%z : f32) outs(%e6 : tensor<1x5x5x5x3xf32>) -> tensor<1x5x5x5x3xf32>
  %c6 = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
          ins(%x3, %w3 : tensor<1x6x6x6x2xf32>, tensor<2x2x2x2x3xf32>) outs(%f6 : tensor<1x5x5x5x3xf32>) -> tensor<1x5x5x5x3xf32>
  return %c1, %c2, %c3, %c4, %c5, %c6 : tensor<2x16x4xf32>, tensor<1x4x8x8xf32>, tensor<1x8x8x4xf32>, tensor<2x18x3xf32>, tensor<1x8x8x3x2xf32>, tensor<1x5x5x5x3xf32>
}

func.func @pooling(%xc: tensor<1x3x10x10xf32>, %xw: tensor<2x20x3xf32>) -> (tensor<1x3x8x8xf32>, tensor<2x17x3xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0.0 : f32
  %k2 = tensor.empty() : tensor<3x3xf32>
  %e1 = tensor.empty() : tensor<1x3x8x8xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %p1 = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%xc, %k2 : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%f1 : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %k1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<2x17x3xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<2x17x3xf32>) -> tensor<2x17x3xf32>
  %p2 = linalg.pooling_nwc_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
          ins(%xw, %k1 : tensor<2x20x3xf32>, tensor<4xf32>) outs(%f2 : tensor<2x17x3xf32>) -> tensor<2x17x3xf32>
  return %p1, %p2 : tensor<1x3x8x8xf32>, tensor<2x17x3xf32>
}

// i8 x i8 with zero points, accumulated in i32.
func.func @quantized(%a: tensor<6x10xi8>, %b: tensor<10x7xi8>) -> tensor<6x7xi32> {
  %za = arith.constant 3 : i32
  %zb = arith.constant -2 : i32
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<6x7xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<6x7xi32>) -> tensor<6x7xi32>
  %r = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<6x10xi8>, tensor<10x7xi8>, i32, i32) outs(%f : tensor<6x7xi32>) -> tensor<6x7xi32>
  return %r : tensor<6x7xi32>
}
