// Integer semantics: signed division and remainder (truncating), floor/ceil division,
// shifts, wrapping arithmetic in i8, comparisons and selects, unsigned ops on signless
// values, and i1 extension (extui gives 1, extsi gives -1).

#id1 = affine_map<(i) -> (i)>

func.func @divisions(%a: tensor<16xi32>, %b: tensor<16xi32>) -> (tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>) {
  %e0 = tensor.empty() : tensor<16xi32>
  %e1 = tensor.empty() : tensor<16xi32>
  %e2 = tensor.empty() : tensor<16xi32>
  %e3 = tensor.empty() : tensor<16xi32>
  %r:4 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<16xi32>, tensor<16xi32>) outs(%e0, %e1, %e2, %e3 : tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>) {
  ^bb0(%x: i32, %y: i32, %o0: i32, %o1: i32, %o2: i32, %o3: i32):
    %q = arith.divsi %x, %y : i32
    %r = arith.remsi %x, %y : i32
    %f = arith.floordivsi %x, %y : i32
    %c = arith.ceildivsi %x, %y : i32
    linalg.yield %q, %r, %f, %c : i32, i32, i32, i32
  } -> (tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<16xi32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi32>
}

// Unsigned division/remainder and shifts on the same bits, in i64.
func.func @unsigned_and_shifts(%a: tensor<12xi64>, %b: tensor<12xi64>, %s: tensor<12xi64>)
    -> (tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>) {
  %e0 = tensor.empty() : tensor<12xi64>
  %e1 = tensor.empty() : tensor<12xi64>
  %e2 = tensor.empty() : tensor<12xi64>
  %e3 = tensor.empty() : tensor<12xi64>
  %e4 = tensor.empty() : tensor<12xi64>
  %r:5 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b, %s : tensor<12xi64>, tensor<12xi64>, tensor<12xi64>)
      outs(%e0, %e1, %e2, %e3, %e4 : tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>) {
  ^bb0(%x: i64, %y: i64, %sh: i64, %o0: i64, %o1: i64, %o2: i64, %o3: i64, %o4: i64):
    %q = arith.divui %x, %y : i64
    %r = arith.remui %x, %y : i64
    %l = arith.shli %x, %sh : i64
    %ra = arith.shrsi %x, %sh : i64
    %rl = arith.shrui %x, %sh : i64
    linalg.yield %q, %r, %l, %ra, %rl : i64, i64, i64, i64, i64
  } -> (tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>, tensor<12xi64>
}

// i8 arithmetic wraps modulo 256 (two's complement).
func.func @wrap_i8(%a: tensor<16xi8>, %b: tensor<16xi8>) -> (tensor<16xi8>, tensor<16xi8>, tensor<16xi8>) {
  %e0 = tensor.empty() : tensor<16xi8>
  %e1 = tensor.empty() : tensor<16xi8>
  %e2 = tensor.empty() : tensor<16xi8>
  %r:3 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<16xi8>, tensor<16xi8>) outs(%e0, %e1, %e2 : tensor<16xi8>, tensor<16xi8>, tensor<16xi8>) {
  ^bb0(%x: i8, %y: i8, %o0: i8, %o1: i8, %o2: i8):
    %s = arith.addi %x, %y : i8
    %m = arith.muli %x, %y : i8
    %d = arith.subi %x, %y : i8
    linalg.yield %s, %m, %d : i8, i8, i8
  } -> (tensor<16xi8>, tensor<16xi8>, tensor<16xi8>)
  return %r#0, %r#1, %r#2 : tensor<16xi8>, tensor<16xi8>, tensor<16xi8>
}

// Signed vs unsigned comparison of the same i16 bits, a select, and i1 extensions.
func.func @compare_select(%a: tensor<10xi16>, %b: tensor<10xi16>)
    -> (tensor<10xi1>, tensor<10xi1>, tensor<10xi16>, tensor<10xi32>, tensor<10xi32>) {
  %e0 = tensor.empty() : tensor<10xi1>
  %e1 = tensor.empty() : tensor<10xi1>
  %e2 = tensor.empty() : tensor<10xi16>
  %e3 = tensor.empty() : tensor<10xi32>
  %e4 = tensor.empty() : tensor<10xi32>
  %r:5 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<10xi16>, tensor<10xi16>)
      outs(%e0, %e1, %e2, %e3, %e4 : tensor<10xi1>, tensor<10xi1>, tensor<10xi16>, tensor<10xi32>, tensor<10xi32>) {
  ^bb0(%x: i16, %y: i16, %o0: i1, %o1: i1, %o2: i16, %o3: i32, %o4: i32):
    %slt = arith.cmpi slt, %x, %y : i16
    %ult = arith.cmpi ult, %x, %y : i16
    %sel = arith.select %slt, %x, %y : i16
    %zu = arith.extui %slt : i1 to i32
    %zs = arith.extsi %slt : i1 to i32
    linalg.yield %slt, %ult, %sel, %zu, %zs : i1, i1, i16, i32, i32
  } -> (tensor<10xi1>, tensor<10xi1>, tensor<10xi16>, tensor<10xi32>, tensor<10xi32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<10xi1>, tensor<10xi1>, tensor<10xi16>, tensor<10xi32>, tensor<10xi32>
}

// Integer width conversions: sign/zero extension of i8 and truncation of i32 to i8.
func.func @int_casts(%a: tensor<8xi8>, %b: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi8>) {
  %e0 = tensor.empty() : tensor<8xi32>
  %e1 = tensor.empty() : tensor<8xi32>
  %e2 = tensor.empty() : tensor<8xi8>
  %r:3 = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xi8>, tensor<8xi32>) outs(%e0, %e1, %e2 : tensor<8xi32>, tensor<8xi32>, tensor<8xi8>) {
  ^bb0(%x: i8, %y: i32, %o0: i32, %o1: i32, %o2: i8):
    %s = arith.extsi %x : i8 to i32
    %z = arith.extui %x : i8 to i32
    %t = arith.trunci %y : i32 to i8
    linalg.yield %s, %z, %t : i32, i32, i8
  } -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi8>)
  return %r#0, %r#1, %r#2 : tensor<8xi32>, tensor<8xi32>, tensor<8xi8>
}

// Divisions of rows that vectors do not fill (127 and 37 elements) and of a
// dynamic length: the last, partial tile of each must divide only the elements
// that are there. Computed on vectors with masks, its lanes past the end held
// whatever the masked reads left in them, zeros among them, and x86 traps
// (SIGFPE) on a division by zero.
func.func @divisions_ragged(%a: tensor<3x127xi32>, %b: tensor<3x127xi32>, %c: tensor<37xi64>,
                            %d: tensor<37xi64>, %e: tensor<?xi8>, %f: tensor<?xi8>)
    -> (tensor<3x127xi32>, tensor<3x127xi32>, tensor<37xi64>, tensor<?xi8>) {
  %q = arith.divsi %a, %b : tensor<3x127xi32>
  %fl = arith.floordivsi %a, %b : tensor<3x127xi32>
  %u = arith.remui %c, %d : tensor<37xi64>
  %r = arith.remsi %e, %f : tensor<?xi8>
  return %q, %fl, %u, %r : tensor<3x127xi32>, tensor<3x127xi32>, tensor<37xi64>, tensor<?xi8>
}
