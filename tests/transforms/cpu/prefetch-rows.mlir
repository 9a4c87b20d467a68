// RUN: aot-opt %s --split-input-file --aot-prefetch-rows | FileCheck %s

// After bufferization, in loops marked by tiling. aot.prefetch_rows (K loop
// of side-by-side dot products): each transfer_read of two rows or more gets
// a memref.prefetch per row, 512 bytes ahead, clamped to the buffer's last
// column. aot.prefetch_next_block (K-block loop of a matmul reading B where
// it lies): each register tile's step along K prefetches as many bytes of
// the next block of B as it reads of this one. The marks are removed.

// Three rows of f32 read at once: three prefetches of the buffer the slice
// comes from, at rows 0..2 and 128 elements (512 bytes) ahead, clamped to
// column 255. The read of a single row gets none.
// CHECK-LABEL: func.func @three_rows
// CHECK-SAME:    (%[[A:.*]]: memref<3x256xf32>, %[[B:.*]]: memref<1x256xf32>
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           %[[ROW0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:           %[[COL:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-DAG:       %[[AHEAD:.*]] = arith.constant 128 : index
// CHECK-DAG:       %[[ONE:.*]] = arith.constant 1 : index
// CHECK:           %[[DIM:.*]] = memref.dim %[[A]], %{{.*}} : memref<3x256xf32>
// CHECK:           %[[LAST:.*]] = arith.subi %[[DIM]], %[[ONE]] : index
// CHECK:           %[[FAR:.*]] = arith.addi %[[COL]], %[[AHEAD]] : index
// CHECK:           %[[AT:.*]] = arith.minsi %[[FAR]], %[[LAST]] : index
// CHECK:           %[[I0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[R0:.*]] = arith.addi %[[ROW0]], %[[I0]] : index
// CHECK-NEXT:      memref.prefetch %[[A]][%[[R0]], %[[AT]]], read, locality<3>, data : memref<3x256xf32>
// CHECK-NEXT:      %[[I1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[R1:.*]] = arith.addi %[[ROW0]], %[[I1]] : index
// CHECK-NEXT:      memref.prefetch %[[A]][%[[R1]], %[[AT]]], read, locality<3>, data : memref<3x256xf32>
// CHECK-NEXT:      %[[I2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[R2:.*]] = arith.addi %[[ROW0]], %[[I2]] : index
// CHECK-NEXT:      memref.prefetch %[[A]][%[[R2]], %[[AT]]], read, locality<3>, data : memref<3x256xf32>
// CHECK-NEXT:      vector.transfer_read {{.*}} vector<3x16xf32>
// CHECK-NEXT:      vector.transfer_read {{.*}} vector<16xf32>
// CHECK:         }
// CHECK-NOT:     aot.prefetch_rows
func.func @three_rows(%a: memref<3x256xf32>, %b: memref<1x256xf32>, %out: memref<3x16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<3x16xf32>
  %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<3x16xf32>) {
    %sa = memref.subview %a[0, %k] [3, 16] [1, 1] : memref<3x256xf32> to memref<3x16xf32, strided<[256, 1], offset: ?>>
    %sb = memref.subview %b[0, %k] [1, 16] [1, 1] : memref<1x256xf32> to memref<1x16xf32, strided<[256, 1], offset: ?>>
    %va = vector.transfer_read %sa[%c0, %c0], %p {in_bounds = [true, true]} : memref<3x16xf32, strided<[256, 1], offset: ?>>, vector<3x16xf32>
    %vb = vector.transfer_read %sb[%c0, %c0], %p {in_bounds = [true]} : memref<1x16xf32, strided<[256, 1], offset: ?>>, vector<16xf32>
    %bb = vector.broadcast %vb : vector<16xf32> to vector<3x16xf32>
    %m = arith.mulf %va, %bb : vector<3x16xf32>
    %s = arith.addf %acc, %m : vector<3x16xf32>
    scf.yield %s : vector<3x16xf32>
  } {aot.prefetch_rows}
  vector.transfer_write %r, %out[%c0, %c0] {in_bounds = [true, true]} : vector<3x16xf32>, memref<3x16xf32>
  return
}

// -----

// i8 rows of a dynamic buffer: 512 elements ahead (one byte each), one
// prefetch per row.
// CHECK-LABEL: func.func @bytes
// CHECK:         arith.constant 512 : index
// CHECK-COUNT-2: memref.prefetch %{{.*}} : memref<?x?xi8>
// CHECK-NOT:     memref.prefetch
func.func @bytes(%b: memref<?x?xi8>, %k: index) -> vector<2x32xi8> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %z = arith.constant 0 : i8
  %zero = arith.constant dense<0> : vector<2x32xi8>
  %r = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (vector<2x32xi8>) {
    %s = memref.subview %b[0, %i] [2, 32] [1, 1] : memref<?x?xi8> to memref<2x32xi8, strided<[?, 1], offset: ?>>
    %v = vector.transfer_read %s[%c0, %c0], %z {in_bounds = [true, true]} : memref<2x32xi8, strided<[?, 1], offset: ?>>, vector<2x32xi8>
    %sum = arith.addi %acc, %v : vector<2x32xi8>
    scf.yield %sum : vector<2x32xi8>
  } {aot.prefetch_rows}
  return %r : vector<2x32xi8>
}

// -----

// Left alone, marks removed: a masked read (the last, partial chunk of K);
// a loop without the mark.
// CHECK-LABEL: func.func @not_prefetched
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:     aot.prefetch_rows
// CHECK:         return
func.func @not_prefetched(%a: memref<4x100xf32>) -> vector<4x16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c96 = arith.constant 96 : index
  %c100 = arith.constant 100 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<4x16xf32>
  %r0 = scf.for %k = %c96 to %c100 step %c16 iter_args(%acc = %zero) -> (vector<4x16xf32>) {
    %len = arith.subi %c100, %k : index
    %mask = vector.create_mask %c4, %len : vector<4x16xi1>
    %s = memref.subview %a[0, %k] [4, %len] [1, 1] : memref<4x100xf32> to memref<4x?xf32, strided<[100, 1], offset: ?>>
    %v = vector.transfer_read %s[%c0, %c0], %p, %mask {in_bounds = [true, true]} : memref<4x?xf32, strided<[100, 1], offset: ?>>, vector<4x16xf32>
    %sum = arith.addf %acc, %v : vector<4x16xf32>
    scf.yield %sum : vector<4x16xf32>
  } {aot.prefetch_rows}
  %r2 = scf.for %k = %c0 to %c96 step %c16 iter_args(%acc = %r0) -> (vector<4x16xf32>) {
    %s = memref.subview %a[0, %k] [4, 16] [1, 1] : memref<4x100xf32> to memref<4x16xf32, strided<[100, 1], offset: ?>>
    %v = vector.transfer_read %s[%c0, %c0], %p {in_bounds = [true, true]} : memref<4x16xf32, strided<[100, 1], offset: ?>>, vector<4x16xf32>
    %sum = arith.addf %acc, %v : vector<4x16xf32>
    scf.yield %sum : vector<4x16xf32>
  }
  return %r2 : vector<4x16xf32>
}

// -----

// A register tile of one row, 32 lanes wide, in 256 x 256 blocks of B: each
// step kk of strip j prefetches, into the second-level cache (locality<1>),
// the two cache lines of the next block (the one below, else the top of the
// next column of blocks) that lie at step (j / 32) * 256 + kk of it, read
// row after row: row step / 8, column (step % 8) * 32, clamped into B.
// CHECK-LABEL: func.func @next_block
// CHECK-SAME:    %[[B:[^:]*]]: memref<512x512xf32>
// CHECK:         scf.for %[[N:[^ ]*]] =
// CHECK:           scf.for %[[K:[^ ]*]] =
// CHECK:             scf.for %[[J:[^ ]*]] =
// CHECK:               scf.for %[[KK:[^ ]*]] =
// CHECK:                 %[[STRIP:.*]] = arith.divui %[[J]], %{{.*}} : index
// CHECK:                 %[[BEFORE:.*]] = arith.muli %[[STRIP]], %{{.*}} : index
// CHECK:                 %[[STEP:.*]] = arith.addi %[[BEFORE]], %[[KK]] : index
// CHECK:                 %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK:                 %[[ROWIN:.*]] = arith.divui %[[STEP]], %[[EIGHT]] : index
// CHECK:                 %[[BELOW:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:                 %[[WRAP:.*]] = arith.cmpi sge, %[[BELOW]], %{{.*}} : index
// CHECK:                 %[[NEXTROW:.*]] = arith.select %[[WRAP]], %{{.*}}, %[[BELOW]] : index
// CHECK:                 %[[RIGHT:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK:                 arith.select %[[WRAP]], %[[RIGHT]], %[[N]] : index
// CHECK:                 %[[R:.*]] = arith.addi %[[NEXTROW]], %[[ROWIN]] : index
// CHECK:                 %[[RC:.*]] = arith.minui %[[R]], %{{.*}} : index
// CHECK:                 memref.prefetch %[[B]][%[[RC]], %{{.*}}], read, locality<1>, data : memref<512x512xf32>
// CHECK:                 arith.constant 16 : index
// CHECK:                 memref.prefetch %[[B]][%[[RC]], %{{.*}}], read, locality<1>, data : memref<512x512xf32>
// CHECK-NEXT:            vector.transfer_read
// CHECK-NOT:       memref.prefetch
// CHECK-NOT:       aot.prefetch_next_block
func.func @next_block(%a: memref<512xf32>, %b: memref<512x512xf32>, %c: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %p = ub.poison : f32
  scf.for %n = %c0 to %c512 step %c256 {
    scf.for %k = %c0 to %c512 step %c256 {
      %blk = memref.subview %b[%k, %n] [256, 256] [1, 1] : memref<512x512xf32> to memref<256x256xf32, strided<[512, 1], offset: ?>>
      scf.for %j = %c0 to %c256 step %c32 {
        %col = arith.addi %n, %j : index
        %init = vector.transfer_read %c[%col], %p {in_bounds = [true]} : memref<512xf32>, vector<32xf32>
        %acc = scf.for %kk = %c0 to %c256 step %c1 iter_args(%v = %init) -> (vector<32xf32>) {
          %x = memref.load %a[%kk] : memref<512xf32>
          %row = memref.subview %blk[%kk, %j] [1, 32] [1, 1] : memref<256x256xf32, strided<[512, 1], offset: ?>> to memref<1x32xf32, strided<[512, 1], offset: ?>>
          %vb = vector.transfer_read %row[%c0, %c0], %p {in_bounds = [true]} : memref<1x32xf32, strided<[512, 1], offset: ?>>, vector<32xf32>
          %xb = vector.broadcast %x : f32 to vector<32xf32>
          %f = vector.fma %xb, %vb, %v : vector<32xf32>
          scf.yield %f : vector<32xf32>
        }
        vector.transfer_write %acc, %c[%col] {in_bounds = [true]} : vector<32xf32>, memref<512xf32>
      }
    } {aot.prefetch_next_block}
  }
  return
}

// -----

// Three tiles of rows run over each block: the loop over them is peeled,
// and only its first pass prefetches; the others find the block cached.
// CHECK-LABEL: func.func @row_tiles
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[ONE:.*]] = arith.constant 1 : index
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[ONE]] step
// CHECK-COUNT-2:       memref.prefetch {{.*}} locality<1>
// CHECK:             scf.for %{{.*}} = %[[ONE]] to %{{.*}} step
// CHECK-NOT:           memref.prefetch
// CHECK:         return
func.func @row_tiles(%a: memref<3x512xf32>, %b: memref<512x512xf32>, %c: memref<3x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %p = ub.poison : f32
  scf.for %n = %c0 to %c512 step %c256 {
    scf.for %k = %c0 to %c512 step %c256 {
      %blk = memref.subview %b[%k, %n] [256, 256] [1, 1] : memref<512x512xf32> to memref<256x256xf32, strided<[512, 1], offset: ?>>
      scf.for %i = %c0 to %c3 step %c1 {
        scf.for %j = %c0 to %c256 step %c32 {
          %col = arith.addi %n, %j : index
          %init = vector.transfer_read %c[%i, %col], %p {in_bounds = [true]} : memref<3x512xf32>, vector<32xf32>
          %acc = scf.for %kk = %c0 to %c256 step %c1 iter_args(%v = %init) -> (vector<32xf32>) {
            %x = memref.load %a[%i, %kk] : memref<3x512xf32>
            %row = memref.subview %blk[%kk, %j] [1, 32] [1, 1] : memref<256x256xf32, strided<[512, 1], offset: ?>> to memref<1x32xf32, strided<[512, 1], offset: ?>>
            %vb = vector.transfer_read %row[%c0, %c0], %p {in_bounds = [true]} : memref<1x32xf32, strided<[512, 1], offset: ?>>, vector<32xf32>
            %xb = vector.broadcast %x : f32 to vector<32xf32>
            %f = vector.fma %xb, %vb, %v : vector<32xf32>
            scf.yield %f : vector<32xf32>
          }
          vector.transfer_write %acc, %c[%i, %col] {in_bounds = [true]} : vector<32xf32>, memref<3x512xf32>
        }
      }
    } {aot.prefetch_next_block}
  }
  return
}

