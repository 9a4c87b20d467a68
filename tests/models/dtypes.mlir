// One function per element type: an elementwise op and a reduction over one axis,
// with inputs chosen so that every result is exact (or a single correctly rounded
// operation), plus rounding checks of single f16 and bf16 operations.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// i1: xor, then or-reduction over axis 1
func.func @dt_i1(%a: tensor<4x8xi1>, %b: tensor<4x8xi1>) -> (tensor<4x8xi1>, tensor<4xi1>) {
  %init_v = arith.constant 0 : i1
  %e = tensor.empty() : tensor<4x8xi1>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xi1>, tensor<4x8xi1>) outs(%e : tensor<4x8xi1>) {
  ^bb0(%x: i1, %y: i1, %o: i1):
    %r = arith.xori %x, %y : i1
    linalg.yield %r : i1
  } -> tensor<4x8xi1>
  %re = tensor.empty() : tensor<4xi1>
  %ri = linalg.fill ins(%init_v : i1) outs(%re : tensor<4xi1>) -> tensor<4xi1>
  %red = linalg.reduce ins(%ew : tensor<4x8xi1>) outs(%ri : tensor<4xi1>) dimensions = [1]
    (%in: i1, %acc: i1) {
      %s = arith.ori %in, %acc : i1
      linalg.yield %s : i1
    }
  return %ew, %red : tensor<4x8xi1>, tensor<4xi1>
}

// i8: add (no overflow), then signed max over axis 1
func.func @dt_i8(%a: tensor<4x8xi8>, %b: tensor<4x8xi8>) -> (tensor<4x8xi8>, tensor<4xi8>) {
  %init_v = arith.constant -128 : i8
  %e = tensor.empty() : tensor<4x8xi8>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xi8>, tensor<4x8xi8>) outs(%e : tensor<4x8xi8>) {
  ^bb0(%x: i8, %y: i8, %o: i8):
    %r = arith.addi %x, %y : i8
    linalg.yield %r : i8
  } -> tensor<4x8xi8>
  %re = tensor.empty() : tensor<4xi8>
  %ri = linalg.fill ins(%init_v : i8) outs(%re : tensor<4xi8>) -> tensor<4xi8>
  %red = linalg.reduce ins(%ew : tensor<4x8xi8>) outs(%ri : tensor<4xi8>) dimensions = [1]
    (%in: i8, %acc: i8) {
      %s = arith.maxsi %in, %acc : i8
      linalg.yield %s : i8
    }
  return %ew, %red : tensor<4x8xi8>, tensor<4xi8>
}

// i16: multiply, then sum over axis 1 (no overflow)
func.func @dt_i16(%a: tensor<4x8xi16>, %b: tensor<4x8xi16>) -> (tensor<4x8xi16>, tensor<4xi16>) {
  %init_v = arith.constant 0 : i16
  %e = tensor.empty() : tensor<4x8xi16>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xi16>, tensor<4x8xi16>) outs(%e : tensor<4x8xi16>) {
  ^bb0(%x: i16, %y: i16, %o: i16):
    %r = arith.muli %x, %y : i16
    linalg.yield %r : i16
  } -> tensor<4x8xi16>
  %re = tensor.empty() : tensor<4xi16>
  %ri = linalg.fill ins(%init_v : i16) outs(%re : tensor<4xi16>) -> tensor<4xi16>
  %red = linalg.reduce ins(%ew : tensor<4x8xi16>) outs(%ri : tensor<4xi16>) dimensions = [1]
    (%in: i16, %acc: i16) {
      %s = arith.addi %in, %acc : i16
      linalg.yield %s : i16
    }
  return %ew, %red : tensor<4x8xi16>, tensor<4xi16>
}

// i32: subtract, then sum over axis 0
func.func @dt_i32(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> (tensor<4x8xi32>, tensor<8xi32>) {
  %init_v = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x8xi32>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xi32>, tensor<4x8xi32>) outs(%e : tensor<4x8xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.subi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<4x8xi32>
  %re = tensor.empty() : tensor<8xi32>
  %ri = linalg.fill ins(%init_v : i32) outs(%re : tensor<8xi32>) -> tensor<8xi32>
  %red = linalg.reduce ins(%ew : tensor<4x8xi32>) outs(%ri : tensor<8xi32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %s = arith.addi %in, %acc : i32
      linalg.yield %s : i32
    }
  return %ew, %red : tensor<4x8xi32>, tensor<8xi32>
}

// i64: multiply (products beyond 32 bits), then sum over axis 1
func.func @dt_i64(%a: tensor<4x8xi64>, %b: tensor<4x8xi64>) -> (tensor<4x8xi64>, tensor<4xi64>) {
  %init_v = arith.constant 0 : i64
  %e = tensor.empty() : tensor<4x8xi64>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xi64>, tensor<4x8xi64>) outs(%e : tensor<4x8xi64>) {
  ^bb0(%x: i64, %y: i64, %o: i64):
    %r = arith.muli %x, %y : i64
    linalg.yield %r : i64
  } -> tensor<4x8xi64>
  %re = tensor.empty() : tensor<4xi64>
  %ri = linalg.fill ins(%init_v : i64) outs(%re : tensor<4xi64>) -> tensor<4xi64>
  %red = linalg.reduce ins(%ew : tensor<4x8xi64>) outs(%ri : tensor<4xi64>) dimensions = [1]
    (%in: i64, %acc: i64) {
      %s = arith.addi %in, %acc : i64
      linalg.yield %s : i64
    }
  return %ew, %red : tensor<4x8xi64>, tensor<4xi64>
}

