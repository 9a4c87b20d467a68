// A three-layer perceptron in TOSA (MLIR 22 syntax), the model whose compile
// time aot-bench measures: 32 samples of 256 features -> 128 -> 64 -> 10,
// tosa.matmul + broadcast bias + ReLU (tosa.clamp) per hidden layer and a
// sigmoid on the output.
//
// The chain of separate tools (mlir-opt-22 | mlir-translate-22 | llc-22)
// does not know the project's own passes, so the model carries what two of
// them would add: llvm.emit_c_interface on the function (as
// aot-export-c-interface does: the same _mlir_ciface_mlp entry point) and
// bufferization.writable = false on its tensor arguments (as
// aot-protect-arguments does: inputs are never written). The in-process
// compile sets the same attributes again.

func.func @mlp(%x: tensor<32x256xf32> {bufferization.writable = false},
               %w1: tensor<256x128xf32> {bufferization.writable = false},
               %b1: tensor<128xf32> {bufferization.writable = false},
               %w2: tensor<128x64xf32> {bufferization.writable = false},
               %b2: tensor<64xf32> {bufferization.writable = false},
               %w3: tensor<64x10xf32> {bufferization.writable = false},
               %b3: tensor<10xf32> {bufferization.writable = false})
    -> tensor<32x10xf32> attributes {llvm.emit_c_interface} {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %s_x = tosa.const_shape {values = dense<[1, 32, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_w1 = tosa.const_shape {values = dense<[1, 256, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_b1 = tosa.const_shape {values = dense<[1, 1, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_w2 = tosa.const_shape {values = dense<[1, 128, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_b2 = tosa.const_shape {values = dense<[1, 1, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_w3 = tosa.const_shape {values = dense<[1, 64, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_b3 = tosa.const_shape {values = dense<[1, 1, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_out = tosa.const_shape {values = dense<[32, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>

  %x3 = tosa.reshape %x, %s_x : (tensor<32x256xf32>, !tosa.shape<3>) -> tensor<1x32x256xf32>

  %w13 = tosa.reshape %w1, %s_w1 : (tensor<256x128xf32>, !tosa.shape<3>) -> tensor<1x256x128xf32>
  %b13 = tosa.reshape %b1, %s_b1 : (tensor<128xf32>, !tosa.shape<3>) -> tensor<1x1x128xf32>
  %h1m = tosa.matmul %x3, %w13, %zp, %zp : (tensor<1x32x256xf32>, tensor<1x256x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x128xf32>
  %h1b = tosa.add %h1m, %b13 : (tensor<1x32x128xf32>, tensor<1x1x128xf32>) -> tensor<1x32x128xf32>
  %h1 = tosa.clamp %h1b {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x32x128xf32>) -> tensor<1x32x128xf32>

  %w23 = tosa.reshape %w2, %s_w2 : (tensor<128x64xf32>, !tosa.shape<3>) -> tensor<1x128x64xf32>
  %b23 = tosa.reshape %b2, %s_b2 : (tensor<64xf32>, !tosa.shape<3>) -> tensor<1x1x64xf32>
  %h2m = tosa.matmul %h1, %w23, %zp, %zp : (tensor<1x32x128xf32>, tensor<1x128x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x64xf32>
  %h2b = tosa.add %h2m, %b23 : (tensor<1x32x64xf32>, tensor<1x1x64xf32>) -> tensor<1x32x64xf32>
  %h2 = tosa.clamp %h2b {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x32x64xf32>) -> tensor<1x32x64xf32>

  %w33 = tosa.reshape %w3, %s_w3 : (tensor<64x10xf32>, !tosa.shape<3>) -> tensor<1x64x10xf32>
  %b33 = tosa.reshape %b3, %s_b3 : (tensor<10xf32>, !tosa.shape<3>) -> tensor<1x1x10xf32>
  %ym = tosa.matmul %h2, %w33, %zp, %zp : (tensor<1x32x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x32x10xf32>
  %yb = tosa.add %ym, %b33 : (tensor<1x32x10xf32>, tensor<1x1x10xf32>) -> tensor<1x32x10xf32>
  %ys = tosa.sigmoid %yb : (tensor<1x32x10xf32>) -> tensor<1x32x10xf32>
  %y = tosa.reshape %ys, %s_out : (tensor<1x32x10xf32>, !tosa.shape<2>) -> tensor<32x10xf32>
  return %y : tensor<32x10xf32>
}
