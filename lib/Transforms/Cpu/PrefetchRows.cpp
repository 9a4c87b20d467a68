//===- PrefetchRows.cpp - aot-prefetch-rows -------------------------------===//
//
// Dot products of few rows of A by B stored transposed read several rows of
// B side by side, each stream a row of B (K elements) from the next. The
// hardware prefetcher follows them late, and a software prefetch of each
// row eight cache lines ahead makes them faster (aot-bench --only=layouts;
// docs/performance.md, "Matmul layouts and few rows"); in a hand-written
// loop over a single row it made it slower, so reads of one row are left
// alone.
//
// A matmul of too few rows to pack B reads it where it lies, a cache block
// at a time, each register tile down a strip of it: every step of K a new
// row, from memory a new page. While a block runs, the next one is
// prefetched in the order it lies in memory.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aot {
#define GEN_PASS_DEF_PREFETCHROWS
#include "Transforms/Cpu/Passes.h.inc"

namespace {

/// How far ahead along a row each prefetch reaches: eight cache lines (in
/// a hand-written loop over a 2048 x 2048 B, 1, 1.5 and 2 KiB ahead were
/// slower).
constexpr int64_t kPrefetchBytes = 512;

/// Prefetches, for each row of `read` (a vector of at least two rows read
/// along the innermost dim of a memref, in bounds), the element kPrefetchBytes
/// past where the row's read starts, in the buffer the loop's slice of it is
/// taken from, clamped to that buffer's last column so that the address
/// stays inside it.
void prefetchRows(mlir::vector::TransferReadOp read, mlir::scf::ForOp loop) {
  mlir::VectorType vector = read.getVectorType();
  auto slice = read.getBase().getDefiningOp<mlir::memref::SubViewOp>();
  if (vector.getRank() < 2 || vector.isScalable() ||
      !read.getPermutationMap().isMinorIdentity() || !slice ||
      !loop.isDefinedOutsideOfLoop(slice.getSource()))
    return;
  auto whole = llvm::cast<mlir::MemRefType>(slice.getSource().getType());
  const int64_t rank = whole.getRank();
  const int64_t rows = vector.getDimSize(vector.getRank() - 2);
  // Rows past the buffer's end would make addresses outside it: only reads
  // known in bounds along the rows, unmasked.
  if (slice.getType().getRank() != rank || rows < 2 || !slice.hasUnitStride() ||
      !whole.getElementType().isIntOrFloat() || read.getMask() ||
      !read.getInBoundsValues()[vector.getRank() - 2])
    return;
  const int64_t elementBytes =
      llvm::divideCeil(whole.getElementTypeBitWidth(), 8);

  mlir::OpBuilder b(read);
  mlir::Location loc = read.getLoc();
  // The read's indices in the whole buffer: the slice's offsets plus the
  // read's own (its indices cover the memref's trailing dims).
  llvm::SmallVector<mlir::Value> at;
  llvm::SmallVector<mlir::OpFoldResult> offsets = slice.getMixedOffsets();
  mlir::ValueRange indices = read.getIndices();
  for (int64_t d = 0; d < rank; ++d) {
    mlir::Value offset =
        mlir::getValueOrCreateConstantIndexOp(b, loc, offsets[d]);
    at.push_back(mlir::arith::AddIOp::create(b, loc, offset, indices[d]));
  }
  mlir::Value ahead = mlir::arith::ConstantIndexOp::create(
      b, loc, std::max<int64_t>(1, kPrefetchBytes / elementBytes));
  mlir::Value last = mlir::arith::SubIOp::create(
      b, loc, mlir::memref::DimOp::create(b, loc, slice.getSource(), rank - 1),
      mlir::arith::ConstantIndexOp::create(b, loc, 1));
  at[rank - 1] = mlir::arith::MinSIOp::create(
      b, loc, mlir::arith::AddIOp::create(b, loc, at[rank - 1], ahead), last);
  mlir::Value firstRow = at[rank - 2];
  for (int64_t r = 0; r < rows; ++r) {
    at[rank - 2] = mlir::arith::AddIOp::create(
        b, loc, firstRow, mlir::arith::ConstantIndexOp::create(b, loc, r));
    mlir::memref::PrefetchOp::create(b, loc, slice.getSource(), at,
                                     /*isWrite=*/false, /*localityHint=*/3,
                                     /*isDataCache=*/true);
  }
}

/// The read of B's row in a step of `kLoop`, a register tile's loop along K
/// inside `blockLoop` (a loop over K blocks marked aot.prefetch_next_block),
/// where the loops have the shape aot-tile-and-vectorize gives them: the
/// read of one row of a strip of the block, the block a slice of B (K x N,
/// defined outside `blockLoop`) of static sizes that the strips divide.
struct BlockRead {
  mlir::vector::TransferReadOp read;
  /// The block of B, a subview in `blockLoop`'s body.
  mlir::memref::SubViewOp block;
  /// The loop over the block's strips, the strip's first column, and the
  /// step along K (the index of the tile's loop).
  mlir::scf::ForOp stripLoop;
  mlir::Value strip, k;
  int64_t width, blockK, blockN;
};

std::optional<BlockRead> matchBlockRead(mlir::scf::ForOp blockLoop,
                                        mlir::scf::ForOp kLoop) {
  // B's row in this step: a vector read of one row of a slice of the block.
  mlir::vector::TransferReadOp read;
  mlir::memref::SubViewOp row, block;
  for (mlir::Operation &op : kLoop.getBody()->without_terminator()) {
    auto candidate = llvm::dyn_cast<mlir::vector::TransferReadOp>(op);
    auto slice =
        candidate ? candidate.getBase().getDefiningOp<mlir::memref::SubViewOp>()
                  : nullptr;
    auto whole =
        slice ? slice.getSource().getDefiningOp<mlir::memref::SubViewOp>()
              : nullptr;
    if (!whole || whole->getBlock() != blockLoop.getBody() ||
        candidate.getVectorType().getRank() != 1 || candidate.getMask())
      continue;
    read = candidate;
    row = slice;
    block = whole;
    break;
  }
  if (!read)
    return std::nullopt;
  mlir::Value matrix = block.getSource();
  auto bType = llvm::cast<mlir::MemRefType>(matrix.getType());
  const int64_t width = read.getVectorType().getDimSize(0);
  llvm::ArrayRef<int64_t> blockSizes = block.getStaticSizes();
  if (bType.getRank() != 2 || block.getType().getRank() != 2 ||
      !blockLoop.isDefinedOutsideOfLoop(matrix) ||
      !bType.getElementType().isIntOrFloat() || !block.hasUnitStride() ||
      mlir::ShapedType::isDynamic(blockSizes[0]) ||
      mlir::ShapedType::isDynamic(blockSizes[1]) || blockSizes[1] % width)
    return std::nullopt;
  const int64_t blockK = blockSizes[0], blockN = blockSizes[1];
  // The row read: at (k, strip) of the block, k this loop's index.
  llvm::SmallVector<mlir::OpFoldResult> at = row.getMixedOffsets();
  auto strip = llvm::dyn_cast_if_present<mlir::Value>(at[1]);
  auto stripLoop =
      strip ? mlir::scf::getForInductionVarOwner(strip) : mlir::scf::ForOp();
  if (llvm::dyn_cast_if_present<mlir::Value>(at[0]) !=
          kLoop.getInductionVar() ||
      mlir::getConstantIntValue(kLoop.getLowerBound()) != 0 ||
      mlir::getConstantIntValue(kLoop.getStep()) != 1 ||
      mlir::getConstantIntValue(kLoop.getUpperBound()) != blockK ||
      !stripLoop || !blockLoop->isProperAncestor(stripLoop) ||
      mlir::getConstantIntValue(stripLoop.getLowerBound()) != 0 ||
      mlir::getConstantIntValue(stripLoop.getStep()) != width ||
      mlir::getConstantIntValue(stripLoop.getUpperBound()) != blockN)
    return std::nullopt;
  return BlockRead{read,  block,  stripLoop, strip, kLoop.getInductionVar(),
                   width, blockK, blockN};
}

/// Before `at.read`, in a pass of the tiles that walks the whole block,
/// prefetches as many bytes of B's next block as the step reads of this
/// one: the tiles of a block, strip after strip, step after step, then walk
/// the next block row after row, as it lies in memory. This pays where B is
/// read from memory and does not slow the layers where B is in the cache
/// (8 layers of 8 x 1024 @ 1024 x 1024; aot-bench --only=stacked,
/// docs/performance.md, "Stacked weights, and B read from memory"). The
/// next block is the one below, else the first of the next column of
/// blocks; addresses are clamped into B.
void prefetchNextBlock(BlockRead at) {
  mlir::Value matrix = at.block.getSource();
  auto bType = llvm::cast<mlir::MemRefType>(matrix.getType());
  mlir::OpBuilder b0(at.read);
  mlir::Location loc = at.read.getLoc();
  auto index = [&](int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b0, loc, v).getResult();
  };
  const int64_t strips = at.blockN / at.width;
  // This step's place among the block's steps, and where as many bytes
  // lie in the next block, read row after row.
  mlir::Value step = mlir::arith::AddIOp::create(
      b0, loc,
      mlir::arith::MulIOp::create(
          b0, loc,
          mlir::arith::DivUIOp::create(b0, loc, at.strip, index(at.width)),
          index(at.blockK)),
      at.k);
  mlir::Value rowIn =
      mlir::arith::DivUIOp::create(b0, loc, step, index(strips));
  mlir::Value colIn = mlir::arith::MulIOp::create(
      b0, loc, mlir::arith::RemUIOp::create(b0, loc, step, index(strips)),
      index(at.width));
  llvm::SmallVector<mlir::OpFoldResult> origin = at.block.getMixedOffsets();
  mlir::Value row0 = mlir::getValueOrCreateConstantIndexOp(b0, loc, origin[0]);
  mlir::Value col0 = mlir::getValueOrCreateConstantIndexOp(b0, loc, origin[1]);
  mlir::Value rows = mlir::memref::DimOp::create(b0, loc, matrix, 0);
  mlir::Value cols = mlir::memref::DimOp::create(b0, loc, matrix, 1);
  mlir::Value below =
      mlir::arith::AddIOp::create(b0, loc, row0, index(at.blockK));
  mlir::Value wrap = mlir::arith::CmpIOp::create(
      b0, loc, mlir::arith::CmpIPredicate::sge, below, rows);
  mlir::Value nextRow =
      mlir::arith::SelectOp::create(b0, loc, wrap, index(0), below);
  mlir::Value nextCol = mlir::arith::SelectOp::create(
      b0, loc, wrap,
      mlir::arith::AddIOp::create(b0, loc, col0, index(at.blockN)), col0);
  mlir::Value lastRow = mlir::arith::SubIOp::create(b0, loc, rows, index(1));
  mlir::Value lastCol = mlir::arith::SubIOp::create(b0, loc, cols, index(1));
  mlir::Value r = mlir::arith::MinUIOp::create(
      b0, loc, mlir::arith::AddIOp::create(b0, loc, nextRow, rowIn), lastRow);
  mlir::Value c = mlir::arith::AddIOp::create(b0, loc, nextCol, colIn);
  const int64_t elementBytes =
      llvm::divideCeil(bType.getElementTypeBitWidth(), 8);
  const int64_t lineElements = std::max<int64_t>(1, 64 / elementBytes);
  for (int64_t e = 0; e < at.width; e += lineElements) {
    mlir::Value col = mlir::arith::MinUIOp::create(
        b0, loc, mlir::arith::AddIOp::create(b0, loc, c, index(e)), lastCol);
    // Into the second-level cache: into the first (as the prefetches of
    // rows do) it evicted the block being computed, and the layers ran
    // slower (aot-bench --only=stacked).
    mlir::memref::PrefetchOp::create(b0, loc, matrix, mlir::ValueRange{r, col},
                                     /*isWrite=*/false, /*localityHint=*/1,
                                     /*isDataCache=*/true);
  }
}