// -----

// Blocks 150 columns wide, which 32-lane strips do not divide: nothing is
// prefetched or peeled; the mark goes.
// CHECK-LABEL: func.func @uneven_block
// CHECK-NOT:     memref.prefetch
// CHECK-NOT:     aot.prefetch_next_block
// CHECK:         return
func.func @uneven_block(%a: memref<512xf32>, %b: memref<512x150xf32>, %c: memref<150xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c150 = arith.constant 150 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %p = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<32xf32>
  scf.for %k = %c0 to %c512 step %c256 {
    %blk = memref.subview %b[%k, 0] [256, 150] [1, 1] : memref<512x150xf32> to memref<256x150xf32, strided<[150, 1], offset: ?>>
    scf.for %j = %c0 to %c150 step %c32 {
      %acc = scf.for %kk = %c0 to %c256 step %c1 iter_args(%v = %zero) -> (vector<32xf32>) {
        %x = memref.load %a[%kk] : memref<512xf32>
        %row = memref.subview %blk[%kk, %j] [1, 32] [1, 1] : memref<256x150xf32, strided<[150, 1], offset: ?>> to memref<1x32xf32, strided<[150, 1], offset: ?>>
        %vb = vector.transfer_read %row[%c0, %c0], %p {in_bounds = [true]} : memref<1x32xf32, strided<[150, 1], offset: ?>>, vector<32xf32>
        %xb = vector.broadcast %x : f32 to vector<32xf32>
        %f = vector.fma %xb, %vb, %v : vector<32xf32>
        scf.yield %f : vector<32xf32>
      }
      vector.transfer_write %acc, %c[%j] : vector<32xf32>, memref<150xf32>
    }
  } {aot.prefetch_next_block}
  return
}
