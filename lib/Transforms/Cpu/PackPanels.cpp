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
#include "Transforms/Cpu/PackPanels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include <optional>

namespace aot {

namespace {

/// Whether every operand of `op` holds f32, or every one f64 (no
/// conversion in its body).
bool allF32OrF64(mlir::linalg::LinalgOp op) {
  return allElements(op, [](mlir::Type t) { return t.isF32(); }) ||
         allElements(op, [](mlir::Type t) { return t.isF64(); });
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

/// Rows of a panel that a transposed B is copied into at a time.
constexpr int64_t kTransposeRows = 8;

/// Copies `b`, B's block (K x N, K <= maxK, N <= strips * width, its dims
/// where `rhs` says, after a batch dim of size 1 if it has one), into a new
/// tensor of strips x maxK x width: strip s, row k holds B[k, s*width ...];
/// a last, partial strip is filled with zeros past N. Inserted before
/// `before`. A transposed B (N x K) is transposed here, once, instead of
/// being gathered (`width` values K apart) by every register tile at every
/// step of K.
mlir::Value copyIntoPanel(mlir::RewriterBase &rewriter, mlir::Location loc,
                          mlir::Value b, const MatmulRhs &rhs, int64_t strips,
                          int64_t maxK, int64_t width,
                          mlir::Operation *before) {
  rewriter.setInsertionPoint(before);
  auto bType = llvm::cast<mlir::RankedTensorType>(b.getType());
  mlir::Type element = bType.getElementType();
  llvm::SmallVector<mlir::OpFoldResult> sizes = sizesOf(rewriter, loc, b);
  mlir::Value rows =
      mlir::getValueOrCreateConstantIndexOp(rewriter, loc, sizes[rhs.kPos]);
  mlir::Value cols =
      mlir::getValueOrCreateConstantIndexOp(rewriter, loc, sizes[rhs.nPos]);
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
  // Static N may be cut into whole strips. Otherwise every strip but the
  // last is still whole: only that one reads masked (a masked load on every
  // strip costs a sixth of a 128 x 768 x 50257 matmul on AVX2, where N is a
  // vocabulary).
  const bool wholeStrips =
      !bType.isDynamicDim(rhs.nPos) && bType.getDimSize(rhs.nPos) % width == 0;
  mlir::Value fullStrips =
      wholeStrips
          ? stripCount
          : mlir::arith::DivUIOp::create(rewriter, loc, cols, step).getResult();
  // Transposed, kTransposeRows rows of a strip at a time: that many values
  // of each of its `width` rows of B, which lie side by side, transposed in
  // registers (one value at a time, they were gathered K apart).
  const int64_t rowStep = rhs.transposed() ? kTransposeRows : 1;
  mlir::Value rowStepValue =
      mlir::arith::ConstantIndexOp::create(rewriter, loc, rowStep);
  // Reads past K (a last, partial step) are masked, their rows of the panel
  // zeros; writes past the panel's maxK rows are dropped.
  const bool wholeSteps = !bType.isDynamicDim(rhs.kPos) &&
                          bType.getDimSize(rhs.kPos) % rowStep == 0;
  const bool stepsInPanel = maxK % rowStep == 0;

  // Copies row `k` (rowStep rows from `k`, transposed) of strip `strip`
  // into `into`; `whole` where the strip lies inside N.
  auto copyOne = [&](mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Value strip, mlir::Value k, mlir::Value into,
                     bool whole) -> mlir::Value {
    mlir::Value col = mlir::arith::MulIOp::create(builder, loc, strip, step);
    llvm::SmallVector<mlir::Value> at(bType.getRank(), c0);
    at[rhs.kPos] = k;
    at[rhs.nPos] = col;
    if (rhs.transposed()) {
      // B's dims N, K: the last two, a plain read.
      mlir::Value block = mlir::vector::TransferReadOp::create(
          builder, loc, mlir::VectorType::get({width, rowStep}, element), b, at,
          zero, llvm::ArrayRef<bool>{whole, wholeSteps});
      mlir::Value tile = mlir::vector::TransposeOp::create(
          builder, loc, block, llvm::ArrayRef<int64_t>{1, 0});
      return mlir::vector::TransferWriteOp::create(
                 builder, loc, tile, into, mlir::ValueRange{strip, k, c0},
                 llvm::ArrayRef<bool>{stepsInPanel, true})
          .getResult();
    }
    mlir::Value row = mlir::vector::TransferReadOp::create(
        builder, loc, mlir::VectorType::get({width}, element), b, at, zero,
        llvm::ArrayRef<bool>{whole});
    return mlir::vector::TransferWriteOp::create(builder, loc, row, into,
                                                 mlir::ValueRange{strip, k, c0},
                                                 llvm::ArrayRef<bool>{true})
        .getResult();
  };
  // A loop from `lo` to `hi` by `by` whose body yields `body`'s value,
  // threading the panel.
  auto loopOver =
      [](mlir::OpBuilder &builder, mlir::Location loc, mlir::Value lo,
         mlir::Value hi, mlir::Value by, mlir::Value init,
         llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                        mlir::Value, mlir::Value)>
             body) -> mlir::Value {
    return mlir::scf::ForOp::create(
               builder, loc, lo, hi, by, mlir::ValueRange{init},
               [&](mlir::OpBuilder &builder, mlir::Location loc, mlir::Value iv,
                   mlir::ValueRange args) {
                 mlir::scf::YieldOp::create(
                     builder, loc, body(builder, loc, iv, args.front()));
               })
        .getResult(0);
  };
  // The strips from `lo` to `hi`, each `whole` or not, row `k` of each
  // (for B stored K x N), or all rows of each (transposed).
  auto copyStrips = [&](mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value lo, mlir::Value hi, mlir::Value k,
                        mlir::Value into, bool whole) -> mlir::Value {
    return loopOver(builder, loc, lo, hi, c1, into,
                    [&](mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value strip, mlir::Value into) -> mlir::Value {
                      if (k)
                        return copyOne(builder, loc, strip, k, into, whole);
                      return loopOver(
                          builder, loc, c0, rows, rowStepValue, into,
                          [&](mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::Value k, mlir::Value into) {
                            return copyOne(builder, loc, strip, k, into, whole);
                          });
                    });
  };
  auto copyAllStrips = [&](mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value k, mlir::Value into) -> mlir::Value {
    mlir::Value copied =
        copyStrips(builder, loc, c0, fullStrips, k, into, /*whole=*/true);
    if (wholeStrips)
      return copied;
    return copyStrips(builder, loc, fullStrips, stripCount, k, copied,
                      /*whole=*/false);
  };
  // B stored K x N is read row after row, each row of the block whole
  // (its strips side by side), as it lies in memory; strip after strip,
  // each row of a strip is a new page that the prefetcher does not follow,
  // which is slower, B in the cache or read from memory (128 x 1024 @
  // 1024 x 1024 on one thread, and 8 layers of it; aot-bench --only=stacked,
  // docs/performance.md, "Stacked weights, and B read from memory").
  // A transposed B is read strip after strip: each strip is `width` rows
  // of it, read along K.
  if (rhs.transposed())
    return copyAllStrips(rewriter, loc, mlir::Value(), panel);
  return loopOver(
      rewriter, loc, c0, rows, rowStepValue, panel,
      [&](mlir::OpBuilder &builder, mlir::Location loc, mlir::Value k,
          mlir::Value into) { return copyAllStrips(builder, loc, k, into); });
}

/// `strip` with its operand `rhsIndex`, B laid out as `rhs` says, read
/// from `fromPanel` (K x width, after a unit batch dim if B has one),
/// indexed (k, n): in place where B was already so indexed, else a
/// linalg.contract with B's map made (k, n).
mlir::Operation *readFromPanel(mlir::RewriterBase &rewriter,
                               mlir::linalg::LinalgOp strip,
                               const MatmulRhs &rhs, unsigned rhsIndex,
                               mlir::Value fromPanel) {
  mlir::OpOperand &operand = strip->getOpOperand(rhsIndex);
  if (!rhs.transposed()) {
    rewriter.modifyOpInPlace(strip, [&] { operand.set(fromPanel); });
    return strip;
  }
  llvm::SmallVector<mlir::AffineMap> maps = strip.getIndexingMapsArray();
  mlir::AffineMap &map = maps[operand.getOperandNumber()];
  llvm::SmallVector<mlir::AffineExpr> results(map.getResults());
  std::swap(results[rhs.kPos], results[rhs.nPos]);
  map = mlir::AffineMap::get(map.getNumDims(), 0, results, map.getContext());
  llvm::SmallVector<mlir::Value> inputs = strip.getDpsInputs();
  inputs[operand.getOperandNumber()] = fromPanel;
  auto contract = mlir::linalg::ContractOp::create(
      rewriter, strip.getLoc(), strip->getResultTypes(), inputs,
      strip.getDpsInits(), rewriter.getAffineMapArrayAttr(maps));
  rewriter.replaceOp(strip, contract->getResults());
  return contract;
}

} // namespace

MatmulRhs packableRhs(mlir::linalg::LinalgOp op) {
  return allF32OrF64(op) ? matmulRhs(op) : MatmulRhs();
}

mlir::linalg::LinalgOp packRhsPanel(mlir::RewriterBase &rewriter,
                                    mlir::linalg::LinalgOp block,
                                    mlir::scf::ForOp rowLoop, int64_t maxK,
                                    int64_t maxN, int64_t stripWidth) {
  const MatmulRhs rhs = packableRhs(block);
  if (!rhs.operand || stripWidth < 1)
    return block;
  const unsigned n = rhs.n, k = rhs.k;
  const std::optional<unsigned> batch = rhs.batch;
  const unsigned rhsIndex = rhs.operand->getOperandNumber();
  // The block of B is the same for every row block: its slice (and the
  // offsets and sizes it is computed from) move out of the row loop.
  (void)mlir::moveLoopInvariantCode(
      llvm::cast<mlir::LoopLikeOpInterface>(rowLoop.getOperation()));
  mlir::Value b = block->getOperand(rhsIndex);
  auto bType = llvm::cast<mlir::RankedTensorType>(b.getType());
  // A batch tile is one matrix of the batch.
  if (!rowLoop.isDefinedOutsideOfLoop(b) || (batch && bType.getDimSize(0) != 1))
    return block;

  llvm::SmallVector<int64_t> ranges = block.getStaticLoopRanges();
  auto bound = [](int64_t range, int64_t max) {
    return mlir::ShapedType::isDynamic(range) ? max : range;
  };
  const int64_t kBound = bound(ranges[k], maxK);
  const int64_t strips = llvm::divideCeil(bound(ranges[n], maxN), stripWidth);
  mlir::Location loc = block.getLoc();
  mlir::Value panel =
      copyIntoPanel(rewriter, loc, b, rhs, strips, kBound, stripWidth, rowLoop);

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
  mlir::Value stripOfB = strip->getOperand(rhsIndex);
  auto stripType = llvm::cast<mlir::RankedTensorType>(stripOfB.getType());
  rewriter.setInsertionPoint(strip);
  llvm::SmallVector<mlir::OpFoldResult> stripSizes =
      sizesOf(rewriter, loc, stripOfB);
  // The panel's strip, K x width (1 x K x width for a batch tile).
  llvm::SmallVector<int64_t> shape;
  if (batch)
    shape.push_back(1);
  shape.append(
      {stripType.getDimSize(rhs.kPos), stripType.getDimSize(rhs.nPos)});
  auto sliceType =
      mlir::RankedTensorType::get(shape, stripType.getElementType());
  mlir::Value index = mlir::arith::DivUIOp::create(
      rewriter, loc, stripLoop.getInductionVar(),
      mlir::arith::ConstantIndexOp::create(rewriter, loc, stripWidth));
  mlir::OpFoldResult zero = rewriter.getIndexAttr(0),
                     one = rewriter.getIndexAttr(1);
  mlir::Value fromPanel = mlir::tensor::ExtractSliceOp::create(
      rewriter, loc, sliceType, panel,
      llvm::SmallVector<mlir::OpFoldResult>{index, zero, zero},
      llvm::SmallVector<mlir::OpFoldResult>{one, stripSizes[rhs.kPos],
                                            stripSizes[rhs.nPos]},
      llvm::SmallVector<mlir::OpFoldResult>{one, one, one});
  return llvm::cast<mlir::linalg::LinalgOp>(
      readFromPanel(rewriter, strip, rhs, rhsIndex, fromPanel));
}

} // namespace aot
