// Bytes in and out as unsigned at the ABI (`aot.unsigned`): the body
// computes on signless i8 with the unsigned ops, and callers pass and get
// uint8 (numpy's u1, std::uint8_t).
#map = affine_map<(d0) -> (d0)>
func.func @brighten(%x: tensor<?xi8> {aot.unsigned})
    -> (tensor<?xi8> {aot.unsigned}, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xi8>
  %e8 = tensor.empty(%n) : tensor<?xi8>
  %ef = tensor.empty(%n) : tensor<?xf32>
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map],
                         iterator_types = ["parallel"]}
      ins(%x : tensor<?xi8>) outs(%e8, %ef : tensor<?xi8>, tensor<?xf32>) {
  ^bb0(%v: i8, %o: i8, %f: f32):
    %floor = arith.constant 128 : i8
    %y = arith.maxui %v, %floor : i8
    %g = arith.uitofp %v : i8 to f32
    linalg.yield %y, %g : i8, f32
  } -> (tensor<?xi8>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?xi8>, tensor<?xf32>
}