// f16: add, then sum over axis 1 (all values exact in f16)
func.func @dt_f16(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4xf16>) {
  %init_v = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x8xf16>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %r = arith.addf %x, %y : f16
    linalg.yield %r : f16
  } -> tensor<4x8xf16>
  %re = tensor.empty() : tensor<4xf16>
  %ri = linalg.fill ins(%init_v : f16) outs(%re : tensor<4xf16>) -> tensor<4xf16>
  %red = linalg.reduce ins(%ew : tensor<4x8xf16>) outs(%ri : tensor<4xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc : f16
      linalg.yield %s : f16
    }
  return %ew, %red : tensor<4x8xf16>, tensor<4xf16>
}

// bf16: multiply, then sum over axis 1 (all values exact in bf16)
func.func @dt_bf16(%a: tensor<4x8xbf16>, %b: tensor<4x8xbf16>) -> (tensor<4x8xbf16>, tensor<4xbf16>) {
  %init_v = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x8xbf16>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xbf16>, tensor<4x8xbf16>) outs(%e : tensor<4x8xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %r = arith.mulf %x, %y : bf16
    linalg.yield %r : bf16
  } -> tensor<4x8xbf16>
  %re = tensor.empty() : tensor<4xbf16>
  %ri = linalg.fill ins(%init_v : bf16) outs(%re : tensor<4xbf16>) -> tensor<4xbf16>
  %red = linalg.reduce ins(%ew : tensor<4x8xbf16>) outs(%ri : tensor<4xbf16>) dimensions = [1]
    (%in: bf16, %acc: bf16) {
      %s = arith.addf %in, %acc : bf16
      linalg.yield %s : bf16
    }
  return %ew, %red : tensor<4x8xbf16>, tensor<4xbf16>
}

// f32: multiply (rounded), then max over axis 1
func.func @dt_f32(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %init_v = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %re = tensor.empty() : tensor<4xf32>
  %ri = linalg.fill ins(%init_v : f32) outs(%re : tensor<4xf32>) -> tensor<4xf32>
  %red = linalg.reduce ins(%ew : tensor<4x8xf32>) outs(%ri : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %ew, %red : tensor<4x8xf32>, tensor<4xf32>
}

// f64: divide (rounded), then min over axis 0
func.func @dt_f64(%a: tensor<4x8xf64>, %b: tensor<4x8xf64>) -> (tensor<4x8xf64>, tensor<8xf64>) {
  %init_v = arith.constant 0x7FF0000000000000 : f64
  %e = tensor.empty() : tensor<4x8xf64>
  %ew = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf64>, tensor<4x8xf64>) outs(%e : tensor<4x8xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %r = arith.divf %x, %y : f64
    linalg.yield %r : f64
  } -> tensor<4x8xf64>
  %re = tensor.empty() : tensor<8xf64>
  %ri = linalg.fill ins(%init_v : f64) outs(%re : tensor<8xf64>) -> tensor<8xf64>
  %red = linalg.reduce ins(%ew : tensor<4x8xf64>) outs(%ri : tensor<8xf64>) dimensions = [0]
    (%in: f64, %acc: f64) {
      %s = arith.minimumf %in, %acc : f64
      linalg.yield %s : f64
    }
  return %ew, %red : tensor<4x8xf64>, tensor<8xf64>
}

// f16: one rounding per result element (inputs are random f16 values).
func.func @round_f16(%a: tensor<16xf16>, %b: tensor<16xf16>) -> (tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) {
  %e0 = tensor.empty() : tensor<16xf16>
  %e1 = tensor.empty() : tensor<16xf16>
  %e2 = tensor.empty() : tensor<16xf16>
  %s = linalg.add ins(%a, %b : tensor<16xf16>, tensor<16xf16>) outs(%e0 : tensor<16xf16>) -> tensor<16xf16>
  %p = linalg.mul ins(%a, %b : tensor<16xf16>, tensor<16xf16>) outs(%e1 : tensor<16xf16>) -> tensor<16xf16>
  %q = linalg.div ins(%a, %b : tensor<16xf16>, tensor<16xf16>) outs(%e2 : tensor<16xf16>) -> tensor<16xf16>
  return %s, %p, %q : tensor<16xf16>, tensor<16xf16>, tensor<16xf16>
}

// bf16: one rounding per result element (inputs are random bf16 values).
func.func @round_bf16(%a: tensor<16xbf16>, %b: tensor<16xbf16>) -> (tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>) {
  %e0 = tensor.empty() : tensor<16xbf16>
  %e1 = tensor.empty() : tensor<16xbf16>
  %e2 = tensor.empty() : tensor<16xbf16>
  %s = linalg.add ins(%a, %b : tensor<16xbf16>, tensor<16xbf16>) outs(%e0 : tensor<16xbf16>) -> tensor<16xbf16>
  %p = linalg.mul ins(%a, %b : tensor<16xbf16>, tensor<16xbf16>) outs(%e1 : tensor<16xbf16>) -> tensor<16xbf16>
  %q = linalg.div ins(%a, %b : tensor<16xbf16>, tensor<16xbf16>) outs(%e2 : tensor<16xbf16>) -> tensor<16xbf16>
  return %s, %p, %q : tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>
}
