// RUN: aot-opt %s --split-input-file --aot-x86-pair-dot | FileCheck %s

// After bufferization: each vector.contract tagged aot.pair_dot (16 pairs of
// i16 summed pairwise into 16 i32 lanes, plus an accumulator) becomes x86's
// vpmaddwd intrinsic on the pairs flattened to 32 x i16, and an addi of the
// accumulator. Loops marked aot.pair_dot_products (i8/i16 dot products into
// 32 lanes of i32 per result, only summed whole after the loop) first become
// such pair dots into 16 lanes. Untagged contractions are left alone.

#pairs = affine_map<(j, t) -> (j, t)>
#lanes = affine_map<(j, t) -> (j)>

// A register tile's step of two values of K: the tagged pair dot becomes
// the intrinsic and an add; the untagged contraction stays.
// CHECK-LABEL: func.func @tagged
// CHECK-SAME:    (%[[A:.*]]: vector<16x2xi16>, %[[B:.*]]: vector<16x2xi16>, %[[ACC:.*]]: vector<16xi32>)
// CHECK:         %[[FA:.*]] = vector.shape_cast %[[A]] : vector<16x2xi16> to vector<32xi16>
// CHECK-NEXT:    %[[FB:.*]] = vector.shape_cast %[[B]] : vector<16x2xi16> to vector<32xi16>
// CHECK-NEXT:    %[[P:.*]] = llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"(%[[FA]], %[[FB]]) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[ACC]], %[[P]] : vector<16xi32>
// CHECK-NEXT:    %[[PLAIN:.*]] = vector.contract {{.*}} %[[A]], %[[B]], %[[SUM]] : vector<16x2xi16>, vector<16x2xi16> into vector<16xi32>
// CHECK-NEXT:    return %[[PLAIN]]
func.func @tagged(%a: vector<16x2xi16>, %b: vector<16x2xi16>, %acc: vector<16xi32>) -> vector<16xi32> {
  %0 = vector.contract {indexing_maps = [#pairs, #pairs, #lanes], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc {aot.pair_dot} : vector<16x2xi16>, vector<16x2xi16> into vector<16xi32>
  %1 = vector.contract {indexing_maps = [#pairs, #pairs, #lanes], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %0 : vector<16x2xi16>, vector<16x2xi16> into vector<16xi32>
  return %1 : vector<16xi32>
}

// -----

// Two i8 dot products (two rows of A by one row of B), 32 values of K a
// step: the loop now carries 2 x 16 lanes, each row's 32 values widened to
// i16 and taken as 16 pairs into one pmaddw with B's; after the loop the 16
// lanes are widened back to 32 with zeros for the sums. The mark goes.
// CHECK-LABEL: func.func @i8_dot_products
// CHECK-DAG:     %[[ZERO16:.*]] = arith.constant dense<0> : vector<2x16xi32>
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO16]]) -> (vector<2x16xi32>) {
// CHECK:           %[[VA:.*]] = vector.transfer_read {{.*}} : memref<2x256xi8>, vector<2x32xi8>
// CHECK:           %[[VB:.*]] = vector.transfer_read {{.*}} : memref<256xi8>, vector<32xi8>
// CHECK:           %[[ACC0:.*]] = vector.extract %[[ACC]][0] : vector<16xi32> from vector<2x16xi32>
// CHECK:           %[[B16:.*]] = arith.extsi %[[VB]] : vector<32xi8> to vector<32xi16>
// CHECK:           %[[ROW0:.*]] = vector.extract %[[VA]][0] : vector<32xi8> from vector<2x32xi8>
// CHECK:           %[[A16:.*]] = arith.extsi %[[ROW0]] : vector<32xi8> to vector<32xi16>
// CHECK:           %[[P0:.*]] = llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
// CHECK:           %[[S0:.*]] = arith.addi %[[ACC0]], %[[P0]] : vector<16xi32>
// CHECK:           %[[T0:.*]] = vector.insert %[[S0]], %[[ACC]] [0] : vector<16xi32> into vector<2x16xi32>
// CHECK:           vector.extract %[[VA]][1] : vector<32xi8> from vector<2x32xi8>
// CHECK:           %[[P1:.*]] = llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
// CHECK:           %[[S1:.*]] = arith.addi %{{.*}}, %[[P1]] : vector<16xi32>
// CHECK:           %[[T1:.*]] = vector.insert %[[S1]], %[[T0]] [1] : vector<16xi32> into vector<2x16xi32>
// CHECK-NEXT:      scf.yield %[[T1]] : vector<2x16xi32>
// CHECK-NEXT:    }
// CHECK-NOT:     aot.pair_dot_products
// CHECK:         %[[ZERO32:.*]] = arith.constant dense<0> : vector<2x32xi32>
// CHECK:         %[[WIDE:.*]] = vector.insert_strided_slice %[[R]], %[[ZERO32]] {offsets = [0, 0], strides = [1, 1]} : vector<2x16xi32> into vector<2x32xi32>
// CHECK:         vector.extract %[[WIDE]][0]
// CHECK:         vector.reduction <add>
// CHECK:         vector.extract %[[WIDE]][1]
// CHECK:         vector.reduction <add>
func.func @i8_dot_products(%a: memref<2x256xi8>, %b: memref<256xi8>, %out: memref<2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %p = ub.poison : i8
  %zero = arith.constant dense<0> : vector<2x32xi32>
  %init = arith.constant 0 : i32
  %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %zero) -> (vector<2x32xi32>) {
    %va = vector.transfer_read %a[%c0, %k], %p {in_bounds = [true, true]} : memref<2x256xi8>, vector<2x32xi8>
    %vb = vector.transfer_read %b[%k], %p {in_bounds = [true]} : memref<256xi8>, vector<32xi8>
    %bb = vector.broadcast %vb : vector<32xi8> to vector<2x32xi8>
    %wa = arith.extsi %va : vector<2x32xi8> to vector<2x32xi32>
    %wb = arith.extsi %bb : vector<2x32xi8> to vector<2x32xi32>
    %m = arith.muli %wa, %wb : vector<2x32xi32>
    %s = arith.addi %acc, %m : vector<2x32xi32>
    scf.yield %s : vector<2x32xi32>
  } {aot.pair_dot_products}
  %r0 = vector.extract %r[0] : vector<32xi32> from vector<2x32xi32>
  %s0 = vector.reduction <add>, %r0, %init : vector<32xi32> into i32
  %r1 = vector.extract %r[1] : vector<32xi32> from vector<2x32xi32>
  %s1 = vector.reduction <add>, %r1, %init : vector<32xi32> into i32
  memref.store %s0, %out[%c0] : memref<2xi32>
  memref.store %s1, %out[%c1] : memref<2xi32>
  return
}

// -----

// One i16 dot product: the operands are pairs already (no widening).
// CHECK-LABEL: func.func @i16_dot_product
// CHECK:         scf.for {{.*}} -> (vector<16xi32>) {
// CHECK-NOT:       arith.extsi {{.*}} to vector<32xi16>
// CHECK:           %[[PA:.*]] = vector.shape_cast %{{.*}} : vector<32xi16> to vector<16x2xi16>
// CHECK:           llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"
// CHECK:         vector.insert_strided_slice {{.*}} {offsets = [0], strides = [1]} : vector<16xi32> into vector<32xi32>
func.func @i16_dot_product(%a: memref<64xi16>, %b: memref<64xi16>) -> i32 {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %p = ub.poison : i16
  %zero = arith.constant dense<0> : vector<32xi32>
  %init = arith.constant 0 : i32
  %r = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %zero) -> (vector<32xi32>) {
    %va = vector.transfer_read %a[%k], %p {in_bounds = [true]} : memref<64xi16>, vector<32xi16>
    %vb = vector.transfer_read %b[%k], %p {in_bounds = [true]} : memref<64xi16>, vector<32xi16>
    %wa = arith.extsi %va : vector<32xi16> to vector<32xi32>
    %wb = arith.extsi %vb : vector<32xi16> to vector<32xi32>
    %m = arith.muli %wa, %wb : vector<32xi32>
    %s = arith.addi %acc, %m : vector<32xi32>
    scf.yield %s : vector<32xi32>
  } {aot.pair_dot_products}
  %sum = vector.reduction <add>, %r, %init : vector<32xi32> into i32
  return %sum : i32
}

