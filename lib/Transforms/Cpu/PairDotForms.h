//===- PairDotForms.h - integer products as pairs of i16 into i32 ---------===//
//
// Part of aot-tile-and-vectorize on x86 with AVX512BW: products of i8 or i16
// values summed in i32, two at a time into each i32 lane, tagged
// kPairDotAttr for aot-x86-pair-dot (vpmaddwd; vpdpwssd with AVX-512 VNNI).
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_PAIRDOTFORMS_H
#define AOT_TRANSFORMS_CPU_PAIRDOTFORMS_H

#include "mlir/IR/PatternMatch.h"

namespace aot {

/// i32 lanes of a pair dot (a 512-bit vector), and the values of K that a
/// step of pairDotProducts takes into them, two per lane.
constexpr int64_t kPairDotLanes = 16;
constexpr int64_t kPairDotChunk = 2 * kPairDotLanes;

/// Whether `v` (a scalar, vector or tensor) holds i8 or i16 values.
bool holdsI8OrI16(mlir::Value v);

/// The i8 or i16 vector whose values a contraction operand `v` holds: `v`
/// itself (a contraction sign-extends narrower integer operands to its
/// accumulator's type) or what it is sign-extended from; else null.
mlir::Value signExtendedSmall(mlir::Value v);

/// `acc` (vector<16xi32>) plus, in lane j, a[j][0] * b[j][0] + a[j][1] *
/// b[j][1] for `a` and `b` of type vector<16x2xi16>: a vector.contract
/// tagged kPairDotAttr.
mlir::Value createPairDot(mlir::RewriterBase &rewriter, mlir::Location loc,
                          mlir::Value a, mlir::Value b, mlir::Value acc);

/// The loops under `root` marked kPairDotProductsAttr (integer dot
/// products, each result reduced along K into 32 lanes of i32 a step) as
/// pair dots into 16 lanes, where their accumulator is only ever summed
/// whole (see PairDotForms.cpp); the mark goes either way.
void pairDotProducts(mlir::Operation *root, mlir::RewriterBase &rewriter);

} // namespace aot

#endif // AOT_TRANSFORMS_CPU_PAIRDOTFORMS_H
