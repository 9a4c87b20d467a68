// cuda: not yet: the scf.parallel reduction (parallel_sum) has no GPU
// mapping, which the GPU back end refuses with an error naming the loop,
// and reshape_dynamic's shape would be in device memory, where the host
// cannot read it; checked on the CPU only.
// More ops of the accepted dialects, each against numpy: bitcasts, sincos,
// an scf.parallel reduction, batched vector-matrix products,
// plain and NCW/NCHW convolutions and poolings, linalg.div_unsigned and
// linalg.index, TOSA's depthwise convolution, table lookup and scatter, and
// a tensor.reshape to a shape given when the code runs.

#id = affine_map<(i) -> (i)>
func.func @bits(%x: tensor<16xf32>) -> tensor<16xi32> {
  %0 = arith.bitcast %x : tensor<16xf32> to tensor<16xi32>
  return %0 : tensor<16xi32>
}

func.func @sin_and_cos(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = tensor.empty() : tensor<64xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf32>) outs(%e, %e : tensor<64xf32>, tensor<64xf32>) {
  ^bb0(%v: f32, %o0: f32, %o1: f32):
    %s, %c = math.sincos %v : f32
    linalg.yield %s, %c : f32, f32
  } -> (tensor<64xf32>, tensor<64xf32>)
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xf32>
}

func.func @parallel_sum(%a: tensor<40xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %z = arith.constant 0.0 : f32
  %r = scf.parallel (%i) = (%c0) to (%c40) step (%c1) init (%z) -> f32 {
    %v = tensor.extract %a[%i] : tensor<40xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

func.func @batched(%v: tensor<3x5xf32>, %m: tensor<3x5x4xf32>, %a: tensor<3x6x5xf32>, %b: tensor<3x5x4xf32>)
    -> (tensor<3x4xf32>, tensor<6x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<3x4xf32>
  %o1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %vm = linalg.batch_vecmat ins(%v, %m : tensor<3x5xf32>, tensor<3x5x4xf32>) outs(%o1 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %o2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %br = linalg.batch_reduce_matmul ins(%a, %b : tensor<3x6x5xf32>, tensor<3x5x4xf32>) outs(%o2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %vm, %br : tensor<3x4xf32>, tensor<6x4xf32>
}

func.func @convs(%x1: tensor<10xf32>, %k1: tensor<3xf32>, %x2: tensor<6x7xf32>, %k2: tensor<2x3xf32>,
                 %xn: tensor<2x3x9xf32>, %kn: tensor<4x3x2xf32>, %kd: tensor<3x2xf32>)
    -> (tensor<8xf32>, tensor<5x5xf32>, tensor<2x4x8xf32>, tensor<2x3x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %o1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %c1 = linalg.conv_1d ins(%x1, %k1 : tensor<10xf32>, tensor<3xf32>) outs(%o1 : tensor<8xf32>) -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<5x5xf32>
  %o2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<5x5xf32>) -> tensor<5x5xf32>
  %c2 = linalg.conv_2d ins(%x2, %k2 : tensor<6x7xf32>, tensor<2x3xf32>) outs(%o2 : tensor<5x5xf32>) -> tensor<5x5xf32>
  %e3 = tensor.empty() : tensor<2x4x8xf32>
  %o3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %c3 = linalg.conv_1d_ncw_fcw ins(%xn, %kn : tensor<2x3x9xf32>, tensor<4x3x2xf32>) outs(%o3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %e4 = tensor.empty() : tensor<2x3x8xf32>
  %o4 = linalg.fill ins(%z : f32) outs(%e4 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %c4 = linalg.depthwise_conv_1d_ncw_cw ins(%xn, %kd : tensor<2x3x9xf32>, tensor<3x2xf32>) outs(%o4 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  return %c1, %c2, %c3, %c4 : tensor<8xf32>, tensor<5x5xf32>, tensor<2x4x8xf32>, tensor<2x3x8xf32>
}

func.func @pools(%x: tensor<2x9x3xf32>, %y: tensor<2x3x9xf32>, %z4: tensor<1x2x6x6xf32>)
    -> (tensor<2x8x3xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<1x2x3x3xf32>) {
  %w2 = tensor.empty() : tensor<2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x8x3xf32>
  %o1 = linalg.fill ins(%pinf : f32) outs(%e1 : tensor<2x8x3xf32>) -> tensor<2x8x3xf32>
  %p1 = linalg.pooling_nwc_min ins(%x, %w2 : tensor<2x9x3xf32>, tensor<2xf32>) outs(%o1 : tensor<2x8x3xf32>) -> tensor<2x8x3xf32>
  %e2 = tensor.empty() : tensor<2x3x8xf32>
  %o2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %p2 = linalg.pooling_ncw_max ins(%y, %w2 : tensor<2x3x9xf32>, tensor<2xf32>) outs(%o2 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %o3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %p3 = linalg.pooling_ncw_sum ins(%y, %w2 : tensor<2x3x9xf32>, tensor<2xf32>) outs(%o3 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %w22 = tensor.empty() : tensor<2x2xf32>
  %e4 = tensor.empty() : tensor<1x2x3x3xf32>
  %o4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p4 = linalg.pooling_nchw_sum {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%z4, %w22 : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs(%o4 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %p1, %p2, %p3, %p4 : tensor<2x8x3xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<1x2x3x3xf32>
}

#id2 = affine_map<(i, j) -> (i, j)>
func.func @unsigned_index(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> (tensor<4x6xi32>, tensor<4x6xi32>) {
  %e = tensor.empty() : tensor<4x6xi32>
  %q = linalg.div_unsigned ins(%a, %b : tensor<4x6xi32>, tensor<4x6xi32>) outs(%e : tensor<4x6xi32>) -> tensor<4x6xi32>
  %ix = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x6xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %v = arith.index_cast %k : index to i32
    linalg.yield %v : i32
  } -> tensor<4x6xi32>
  return %q, %ix : tensor<4x6xi32>, tensor<4x6xi32>
}

func.func @tosa_depthwise(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x3x3x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
      : (tensor<1x5x5x2xf32>, tensor<3x3x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

func.func @tosa_table(%x: tensor<32xi8>, %t: tensor<256xi8>) -> tensor<32xi8> {
  %0 = tosa.table %x, %t : (tensor<32xi8>, tensor<256xi8>) -> tensor<32xi8>
  return %0 : tensor<32xi8>
}

func.func @tosa_scatter(%v: tensor<2x6x3xf32>, %i: tensor<2x2xi32>, %u: tensor<2x2x3xf32>) -> tensor<2x6x3xf32> {
  %0 = tosa.scatter %v, %i, %u : (tensor<2x6x3xf32>, tensor<2x2xi32>, tensor<2x2x3xf32>) -> tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// tensor.reshape to a shape known only when the code runs (the shape is an
// argument): memref.reshape reads it then. A reshape between static shapes
// becomes views at the linalg stage instead (arith_tensor_more).
func.func @reshape_dynamic(%x: tensor<4x6xf32>, %shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = tensor.reshape %x(%shape) : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
