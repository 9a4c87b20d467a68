//===- PackPanels.cpp - contiguous panels of a matmul's right operand -----===//
//
// A register tile of a matmul reads, for each step of K, one row of its strip
// of B: tileN consecutive values. In B itself those rows lie N elements
// apart, so a block's 256 rows map to a handful of cache sets (at N = 1024 a
// 4 KiB stride: all of them to the same L1 set) and evict each other, and
// every row is on a page of its own. Copied once per cache block into a panel
// of strips (strip, k, column), each strip is one contiguous run that every
// row block of A then reads front to back.
//
//===----------------------------------------------------------------------===//
#include "Transforms/PackPanels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace aot {

namespace {

/// The input of `op` indexed exactly (k, n): B of a contraction.
mlir::OpOperand *rhsOperand(mlir::linalg::LinalgOp op, unsigned k, unsigned n) {
  mlir::MLIRContext *ctx = op->getContext();
  for (mlir::OpOperand *in : op.getDpsInputOperands()) {
    mlir::AffineMap map = op.getMatchingIndexingMap(in);
    if (map.getNumResults() == 2 &&
        map.getResult(0) == mlir::getAffineDimExpr(k, ctx) &&
        map.getResult(1) == mlir::getAffineDimExpr(n, ctx))
      return in;
  }
  return nullptr;
}

/// Whether every operand of `op` holds f32 (no conversion in its body).
bool allF32(mlir::linalg::LinalgOp op) {
  return llvm::all_of(op->getOperandTypes(), [](mlir::Type t) {
    return mlir::getElementTypeOrSelf(t).isF32();
  });
}

/// The sizes of `v`, a tensor: those of the slice that made it, where one
/// did (they need no tensor.dim to fold), else its dims.
llvm::SmallVector<mlir::OpFoldResult>
sizesOf(mlir::RewriterBase &rewriter, mlir::Location loc, mlir::Value v) {
  if (auto slice = v.getDefiningOp<mlir::tensor::ExtractSliceOp>();
      slice && slice.getSourceType().getRank() == slice.getType().getRank())
    return slice.getMixedSizes();
  return mlir::tensor::getMixedSizes(rewriter, loc, v);
}

/// Copies `b` (K x N, K <= maxK, N <= strips * width) into a new tensor of
/// strips x maxK x width: strip s, row k holds b[k, s*width ...]; a last,
/// partial strip is filled with zeros past N. Inserted before `before`.
mlir::Value copyIntoPanel(mlir::RewriterBase &rewriter, mlir::Location loc,
                          mlir::Value b, int64_t strips, int64_t maxK,
                          int64_t width, mlir::Operation *before) {
  rewriter.setInsertionPoint(before);
  auto bType = llvm::cast<mlir::RankedTensorType>(b.getType());
  mlir::Type element = bType.getElementType();
  llvm::SmallVector<mlir::OpFoldResult> sizes = sizesOf(rewriter, loc, b);
  mlir::Value rows =
      mlir::getValueOrCreateConstantIndexOp(rewriter, loc, sizes[0]);
  mlir::Value cols =
      mlir::getValueOrCreateConstantIndexOp(rewriter, loc, sizes[1]);
  mlir::Value c0 = mlir::arith::ConstantIndexOp::create(rewriter, loc, 0);
  mlir::Value c1 = mlir::arith::ConstantIndexOp::create(rewriter, loc, 1);
  mlir::Value step = mlir::arith::ConstantIndexOp::create(rewriter, loc, width);
  mlir::Value stripCount =
      mlir::arith::CeilDivUIOp::create(rewriter, loc, cols, step);
  // An allocation, not a tensor.empty, which loop-invariant code motion
  // would move out of the loops: each thread packs into a panel of its own.
  mlir::Value panel = mlir::bufferization::AllocTensorOp::create(
      rewriter, loc,
      mlir::RankedTensorType::get({strips, maxK, width}, element),
      mlir::ValueRange{});
  mlir::Value zero = mlir::arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(element));
  auto vectorType = mlir::VectorType::get({width}, element);
  // Static N is cut into whole strips; a dynamic one may end in a partial
  // strip, whose read is masked.
  const bool wholeStrips =
      !bType.isDynamicDim(1) && bType.getDimSize(1) % width == 0;
  auto loop = mlir::scf::ForOp::create(
      rewriter, loc, c0, stripCount, c1, mlir::ValueRange{panel},
      [&](mlir::OpBuilder &builder, mlir::Location loc, mlir::Value strip,
          mlir::ValueRange args) {
        mlir::Value col =
            mlir::arith::MulIOp::create(builder, loc, strip, step);
        auto inner = mlir::scf::ForOp::create(
            builder, loc, c0, rows, c1, args,
            [&](mlir::OpBuilder &builder, mlir::Location loc, mlir::Value k,
                mlir::ValueRange args) {
              mlir::Value row = mlir::vector::TransferReadOp::create(
                  builder, loc, vectorType, b, mlir::ValueRange{k, col}, zero,
                  llvm::ArrayRef<bool>{wholeStrips});
              mlir::Value written = mlir::vector::TransferWriteOp::create(
                                        builder, loc, row, args.front(),
                                        mlir::ValueRange{strip, k, c0},
                                        llvm::ArrayRef<bool>{true})
                                        .getResult();
              mlir::scf::YieldOp::create(builder, loc, written);
            });
        mlir::scf::YieldOp::create(builder, loc, inner.getResults());
      });
  return loop.getResult(0);
}

} // namespace