// -----

// A marked loop whose lanes are used one by one after it (here, stored)
// cannot regroup its products: it stays as it is, without the mark.
// CHECK-LABEL: func.func @lanes_stored
// CHECK:         scf.for {{.*}} -> (vector<32xi32>) {
// CHECK:           arith.muli {{.*}} : vector<32xi32>
// CHECK-NOT:       llvm.call_intrinsic
// CHECK:         }
// CHECK-NOT:     aot.pair_dot_products
// CHECK:         vector.transfer_write
func.func @lanes_stored(%a: memref<64xi8>, %b: memref<64xi8>, %out: memref<32xi32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %p = ub.poison : i8
  %zero = arith.constant dense<0> : vector<32xi32>
  %r = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %zero) -> (vector<32xi32>) {
    %va = vector.transfer_read %a[%k], %p {in_bounds = [true]} : memref<64xi8>, vector<32xi8>
    %vb = vector.transfer_read %b[%k], %p {in_bounds = [true]} : memref<64xi8>, vector<32xi8>
    %wa = arith.extsi %va : vector<32xi8> to vector<32xi32>
    %wb = arith.extsi %vb : vector<32xi8> to vector<32xi32>
    %m = arith.muli %wa, %wb : vector<32xi32>
    %s = arith.addi %acc, %m : vector<32xi32>
    scf.yield %s : vector<32xi32>
  } {aot.pair_dot_products}
  vector.transfer_write %r, %out[%c0] {in_bounds = [true]} : vector<32xi32>, memref<32xi32>
  return
}
