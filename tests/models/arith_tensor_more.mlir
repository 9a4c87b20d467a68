// arith, tensor and scf ops not covered by the other models: unsigned and
// extended integer arithmetic, remf, bitcasts, fptoui, tensor.reshape,
// tensor.splat, tensor.cast, tensor.rank, scf.forall with
// tensor.parallel_insert_slice, scf.index_switch, scf.execute_region and
// cf.switch.
#id = affine_map<(i) -> (i)>

func.func @integer(%a: tensor<32xi32>, %b: tensor<32xi32>)
    -> (tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi1>, tensor<32xi32>, tensor<32xi32>) {
  %e = tensor.empty() : tensor<32xi32>
  %e1 = tensor.empty() : tensor<32xi1>
  %r:7 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<32xi32>, tensor<32xi32>) outs(%e, %e, %e, %e, %e1, %e, %e : tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi1>, tensor<32xi32>, tensor<32xi32>) {
  ^bb0(%x: i32, %y: i32, %o0: i32, %o1: i32, %o2: i32, %o3: i32, %o4: i1, %o5: i32, %o6: i32):
    %and = arith.andi %x, %y : i32
    %max = arith.maxui %x, %y : i32
    %min = arith.minui %x, %y : i32
    %sum, %carry = arith.addui_extended %x, %y : i32, i1
    %lo, %hi = arith.mulsi_extended %x, %y : i32
    %ulo, %uhi = arith.mului_extended %x, %y : i32
    linalg.yield %and, %max, %min, %sum, %carry, %hi, %uhi : i32, i32, i32, i32, i1, i32, i32
  } -> (tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi1>, tensor<32xi32>, tensor<32xi32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6 : tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<32xi1>, tensor<32xi32>, tensor<32xi32>
}

func.func @floats(%x: tensor<32xf32>, %y: tensor<32xf32>) -> (tensor<32xf32>, tensor<32xi32>, tensor<32xi32>) {
  %e = tensor.empty() : tensor<32xf32>
  %ei = tensor.empty() : tensor<32xi32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<32xf32>, tensor<32xf32>) outs(%e, %ei : tensor<32xf32>, tensor<32xi32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %oi: i32):
    %rem = arith.remf %a, %b : f32
    %abs = math.absf %a : f32
    %u = arith.fptoui %abs : f32 to i32
    linalg.yield %rem, %u : f32, i32
  } -> (tensor<32xf32>, tensor<32xi32>)
  %bits = tensor.bitcast %x : tensor<32xf32> to tensor<32xi32>
  return %r#0, %r#1, %bits : tensor<32xf32>, tensor<32xi32>, tensor<32xi32>
}

func.func @shapes(%x: tensor<4x6xf32>, %v: f32) -> (tensor<3x8xf32>, tensor<2x5xf32>, tensor<4x6xf32>) {
  %shape = arith.constant dense<[3, 8]> : tensor<2xi64>
  %reshaped = tensor.reshape %x(%shape) : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<3x8xf32>
  %splat = tensor.splat %v : tensor<2x5xf32>
  // Through a dynamic type and back; scaled by the rank (2).
  %dyn = tensor.cast %x : tensor<4x6xf32> to tensor<?x?xf32>
  %back = tensor.cast %dyn : tensor<?x?xf32> to tensor<4x6xf32>
  %rank = tensor.rank %dyn : tensor<?x?xf32>
  %ri = arith.index_castui %rank : index to i32
  %rf = arith.uitofp %ri : i32 to f32
  %e = tensor.empty() : tensor<4x6xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%back : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %rf : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  return %reshaped, %splat, %scaled : tensor<3x8xf32>, tensor<2x5xf32>, tensor<4x6xf32>
}

// Each of 4 row blocks of 2 rows negated by its own iteration of a forall.
func.func @forall_rows(%x: tensor<8x5xf32>) -> tensor<8x5xf32> {
  %e = tensor.empty() : tensor<8x5xf32>
  %c2 = arith.constant 2 : index
  %r = scf.forall (%i) in (4) shared_outs(%out = %e) -> (tensor<8x5xf32>) {
    %row = arith.muli %i, %c2 : index
    %blk = tensor.extract_slice %x[%row, 0] [2, 5] [1, 1] : tensor<8x5xf32> to tensor<2x5xf32>
    %ob = tensor.extract_slice %out[%row, 0] [2, 5] [1, 1] : tensor<8x5xf32> to tensor<2x5xf32>
    %neg = linalg.negf ins(%blk : tensor<2x5xf32>) outs(%ob : tensor<2x5xf32>) -> tensor<2x5xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %neg into %out[%row, 0] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<8x5xf32>
    }
  }
  return %r : tensor<8x5xf32>
}

// The case selects what is done to x: 0 doubles, 1 squares, else negates;
// the same through cf.switch.
func.func @switches(%k: i32, %x: f32) -> (f32, f32) {
  %i = arith.index_cast %k : i32 to index
  %a = scf.index_switch %i -> f32
  case 0 {
    %d = arith.addf %x, %x : f32
    scf.yield %d : f32
  }
  case 1 {
    %s = scf.execute_region -> f32 {
      %q = arith.mulf %x, %x : f32
      scf.yield %q : f32
    }
    scf.yield %s : f32
  }
  default {
    %n = arith.negf %x : f32
    scf.yield %n : f32
  }
  cf.switch %k : i32, [
    default: ^neg,
    0: ^double,
    1: ^square
  ]
^double:
  %d2 = arith.addf %x, %x : f32
  cf.br ^done(%d2 : f32)
^square:
  %s2 = arith.mulf %x, %x : f32
  cf.br ^done(%s2 : f32)
^neg:
  %n2 = arith.negf %x : f32
  cf.br ^done(%n2 : f32)
^done(%b: f32):
  return %a, %b : f32, f32
}
