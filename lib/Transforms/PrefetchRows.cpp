//===- PrefetchRows.cpp - aot-prefetch-rows -------------------------------===//
//
// Dot products of few rows of A by B stored transposed read several rows of
// B side by side, each stream a row of B (K elements) from the next. The
// hardware prefetcher follows them late (a vector times a 2048 x 2048
// matrix stored transposed ran at 0.86x Eigen). A software prefetch of each
// row eight cache lines ahead made it 10 to 25 % faster, run to run; in a
// hand-written loop over a single row it made it slower, so reads of one
// row are left alone.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aot {
#define GEN_PASS_DEF_PREFETCHROWS
#include "Transforms/Passes.h.inc"

namespace {

/// How far ahead along a row each prefetch reaches: eight cache lines (in
/// a hand-written loop over a 2048 x 2048 B, 1 and 1.5 KiB ahead were a
/// few % slower, 2 KiB 10 %).
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

struct PrefetchRowsPass : impl::PrefetchRowsBase<PrefetchRowsPass> {
  void runOnOperation() override {
    llvm::SmallVector<mlir::scf::ForOp> marked;
    getOperation()->walk([&](mlir::scf::ForOp loop) {
      if (loop->hasAttr(kPrefetchRowsAttr))
        marked.push_back(loop);
    });
    for (mlir::scf::ForOp loop : marked) {
      loop->removeAttr(kPrefetchRowsAttr);
      llvm::SmallVector<mlir::vector::TransferReadOp> reads;
      for (mlir::Operation &op : loop.getBody()->without_terminator())
        if (auto read = llvm::dyn_cast<mlir::vector::TransferReadOp>(op))
          reads.push_back(read);
      for (mlir::vector::TransferReadOp read : reads)
        prefetchRows(read, loop);
    }
  }
};

} // namespace
} // namespace aot