/// The register tiles' loops along K in `scope`: innermost, carrying
/// vectors.
llvm::SmallVector<mlir::scf::ForOp> tileLoops(mlir::Operation *scope) {
  llvm::SmallVector<mlir::scf::ForOp> tiles;
  scope->walk([&](mlir::scf::ForOp loop) {
    bool innermost = true;
    loop.getBody()->walk([&](mlir::scf::ForOp) { innermost = false; });
    if (innermost && llvm::any_of(loop.getInitArgs(), [](mlir::Value v) {
          return llvm::isa<mlir::VectorType>(v.getType());
        }))
      tiles.push_back(loop);
  });
  return tiles;
}

/// The scf.for loops in `op` marked `attr`, their marks removed.
llvm::SmallVector<mlir::scf::ForOp> takeMarked(mlir::Operation *op,
                                               llvm::StringRef attr) {
  llvm::SmallVector<mlir::scf::ForOp> marked;
  op->walk([&](mlir::scf::ForOp loop) {
    if (loop->removeAttr(attr))
      marked.push_back(loop);
  });
  return marked;
}

struct PrefetchRowsPass : impl::PrefetchRowsBase<PrefetchRowsPass> {
  void runOnOperation() override {
    for (mlir::scf::ForOp loop :
         takeMarked(getOperation(), kPrefetchRowsAttr)) {
      llvm::SmallVector<mlir::vector::TransferReadOp> reads;
      for (mlir::Operation &op : loop.getBody()->without_terminator())
        if (auto read = llvm::dyn_cast<mlir::vector::TransferReadOp>(op))
          reads.push_back(read);
      for (mlir::vector::TransferReadOp read : reads)
        prefetchRows(read, loop);
    }
    for (mlir::scf::ForOp blockLoop :
         takeMarked(getOperation(), kPrefetchNextBlockAttr))
      prefetchFrom(blockLoop);
  }

