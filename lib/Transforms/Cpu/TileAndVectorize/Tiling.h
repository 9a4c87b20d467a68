//===- Tiling.h - register tiles and cache blocks, made
//--------------------===//
//
// The tiling of aot-tile-and-vectorize: each op the strategy (TileSizes.h)
// sizes is tiled in place with scf.for loops (cache blocks first for large
// contractions, a panel of B packed where enough rows read it), its tiles
// marked with their vector sizes (kVectorSizes) for the vectorizer; loops
// whose last tile may be partial are peeled, and the loop that may run on
// threads is marked aot.parallel.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Transforms/Cpu/TileAndVectorize/TileSizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace aot::tile_and_vectorize {

/// The vector sizes of a tile, from tiling until it is vectorized.
constexpr llvm::StringLiteral kVectorSizes = "aot.vector_sizes";

/// Marks `op`, if a linalg op, for vectorization at its own (static) shape.
void markForVectors(mlir::Operation *op);

/// Tiles `op` in place with tile sizes `sizes` (its uses take the tiled
/// loops' results) and marks the loop that may run on threads, if any.
mlir::FailureOr<mlir::scf::SCFTilingResult>
tileInPlace(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
            llvm::ArrayRef<int64_t> sizes, mlir::scf::SCFTilingOptions options);

/// Peels `loop`, the tile loop over a dim of `range` iterations in tiles of
/// `size`, where its last tile may be partial; the loop of that tile goes to
/// `remainder` if given. Whether it did.
bool peelPartialTile(mlir::RewriterBase &rewriter,
                     mlir::LoopLikeOpInterface loop, int64_t range,
                     int64_t size, mlir::scf::ForOp *remainder = nullptr);

/// Tiles `op` in place with `sizes` for vectorization (tiles marked,
/// partial tile loops peeled, setting `peeled`), its tile loops in `order`
/// if given.
mlir::LogicalResult tileForVectors(mlir::IRRewriter &rewriter,
                                   mlir::linalg::LinalgOp op,
                                   llvm::ArrayRef<int64_t> sizes, bool &peeled,
                                   llvm::ArrayRef<int64_t> order = {});

/// Tiles a reduction along loop `reduced` of `op` into vector-wide partial
/// results; with `outputs`, tiles of outputs reduced side by side (dot
/// products). True when tiled.
bool tileReduction(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
                   unsigned reduced, const TileOptions &options, bool &peeled,
                   llvm::ArrayRef<int64_t> outputs = {});

/// A large contraction cut into cache blocks (a panel of B packed where
/// enough rows read it) for register tiles of `options`; returns the
/// block's op, or `op`. Where each block fills its own results in place of
/// a fill of the whole (fillPerBlock), that fill goes to `blockFill`.
mlir::linalg::LinalgOp cacheBlocks(mlir::IRRewriter &rewriter,
                                   mlir::linalg::LinalgOp op,
                                   const TileOptions &options,
                                   mlir::linalg::FillOp &blockFill);

/// Tiles every op of `fn` the strategy sizes: reductions, dot products,
/// then contractions, convolutions and elementwise ops. Whether a loop was
/// peeled (its full tiles then need canonicalizing to become static).
bool tileFunction(mlir::IRRewriter &rewriter, mlir::func::FuncOp fn,
                  const TileOptions &options);

} // namespace aot::tile_and_vectorize
