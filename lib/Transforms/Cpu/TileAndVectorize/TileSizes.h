//===- TileSizes.h - register tiles and cache blocks, chosen
//---------------===//
//
// The strategy of aot-tile-and-vectorize: which ops are tiled, the sizes of
// their register tiles (contractions, convolutions, elementwise ops, row
// reductions and dot products), the order of the tile loops and which of
// them may run on threads. Functions of the op, its shape and the pass's
// options; nothing here changes the IR.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace aot::tile_and_vectorize {

/// The pass's options that size the tiles.
struct TileOptions {
  /// Rows and columns of a contraction's register block.
  int64_t tileM = 8, tileN = 32;
  /// Elements per vector of an elementwise op or a reduction.
  int64_t vectorWidth = 16;
  /// Integer matmuls of i8 or i16 operands take two steps of K at a time.
  bool pairDot = false;
};

/// What a tiled dim becomes in the vectors: rows or lanes.
enum class Along { Rows, Lanes };

/// The tile size of a loop of `dim` iterations that wants tiles of
/// `wanted` (see the definition for how a partial tile is avoided).
int64_t tileFor(int64_t dim, int64_t wanted, Along along);

/// A cache block of a loop of `dim` iterations, about `wanted`, that
/// register tiles `tile` wide then run over: tileFor's block where it is
/// whole tiles, else an even block of whole tiles, else `wanted` cut to
/// whole tiles (only the last block ragged). A block that is not whole
/// tiles ends in a partial, masked tile in every block.
int64_t blockOfTiles(int64_t dim, int64_t wanted, int64_t tile);

/// `block`, blocks of whole tiles `tile` wide over a static loop of `dim`
/// iterations that run on `threads`, where their count is a multiple of
/// `threads`; else the widest block of whole tiles, at least half of
/// `block`, that cuts `dim`'s tiles into such a count; else `block`.
/// Unequal shares leave threads waiting for the last.
int64_t blockForThreads(int64_t dim, int64_t block, int64_t tile,
                        int64_t threads);

/// Whether `op` reads or writes i1 values (never vectorized).
bool touchesI1(mlir::linalg::LinalgOp op);
/// Whether `op` multiplies i8 or i16 operands into an i32 result.
bool isSmallIntegerContraction(mlir::linalg::LinalgOp op);
/// The loop an op with one result reduces along, if exactly one.
std::optional<unsigned> reductionLoop(mlir::linalg::LinalgOp op);
/// For a matmul with B stored transposed and few rows of A: its tiles of
/// outputs, each a dot product along K; none for any other op.
std::optional<llvm::SmallVector<int64_t>>
dotProductTiles(mlir::linalg::LinalgOp op);
/// For a matmul of few rows of A by B stored K x N: the order of its
/// register tiles' loops; empty for any other op.
llvm::SmallVector<int64_t> fewRowsOrder(mlir::linalg::LinalgOp op);
/// Whether `op` is a 2-D convolution whose filter holds more values than
/// one image of its input (its blocks of output channels run outermost).
bool filterOutweighsImage(mlir::linalg::LinalgOp op);
/// The threads the compiled code runs on (0: the runtime's count).
int64_t runThreads(mlir::Operation *op);
/// The threads to share work out among: runThreads, or 2 where the count
/// is the runtime's, unknown while compiling.
int64_t threadsToShareFor(mlir::Operation *op);

/// A tile loop that may run on threads.
struct ParallelLoop {
  /// Its index among the loops tiling makes.
  unsigned index;
  /// When its trip count is dynamic and every other dim of the op static:
  /// the fewest trips with enough work for threads (fewer run on the
  /// calling thread, decided when the code runs). 0: no such bound.
  int64_t minTrips;
  /// In a contraction whose sizes are all dynamic, the next tile loop
  /// inside this one over a parallel dim, which runs on threads where this
  /// one makes a single trip (a dynamic matmul of N <= 256: one block of
  /// columns, its blocks of rows on threads).
  std::optional<unsigned> fallback;
};

/// Which tile loop of those that tiling `op` with `sizes` (in the order of
/// `interchange`, if any) makes can run on threads, if any.
std::optional<ParallelLoop> parallelLoop(mlir::linalg::LinalgOp op,
                                         llvm::ArrayRef<int64_t> sizes,
                                         llvm::ArrayRef<int64_t> interchange);

/// Register tile sizes for `op` (a contraction, a convolution or pooling,
/// an elementwise op or fill), or empty when it is not tiled so.
llvm::SmallVector<int64_t> tileSizesFor(mlir::linalg::LinalgOp op,
                                        const TileOptions &options);

/// Whether tile `t`, tiled with `sizes`, is smaller than them.
bool isPartialTile(mlir::linalg::LinalgOp t, llvm::ArrayRef<int64_t> sizes);

/// The loop of a convolution's or pool's output pixels along W (n, oh, ow,
/// ...), whose register block convolutionTiles sizes.
constexpr std::size_t kPixelLoop = 2;

/// Whether `op` is a 2-D convolution or pool in NHWC layout, tiled a
/// register block of output pixels at a time (loop kPixelLoop). Its tiles
/// are vectorized only at static shapes (the vectorizer takes no masks for
/// them).
bool windowedOverPixels(mlir::linalg::LinalgOp op);
/// Whether `op`'s body divides integers (a masked lane could divide by 0).
bool dividesIntegers(mlir::linalg::LinalgOp op);

} // namespace aot::tile_and_vectorize
