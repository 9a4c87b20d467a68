// Results that share one buffer, written at the bufferized stage (compile
// with --compile-from=bufferized): one new buffer returned twice, and a
// buffer returned next to a view into it at an offset. Both results of a
// call then carry the same `allocated` pointer and must share one owner.

func.func @fresh_twice(%x: memref<4xi32>) -> (memref<4xi32>, memref<4xi32>) {
  %a = memref.alloc() : memref<4xi32>
  memref.copy %x, %a : memref<4xi32> to memref<4xi32>
  return %a, %a : memref<4xi32>, memref<4xi32>
}

func.func @whole_and_tail(%x: memref<4xi32>) -> (memref<4xi32>, memref<2xi32, strided<[1], offset: 2>>) {
  %a = memref.alloc() : memref<4xi32>
  memref.copy %x, %a : memref<4xi32> to memref<4xi32>
  %t = memref.subview %a[2] [2] [1] : memref<4xi32> to memref<2xi32, strided<[1], offset: 2>>
  return %a, %t : memref<4xi32>, memref<2xi32, strided<[1], offset: 2>>
}
