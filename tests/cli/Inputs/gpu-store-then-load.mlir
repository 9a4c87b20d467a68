// A bufferized function (the input of the gpu-mapped stage) whose parallel
// loop reads back an element it stored: its iterations keep a thread each,
// since moving the read before the store would read the old value.
func.func @store_then_load(%m: memref<2048x2048xf32>, %out: memref<2048x2048xf32>) attributes {aot.device_memory} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 2048 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<2048x2048xf32>
    memref.store %v, %out[%i, %j] : memref<2048x2048xf32>
    %w = memref.load %out[%i, %j] : memref<2048x2048xf32>
    %d = arith.addf %w, %w : f32
    memref.store %d, %out[%i, %j] : memref<2048x2048xf32>
  }
  return
}
