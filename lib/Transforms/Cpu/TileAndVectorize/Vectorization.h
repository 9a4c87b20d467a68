//===- Vectorization.h - tiles as vector ops
//-------------------------------===//
//
// The vectorization of aot-tile-and-vectorize: convolution tiles (size-1
// windows) become 1-D convolutions, every tile marked with its vector sizes
// (Tiling.h) becomes vector ops (a partial tile masked, at the full tile's
// size), and generic contractions become vector.contract.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"

namespace aot::tile_and_vectorize {

/// 2-D convolutions with size-1 windows as the 1-D ones the vectorizer takes.
mlir::FrozenRewritePatternSet
convolutionDecompositionPatterns(mlir::MLIRContext *ctx);
/// A linalg.generic contraction's broadcast product and multi-reduction
/// as a vector.contract, which lowers like a named one's.
mlir::FrozenRewritePatternSet contractionPatterns(mlir::MLIRContext *ctx);
/// A reduction over dims of size 1 as the combining op itself.
mlir::FrozenRewritePatternSet unitReductionPatterns(mlir::MLIRContext *ctx);

/// Decomposes the convolution tiles of `fn`, marking the new ones for
/// vectorization.
void decomposeConvolutionTiles(
    mlir::func::FuncOp fn,
    const mlir::FrozenRewritePatternSet &convDecomposition);
/// Vectorizes every tile of `fn` marked with its vector sizes.
void vectorizeTiles(mlir::IRRewriter &rewriter, mlir::func::FuncOp fn);
/// Contractions as vector.contract, reductions of one row as the op.
void formContractions(mlir::func::FuncOp fn,
                      const mlir::FrozenRewritePatternSet &toContraction,
                      const mlir::FrozenRewritePatternSet &unitReductions);

} // namespace aot::tile_and_vectorize