mlir::linalg::LinalgOp packRhsPanel(mlir::RewriterBase &rewriter,
                                    mlir::linalg::LinalgOp block,
                                    mlir::scf::ForOp rowLoop, int64_t maxK,
                                    int64_t maxN, int64_t stripWidth) {
  mlir::FailureOr<mlir::linalg::ContractionDimensions> dims =
      mlir::linalg::inferContractionDims(block);
  if (mlir::failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || !dims->batch.empty() ||
      block.getNumDpsInits() != 1 || !allF32(block) || stripWidth < 1)
    return block;
  const unsigned n = dims->n[0], k = dims->k[0];
  mlir::OpOperand *rhs = rhsOperand(block, k, n);
  if (!rhs)
    return block;
  const unsigned rhsIndex = rhs->getOperandNumber();
  // The block of B is the same for every row block: its slice (and the
  // offsets and sizes it is computed from) move out of the row loop.
  (void)mlir::moveLoopInvariantCode(
      llvm::cast<mlir::LoopLikeOpInterface>(rowLoop.getOperation()));
  mlir::Value b = block->getOperand(rhsIndex);
  if (!rowLoop.isDefinedOutsideOfLoop(b))
    return block;

  llvm::SmallVector<int64_t> ranges = block.getStaticLoopRanges();
  auto bound = [](int64_t range, int64_t max) {
    return mlir::ShapedType::isDynamic(range) ? max : range;
  };
  const int64_t kBound = bound(ranges[k], maxK);
  const int64_t strips = llvm::divideCeil(bound(ranges[n], maxN), stripWidth);
  mlir::Location loc = block.getLoc();
  mlir::Value panel =
      copyIntoPanel(rewriter, loc, b, strips, kBound, stripWidth, rowLoop);

  // One op per strip, reading its strip of the panel instead of B.
  llvm::SmallVector<int64_t> sizes(ranges.size(), 0);
  sizes[n] = stripWidth;
  mlir::scf::SCFTilingOptions options;
  options.setTileSizes(
      mlir::getAsIndexOpFoldResult(block->getContext(), sizes));
  rewriter.setInsertionPoint(block);
  auto tiled = mlir::scf::tileUsingSCF(
      rewriter, llvm::cast<mlir::TilingInterface>(block.getOperation()),
      options);
  if (mlir::failed(tiled) || tiled->loops.size() != 1) {
    rewriter.eraseOp(panel.getDefiningOp());
    return block;
  }
  rewriter.replaceOp(block, tiled->replacements);
  auto strip = llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
  auto stripLoop = llvm::cast<mlir::scf::ForOp>(tiled->loops.front());
  mlir::OpOperand &operand = strip->getOpOperand(rhsIndex);
  auto sliceType = llvm::cast<mlir::RankedTensorType>(operand.get().getType());
  rewriter.setInsertionPoint(strip);
  llvm::SmallVector<mlir::OpFoldResult> sliceSizes =
      sizesOf(rewriter, loc, operand.get());
  mlir::Value index = mlir::arith::DivUIOp::create(
      rewriter, loc, stripLoop.getInductionVar(),
      mlir::arith::ConstantIndexOp::create(rewriter, loc, stripWidth));
  mlir::OpFoldResult zero = rewriter.getIndexAttr(0),
                     one = rewriter.getIndexAttr(1);
  mlir::Value fromPanel = mlir::tensor::ExtractSliceOp::create(
      rewriter, loc, sliceType, panel,
      llvm::SmallVector<mlir::OpFoldResult>{index, zero, zero},
      llvm::SmallVector<mlir::OpFoldResult>{one, sliceSizes[0], sliceSizes[1]},
      llvm::SmallVector<mlir::OpFoldResult>{one, one, one});
  rewriter.modifyOpInPlace(strip, [&] { operand.set(fromPanel); });
  return strip;
}

} // namespace aot