  /// Prefetches the next block from the one pass of the tiles of
  /// `blockLoop` that walks all of its block. Where several tiles of rows
  /// of A run over each block, the loop over them is peeled: its first pass
  /// prefetches, the others find the block in the cache. With B in the
  /// cache this costs nothing, with B from memory it pays; prefetching
  /// under a test in every pass instead slowed the case of B in the cache
  /// (16 rows x 1024 @ 1024 x 1024; `aot-run --benchmark`,
  /// docs/performance.md, "Stacked weights, and B read from memory").
  /// Nothing is peeled where no tile can prefetch.
  static void prefetchFrom(mlir::scf::ForOp blockLoop) {
    std::optional<BlockRead> any;
    for (mlir::scf::ForOp kLoop : tileLoops(blockLoop))
      if ((any = matchBlockRead(blockLoop, kLoop)))
        break;
    if (!any)
      return;
    mlir::Operation *onePass = any->stripLoop->getParentOp();
    if (onePass != blockLoop.getOperation()) {
      auto rowLoop = llvm::dyn_cast<mlir::scf::ForOp>(onePass);
      if (!rowLoop || rowLoop->getParentOp() != blockLoop.getOperation())
        return;
      mlir::IRRewriter rewriter(blockLoop.getContext());
      rewriter.setInsertionPoint(rowLoop);
      mlir::scf::ForOp first;
      if (mlir::failed(
              mlir::scf::peelForLoopFirstIteration(rewriter, rowLoop, first)))
        return;
      onePass = first;
    }
    for (mlir::scf::ForOp kLoop : tileLoops(onePass))
      if (std::optional<BlockRead> at = matchBlockRead(blockLoop, kLoop);
          at && at->stripLoop->getParentOp() == onePass)
        prefetchNextBlock(*at);
  }
};

} // namespace
} // namespace aot
