// Bufferized MLIR as a user may write it for --compile-from=llvm: memref
// arguments, no aot.manifest attribute.
func.func @copy4(%a: memref<4xf32>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  return
}
