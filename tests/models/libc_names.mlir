// Public functions whose names are also C library functions (dup, abs, div). A symbol
// exported from a shared object or loaded into a process is resolved against the C
// library too: the calls from the _mlir_ciface_ wrappers to these functions must bind
// to the module's own definitions, not to libc's dup(int), abs(int) and div(int, int).

func.func @dup(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  return %x, %x : tensor<4xi32>, tensor<4xi32>
}

func.func @abs(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = math.absf %v : f32
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @div(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %e = tensor.empty() : tensor<6xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.divsi %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<6xi32>
  return %r : tensor<6xi32>
}
