//===- VectorLowering.h - vector ops as LLVM can take them
//-----------------===//
//
// The end of aot-tile-and-vectorize: contractions as outer products (FMAs
// on rows), transfers and masks in the forms the LLVM lowering takes, vector
// math as polynomial approximations, the accumulators of register tiles
// hoisted out of their reduction loops, and the register blocks of integer
// matmuls as pair dots (x86 vpmaddwd) where the pass is asked for them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace aot::tile_and_vectorize {

/// Contractions as outer products, transfers with permutation maps and
/// masks as plain ones, multi-reductions as 1-D horizontal reductions.
mlir::FrozenRewritePatternSet vectorLoweringPatterns(mlir::MLIRContext *ctx);
/// MLIR's polynomial approximations of math functions, erf on f32 vectors
/// as one rational function (ErfApproximation.h).
mlir::FrozenRewritePatternSet approximationPatterns(mlir::MLIRContext *ctx);

/// Marks the register blocks of integer matmuls that become pair dots.
/// Whether there is one.
bool markPairDotBlocks(mlir::func::FuncOp fn);
/// Lowers the vector ops of `fn` with `patterns`, the marked pair-dot
/// blocks left as they are.
mlir::LogicalResult lowerVectors(mlir::func::FuncOp fn,
                                 const mlir::FrozenRewritePatternSet &patterns,
                                 bool pairDotBlocks);
/// Math on vectors as vector arithmetic (`patterns`); scalar math keeps
/// its libm call.
void approximateVectorMath(mlir::func::FuncOp fn,
                           const mlir::FrozenRewritePatternSet &patterns);
/// Hoists the output tiles' reads and writes out of their reduction loops,
/// and what depends only on outer loops out of inner ones.
void keepAccumulatorsInRegisters(mlir::func::FuncOp fn,
                                 mlir::RewriterBase &rewriter);
/// Float horizontal adds as trees of adds (reassoc).
void reassociateLaneMerges(mlir::func::FuncOp fn);
/// The marked pair-dot blocks as pair dots.
void splitPairDotBlocks(mlir::func::FuncOp fn, mlir::RewriterBase &rewriter);

} // namespace aot::tile_and_vectorize
