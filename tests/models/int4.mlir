// 4-bit integers (one per byte in the ABI, sign-extended): wrapping
// arithmetic, signed and unsigned division and shifts, comparisons,
// conversions to and from wider integers and floats, matmuls with i32
// accumulation (i4 x i4, i8 activations x i4 weights, dynamic), a constant.

#id = affine_map<(i) -> (i)>
func.func @wrapping(%a: tensor<64xi4>, %b: tensor<64xi4>)
    -> (tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>) {
  %add = arith.addi %a, %b : tensor<64xi4>
  %sub = arith.subi %a, %b : tensor<64xi4>
  %mul = arith.muli %a, %b : tensor<64xi4>
  %xor = arith.xori %a, %b : tensor<64xi4>
  %max = arith.maxsi %a, %b : tensor<64xi4>
  return %add, %sub, %mul, %xor, %max : tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>
}

// Divisors never zero; b's sign varies.
func.func @division(%a: tensor<64xi4>, %b: tensor<64xi4>)
    -> (tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>) {
  %e = tensor.empty() : tensor<64xi4>
  %r:4 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xi4>, tensor<64xi4>)
      outs(%e, %e, %e, %e : tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>) {
  ^bb0(%x: i4, %y: i4, %o0: i4, %o1: i4, %o2: i4, %o3: i4):
    %q = arith.divsi %x, %y : i4
    %r = arith.remsi %x, %y : i4
    %qu = arith.divui %x, %y : i4
    %ru = arith.remui %x, %y : i4
    linalg.yield %q, %r, %qu, %ru : i4, i4, i4, i4
  } -> (tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi4>
}

// Shift amounts 0..3.
func.func @shifts(%a: tensor<64xi4>, %s: tensor<64xi4>)
    -> (tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi1>) {
  %shl = arith.shli %a, %s : tensor<64xi4>
  %shrs = arith.shrsi %a, %s : tensor<64xi4>
  %shru = arith.shrui %a, %s : tensor<64xi4>
  %ult = arith.cmpi ult, %a, %s : tensor<64xi4>
  return %shl, %shrs, %shru, %ult : tensor<64xi4>, tensor<64xi4>, tensor<64xi4>, tensor<64xi1>
}

func.func @conversions(%a: tensor<64xi4>, %w: tensor<64xi32>, %f: tensor<64xf32>)
    -> (tensor<64xi32>, tensor<64xi32>, tensor<64xi4>, tensor<64xf32>, tensor<64xf32>, tensor<64xi4>) {
  %s = arith.extsi %a : tensor<64xi4> to tensor<64xi32>
  %u = arith.extui %a : tensor<64xi4> to tensor<64xi32>
  %t = arith.trunci %w : tensor<64xi32> to tensor<64xi4>
  %sf = arith.sitofp %a : tensor<64xi4> to tensor<64xf32>
  %uf = arith.uitofp %a : tensor<64xi4> to tensor<64xf32>
  %fi = arith.fptosi %f : tensor<64xf32> to tensor<64xi4>
  return %s, %u, %t, %sf, %uf, %fi : tensor<64xi32>, tensor<64xi32>, tensor<64xi4>, tensor<64xf32>, tensor<64xf32>, tensor<64xi4>
}

func.func @matmul_i4(%a: tensor<24x40xi4>, %b: tensor<40x16xi4>) -> tensor<24x16xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<24x16xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<24x16xi32>) -> tensor<24x16xi32>
  %0 = linalg.matmul ins(%a, %b : tensor<24x40xi4>, tensor<40x16xi4>)
                     outs(%acc : tensor<24x16xi32>) -> tensor<24x16xi32>
  return %0 : tensor<24x16xi32>
}

// Quantized weights: i8 activations times i4 weights.
func.func @matmul_i8_i4_dyn(%a: tensor<?x?xi8>, %b: tensor<?x?xi4>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xi8>
  %n = tensor.dim %b, %c1 : tensor<?x?xi4>
  %zero = arith.constant 0 : i32
  %e = tensor.empty(%m, %n) : tensor<?x?xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<?x?xi32>) -> tensor<?x?xi32>
  %0 = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi4>)
                     outs(%acc : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @const_i4(%a: tensor<4xi4>) -> tensor<4xi4> {
  %c = arith.constant dense<[7, -8, 3, -1]> : tensor<4xi4>
  %0 = arith.addi %a, %c : tensor<4xi4>
  return %0 : tensor<4xi4>
}
