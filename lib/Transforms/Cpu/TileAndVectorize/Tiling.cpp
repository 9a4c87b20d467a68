//===- Tiling.cpp - register tiles and cache blocks, made ----------------===//
#include "Transforms/Cpu/TileAndVectorize/Tiling.h"
#include "Transforms/Attributes.h"
#include "Transforms/Common/ContractionForms.h"
#include "Transforms/Cpu/FilterPanels.h"
#include "Transforms/Cpu/PackPanels.h"
#include "Transforms/Cpu/PairDotForms.h"
#include "Transforms/Cpu/PointwiseConvolutions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/TilingInterface.h"

#include <algorithm>

namespace aot::tile_and_vectorize {

void markForVectors(mlir::Operation *op) {
  if (op && llvm::isa<mlir::linalg::LinalgOp>(op))
    op->setAttr(kVectorSizes,
                mlir::DenseI64ArrayAttr::get(op->getContext(), {}));
}

/// Marks the loop `parallel` of `tiled` parallel, unless a loop around it
/// already is (one level of threads). The mark holds its minTrips.
static void markParallel(mlir::scf::SCFTilingResult &tiled,
                         std::optional<ParallelLoop> parallel,
                         bool disjointWrites) {
  if (!parallel || parallel->index >= tiled.loops.size())
    return;
  mlir::Operation *loop = tiled.loops[parallel->index].getOperation();
  for (mlir::Operation *p = loop->getParentOp(); p; p = p->getParentOp())
    if (p->hasAttr(kParallelLoopAttr))
      return;
  if (!llvm::isa<mlir::scf::ForOp>(loop))
    return;
  auto i64 = mlir::IntegerType::get(loop->getContext(), 64);
  loop->setAttr(kParallelLoopAttr,
                mlir::IntegerAttr::get(i64, parallel->minTrips));
  if (disjointWrites)
    loop->setAttr(kDisjointWritesAttr, mlir::UnitAttr::get(loop->getContext()));
  if (parallel->fallback && *parallel->fallback < tiled.loops.size() &&
      llvm::isa<mlir::scf::ForOp>(
          tiled.loops[*parallel->fallback].getOperation()))
    tiled.loops[*parallel->fallback]->setAttr(
        kParallelFallbackAttr, mlir::UnitAttr::get(loop->getContext()));
}

/// Tiles `op` in place with tile sizes `sizes` (its uses take the tiled
/// loops' results) and marks the loop that may run on threads, if any.
/// `options` gives the loop order (interchange).
mlir::FailureOr<mlir::scf::SCFTilingResult>
tileInPlace(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
            llvm::ArrayRef<int64_t> sizes,
            mlir::scf::SCFTilingOptions options) {
  options.setTileSizes(mlir::getAsIndexOpFoldResult(op->getContext(), sizes));
  // Asked before tiling, which replaces `op`.
  std::optional<ParallelLoop> parallel =
      parallelLoop(op, sizes, options.interchangeVector);
  const bool disjointWrites = op->hasAttr(kDisjointWritesAttr);
  rewriter.setInsertionPoint(op);
  auto tiled = mlir::scf::tileUsingSCF(
      rewriter, llvm::cast<mlir::TilingInterface>(op.getOperation()), options);
  if (mlir::succeeded(tiled)) {
    rewriter.replaceOp(op, tiled->replacements);
    markParallel(*tiled, parallel, disjointWrites);
  }
  return tiled;
}

/// Peels `loop`, the tile loop over a dim of `range` iterations in tiles of
/// `size`, where its last tile may be partial (a dynamic range, or one that
/// `size` does not divide), so that every other tile is full. Whether it
/// did.
bool peelPartialTile(mlir::RewriterBase &rewriter,
                     mlir::LoopLikeOpInterface loop, int64_t range,
                     int64_t size, mlir::scf::ForOp *remainder) {
  auto forOp = llvm::dyn_cast<mlir::scf::ForOp>(loop.getOperation());
  const bool lastPartial =
      mlir::ShapedType::isDynamic(range) || (size > 0 && range % size != 0);
  if (!forOp || !lastPartial || size == 1)
    return false;
  mlir::scf::ForOp last;
  if (mlir::failed(
          mlir::scf::peelForLoopAndSimplifyBounds(rewriter, forOp, last)))
    return false;
  if (remainder)
    *remainder = last;
  return true;
}

/// Tiles `t` with `sizes` (of which zeros leave a loop untiled), marks its
/// tiles with `vectorSizes`, and peels each tile loop whose last tile may be
/// partial (setting `peeled`).
static void tileAndPeel(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp t,
                        llvm::ArrayRef<int64_t> sizes,
                        llvm::ArrayRef<int64_t> vectorSizes, bool &peeled) {
  llvm::SmallVector<int64_t> ranges = t.getStaticLoopRanges();
  mlir::scf::SCFTilingOptions options;
  options.setTileSizes(mlir::getAsIndexOpFoldResult(t->getContext(), sizes));
  rewriter.setInsertionPoint(t);
  auto tiled = mlir::scf::tileUsingSCF(
      rewriter, llvm::cast<mlir::TilingInterface>(t.getOperation()), options);
  if (mlir::failed(tiled))
    return;
  rewriter.replaceOp(t, tiled->replacements);
  for (mlir::Operation *o : tiled->tiledOps)
    o->setAttr(kVectorSizes, rewriter.getDenseI64ArrayAttr(vectorSizes));
  // The loops made, one per tiled dim, in order.
  std::size_t loop = 0;
  for (std::size_t dim = 0; dim < sizes.size(); ++dim)
    if (sizes[dim] != 0 && loop < tiled->loops.size())
      peeled |= peelPartialTile(rewriter, tiled->loops[loop++], ranges[dim],
                                sizes[dim]);
}

/// tileForVectors for a convolution or pool over an image of dynamic width
/// (windowedOverPixels): the tile vectorizer takes no masks for those, so
/// no tile may be partial. Images, rows and register blocks of pixels are
/// tiled first, the loop of blocks peeled; each full block is then tiled as
/// any, and the last, partial block a pixel at a time (over a small image
/// it may be the whole row: 7 pixels of ResNet's last stage in blocks of
/// 8), each pixel's accumulators kept in registers across the window and
/// the input channels as a block's are.
static mlir::LogicalResult tilePixelBlocks(mlir::IRRewriter &rewriter,
                                           mlir::linalg::LinalgOp op,
                                           llvm::ArrayRef<int64_t> sizes,
                                           bool &peeled) {
  const mlir::OperationName kind = op->getName();
  llvm::SmallVector<int64_t> outer(sizes.size(), 0), inner(sizes);
  for (std::size_t d = 0; d <= kPixelLoop; ++d) {
    outer[d] = sizes[d];
    inner[d] = 0;
  }
  auto tiled = tileInPlace(rewriter, op, outer, {});
  if (mlir::failed(tiled))
    return mlir::failure();
  if (tiled->tiledOps.size() != 1 || tiled->loops.empty())
    return mlir::success();
  auto block = llvm::dyn_cast<mlir::linalg::LinalgOp>(tiled->tiledOps.front());
  if (!block)
    return mlir::success();
  mlir::scf::ForOp remainder;
  peeled |=
      peelPartialTile(rewriter, tiled->loops.back(), mlir::ShapedType::kDynamic,
                      sizes[kPixelLoop], &remainder);
  tileAndPeel(rewriter, block, inner, sizes, peeled);
  if (!remainder)
    return mlir::success();
  llvm::SmallVector<mlir::linalg::LinalgOp> partial;
  remainder.walk([&](mlir::linalg::LinalgOp t) {
    if (t->getName() == kind && !t->hasAttr(kVectorSizes))
      partial.push_back(t);
  });
  llvm::SmallVector<int64_t> byPixel(inner), pixelSizes(sizes);
  byPixel[kPixelLoop] = 1;
  pixelSizes[kPixelLoop] = 1;
  for (mlir::linalg::LinalgOp t : partial)
    tileAndPeel(rewriter, t, byPixel, pixelSizes, peeled);
  return mlir::success();
}

/// Tiles `op` in place with `sizes` for vectorization: marks its tiles with
/// their vector sizes and peels each tile loop whose last tile may be
/// partial (setting `peeled`), so that the full tiles get static shapes
/// once canonicalized and the partial one masked vectors. `order`, if
/// given, is the order of the tile loops (outermost first).
mlir::LogicalResult tileForVectors(mlir::IRRewriter &rewriter,
                                   mlir::linalg::LinalgOp op,
                                   llvm::ArrayRef<int64_t> sizes, bool &peeled,
                                   llvm::ArrayRef<int64_t> order) {
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (windowedOverPixels(op) && order.empty() && sizes.size() > kPixelLoop &&
      ranges.size() == sizes.size() &&
      mlir::ShapedType::isDynamic(ranges[kPixelLoop]) && sizes[kPixelLoop] > 1)
    return tilePixelBlocks(rewriter, op, sizes, peeled);
  mlir::scf::SCFTilingOptions options;
  if (!order.empty())
    options.setInterchange(order);
  auto tiled = tileInPlace(rewriter, op, sizes, options);
  if (mlir::failed(tiled))
    return mlir::failure();
  for (mlir::Operation *t : tiled->tiledOps)
    t->setAttr(kVectorSizes, rewriter.getDenseI64ArrayAttr(sizes));
  if (tiled->loops.size() == sizes.size())
    for (auto [i, loop] : llvm::enumerate(tiled->loops)) {
      const size_t dim = order.empty() ? i : size_t(order[i]);
      peeled |= peelPartialTile(rewriter, loop, ranges[dim], sizes[dim]);
    }
  return mlir::success();
}

/// Reduces along another loop than the innermost (a column): the loops
/// keep their order, so the input is read row after row as it lies in
/// memory, and each row adds one vector per tile of `vectorWidth`
/// columns into the outputs, which stay in the cache. Rows of more than
/// kColumnBlock columns are first cut into blocks of columns, each
/// reduced over all rows before the next (those blocks may run on
/// threads). The last, partial tile of a row is peeled and masked. (Down
/// a column instead, each row is a new page that the prefetcher does not
/// follow, which is far slower; column sums: aot-bench --only=reductions,
/// docs/performance.md, "Reductions, softmax, layer norm".) True when tiled.
static bool tileColumnReduction(mlir::IRRewriter &rewriter,
                                mlir::linalg::LinalgOp op, int64_t vectorWidth,
                                bool &peeled) {
  constexpr int64_t kColumnBlock = 1024;
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  const unsigned n = ranges.size();
  mlir::linalg::LinalgOp block = op;
  if (mlir::ShapedType::isDynamic(ranges[n - 1]) ||
      ranges[n - 1] > kColumnBlock) {
    llvm::SmallVector<int64_t> blocks(n, 0);
    blocks[n - 1] = tileFor(ranges[n - 1], kColumnBlock, Along::Rows);
    auto tiled = tileInPlace(rewriter, op, blocks, {});
    if (mlir::failed(tiled))
      return false;
    block = llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
  }
  llvm::SmallVector<int64_t> sizes(n, 1);
  sizes[n - 1] =
      tileFor(block.getStaticLoopRanges()[n - 1], vectorWidth, Along::Lanes);
  return mlir::succeeded(tileForVectors(rewriter, block, sizes, peeled));
}

/// Reduces along the innermost loop (a row) into `vectorWidth` partial
/// results, one vector register, merged once at the end of the row; each
/// output element is a tile of its own, or, with `outputs` (a tile size
/// per loop, the reduced one's ignored), each tile of outputs reduces its
/// rows side by side, their partial results independent chains of adds.
/// Along another loop, see tileColumnReduction. True when tiled.
bool tileReduction(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
                   unsigned reduced, const TileOptions &options, bool &peeled,
                   llvm::ArrayRef<int64_t> outputs) {
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  const unsigned n = ranges.size();
  if (reduced != n - 1)
    return tileColumnReduction(rewriter, op, options.vectorWidth, peeled);
  mlir::MLIRContext *ctx = op->getContext();
  llvm::SmallVector<int64_t> sizes(n, 1);
  if (outputs.size() == n)
    sizes.assign(outputs.begin(), outputs.end());
  sizes[reduced] = 0;
  auto tiled = tileInPlace(rewriter, op, sizes, {});
  if (mlir::failed(tiled))
    return false;
  mlir::Operation *row = tiled->tiledOps.back();
  // Integer dot products (outputs) that become pair dots take
  // kPairDotChunk values of K a step, each two into one lane
  // (pairDotProducts, after bufferization), where K is a multiple of
  // kPairDotChunk: a last, partial chunk adds into the lanes after the
  // loop, which pairDotProducts does not follow.
  const bool pairs = options.pairDot && !outputs.empty() &&
                     isSmallIntegerContraction(op) &&
                     !mlir::ShapedType::isDynamic(ranges[reduced]) &&
                     ranges[reduced] % kPairDotChunk == 0;
  const int64_t lanes =
      tileFor(ranges[reduced], pairs ? kPairDotChunk : options.vectorWidth,
              Along::Lanes);
  if (lanes < 2) {
    markForVectors(row);
    return true;
  }
  auto partialOp = llvm::dyn_cast<mlir::PartialReductionOpInterface>(row);
  if (!partialOp)
    return true;
  // Upstream's partial-reduction tiling leaves a linalg.index of the
  // reduced loop counting within its chunk instead of along the row: a
  // row that reads by its position (a gather fused into a contraction)
  // would read the first chunk's elements for every chunk. It stays a
  // scalar loop.
  if (auto linalgRow = llvm::dyn_cast<mlir::linalg::LinalgOp>(row))
    if (!linalgRow.getBlock()->getOps<mlir::linalg::IndexOp>().empty())
      return true;
  llvm::SmallVector<int64_t> chunk(n, 0);
  chunk[reduced] = lanes;
  rewriter.setInsertionPoint(row);
  auto partial = mlir::scf::tileReductionUsingScf(
      rewriter, partialOp, mlir::getAsIndexOpFoldResult(ctx, chunk));
  if (mlir::failed(partial))
    return true; // the row stays a scalar loop
  rewriter.replaceOp(row, partial->replacements);
  if (pairs && !partial->loops.empty())
    partial->loops.front()->setAttr(kPairDotProductsAttr,
                                    mlir::UnitAttr::get(ctx));
  // Several results at a time read as many rows side by side, which
  // aot-prefetch-rows prefetches ahead.
  if (!partial->loops.empty() &&
      llvm::any_of(outputs, [](int64_t size) { return size > 1; }))
    partial->loops.front()->setAttr(kPrefetchRowsAttr,
                                    mlir::UnitAttr::get(ctx));
  // A row that the vector does not divide, or of dynamic length: the loop
  // over its chunks is peeled, and its last chunk left a loop, which
  // costs less than a masked vector here (row sums of 1024 x 1021,
  // `aot-run --benchmark`; docs/performance.md, "Reductions, softmax, layer
  // norm").
  if (!partial->loops.empty())
    peeled |= peelPartialTile(rewriter, partial->loops.front(), ranges[reduced],
                              lanes);
  for (mlir::Operation *t : partial->tiledOps)
    markForVectors(t);
  for (mlir::Operation *t : partial->mergeOps)
    markForVectors(t);
  for (mlir::Value init : partial->initialValues)
    markForVectors(init.getDefiningOp());
  return true;
}

/// Where the results `op` accumulates into are a fill of the whole tensor
/// (`whole`, its init before tiling; the fill may be reshaped, as
/// collapseFills leaves it), and the cache blocks `block` cuts from `op`
/// (by `loops`) each run all of K: each block fills its own slice of the
/// results instead, just before its register tiles read it back, and the
/// whole fill goes. A block's slice (64 rows of 256 columns) stays in the
/// cache between the two, where the whole results of a large matmul were
/// written to memory and read back from it (BERT-base's encoder layer at
/// batch 8, one thread: 450 -> 443 ms; `aot-run --benchmark`). Returns the
/// block's fill, or null.
static mlir::linalg::FillOp
fillPerBlock(mlir::IRRewriter &rewriter, mlir::Value whole,
             llvm::ArrayRef<mlir::LoopLikeOpInterface> loops,
             mlir::linalg::LinalgOp block) {
  if (!whole || loops.empty() || block.getNumDpsInits() != 1)
    return nullptr;
  mlir::LoopLikeOpInterface first = loops.front();
  auto outermost = llvm::dyn_cast<mlir::scf::ForOp>(first.getOperation());
  if (!outermost || outermost.getInitArgs().size() != 1 ||
      outermost.getInitArgs()[0] != whole)
    return nullptr;
  auto expand = whole.getDefiningOp<mlir::tensor::ExpandShapeOp>();
  if (expand && !expand->hasOneUse())
    return nullptr;
  auto wholeFill =
      (expand ? expand.getSrc() : whole).getDefiningOp<mlir::linalg::FillOp>();
  if (!wholeFill || (expand && !wholeFill->hasOneUse()))
    return nullptr;
  // What the blocks write into: the fill's own destination.
  rewriter.setInsertionPoint(outermost);
  mlir::Value destination = wholeFill.getOutputs()[0];
  if (expand)
    destination = mlir::tensor::ExpandShapeOp::create(
        rewriter, expand.getLoc(), expand.getResultType(), destination,
        expand.getReassociationIndices());
  mlir::OpOperand *init = block.getDpsInitOperand(0);
  rewriter.setInsertionPoint(block);
  auto fill = mlir::linalg::FillOp::create(
      rewriter, block.getLoc(), wholeFill.getInputs()[0], init->get());
  rewriter.modifyOpInPlace(block, [&] { init->set(fill.getResult(0)); });
  rewriter.modifyOpInPlace(
      outermost, [&] { outermost.getInitArgsMutable()[0].set(destination); });
  if (expand) {
    rewriter.eraseOp(expand);
    return fill;
  }
  // The whole fill may still feed another branch of the op (a few-rows
  // branch): a copy of it goes before each use it has left, so that this
  // branch does not run it. Left without uses, tileFunction erases it.
  for (mlir::OpOperand &use :
       llvm::make_early_inc_range(wholeFill->getUses())) {
    rewriter.setInsertionPoint(use.getOwner());
    mlir::Operation *copy = rewriter.clone(*wholeFill);
    rewriter.modifyOpInPlace(use.getOwner(),
                             [&] { use.set(copy->getResult(0)); });
  }
  return fill;
}

/// A large contraction in blocks that stay in the caches while the
/// register tiles run over them: a panel of B (kBlockK, or kPackedBlockK
/// where B is packed, x kBlockN) is reused by every row block of A (kBlockM
/// rows) before the next panel. Loops: N blocks, K blocks, M blocks. A dynamic
/// dim counts as large; its blocks' register tiles are peeled like any dynamic
/// tile. Returns the block's op (or `op`).
mlir::linalg::LinalgOp cacheBlocks(mlir::IRRewriter &rewriter,
                                   mlir::linalg::LinalgOp op,
                                   const TileOptions &options,
                                   mlir::linalg::FillOp &blockFill) {
  const int64_t tileN = options.tileN;
  constexpr int64_t kBlockM = 64, kBlockN = 256, kBlockK = 256;
  constexpr int64_t kPackedRowBlocks = 2;
  // A packed panel runs deeper in K: each K block loads and stores every
  // result once more, and the results of a large matmul come from memory
  // (1024 x 768 by 768 x 3072, one thread, AVX2: 155 ms in K blocks of
  // 256, 138 in one of 768; 1024 x 3072 by 3072 x 768: 144 and 134 ms;
  // `aot-run --benchmark`). B read where it lies keeps kBlockK: its next
  // block is prefetched while one runs, and a deeper one ran slower
  // (49 x 2048 by 2048 x 512: 3.95 ms, 4.48 in blocks of 768).
  constexpr int64_t kPackedBlockK = 768;
  if (!mlir::linalg::isaContractionOpInterface(op))
    return op;
  auto dims = mlir::linalg::inferContractionDims(op);
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (mlir::failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1)
    return op;
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  auto small = [](int64_t size, int64_t block) {
    return !mlir::ShapedType::isDynamic(size) && size <= block;
  };
  // Few rows of A by B stored K x N: B is read row after row, whole, into
  // rows of results that stay in the cache (longer runs of B stream
  // faster: 1024 columns at a time, or 256 by 256 blocks, are slower at
  // N = 2048 on one thread). Wider rows are cut into blocks, which may run
  // on threads; for code that runs on threads, into a block per thread,
  // of 512 columns or more (1 x 2048 by 2048 x 2048 on one thread and on
  // two: aot-bench --only=layouts and `aot-run --benchmark`;
  // docs/performance.md, "Matmul layouts and few rows").
  if (!fewRowsOrder(op).empty()) {
    constexpr int64_t kRowBlock = 2048, kThreadRowBlock = 512;
    int64_t block = kRowBlock;
    if (runThreads(op) != 1 && !mlir::ShapedType::isDynamic(ranges[n]))
      block = std::clamp<int64_t>(
          llvm::alignTo(llvm::divideCeil(ranges[n], threadsToShareFor(op)),
                        kThreadRowBlock),
          kThreadRowBlock, kRowBlock);
    if (small(ranges[n], block))
      return op;
    llvm::SmallVector<int64_t> sizes(ranges.size(), 0);
    sizes[n] = tileFor(ranges[n], block, Along::Rows);
    auto tiled = tileInPlace(rewriter, op, sizes, {});
    return mlir::failed(tiled)
               ? op
               : llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
  }
  // B stored transposed is packed whatever its size, where enough rows
  // read it: each register tile would otherwise gather B one value at a
  // time at every step of K, far slower (aot-bench --only=layouts;
  // docs/performance.md, "Matmul layouts and few rows").
  const MatmulRhs rhs = packableRhs(op);
  const bool transposed = rhs.operand && rhs.transposed();
  auto manyRows = [&](int64_t rows) {
    return mlir::ShapedType::isDynamic(ranges[m]) || ranges[m] >= rows;
  };
  if (small(ranges[k], kBlockK) && small(ranges[n], kBlockN) &&
      !(transposed && manyRows(kFewRows)))
    return op;
  llvm::SmallVector<int64_t> sizes(ranges.size(), 0);
  sizes[m] = tileFor(ranges[m], kBlockM, Along::Rows);
  // Dynamic M: blocks of whole register tiles, so that only the last block
  // ends in a partial tile (tiles of 6 rows left one in every block of 64:
  // 128 x 768 by 768 x 3072 ran in 20.8 ms so, 20.0 in blocks of 60;
  // `aot-run --benchmark`, one thread, AVX2).
  if (mlir::ShapedType::isDynamic(ranges[m]) && options.tileM > 0 &&
      options.tileM <= kBlockM)
    sizes[m] -= kBlockM % options.tileM;
  // Blocks of whole register tiles: blocks of 140 columns (N = 50260)
  // each ended in a masked 12-column tile, and their panels in a masked
  // strip (128 x 768 by 768 x 50260, one thread, AVX2: 356 ms so, 272 in
  // blocks of 256; `aot-run --benchmark`).
  sizes[n] = blockOfTiles(ranges[n], kBlockN, tileN);
  // The blocks of N run on threads (a batch's matrices do, where it has
  // one): as many for each (BERT-base's 768 columns in 3 blocks of 256 on
  // two threads: one thread waited a sixth of the run; bench/onnx/models.py
  // and perf).
  if (dims->batch.empty() && !mlir::ShapedType::isDynamic(ranges[n]) &&
      llvm::divideCeil(ranges[n], sizes[n]) > 1) {
    sizes[n] =
        blockForThreads(ranges[n], sizes[n], tileN, threadsToShareFor(op));
  }
  const bool packs =
      manyRows(transposed ? kFewRows : kPackedRowBlocks * kBlockM);
  sizes[k] = tileFor(ranges[k], packs ? kPackedBlockK : kBlockK, Along::Rows);
  for (unsigned b : dims->batch)
    sizes[b] = 1;
  llvm::SmallVector<int64_t> order(dims->batch.begin(), dims->batch.end());
  order.append({n, k, m});
  mlir::scf::SCFTilingOptions blockOrder;
  blockOrder.setInterchange(order);
  mlir::Value whole =
      op.getNumDpsInits() == 1 ? op.getDpsInits()[0] : mlir::Value();
  auto tiled = tileInPlace(rewriter, op, sizes, blockOrder);
  if (mlir::failed(tiled))
    return op;
  // The last tiled op computes the results (SCFTilingResult).
  auto block = llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
  if (!mlir::ShapedType::isDynamic(ranges[k]) && sizes[k] >= ranges[k])
    blockFill = fillPerBlock(rewriter, whole, tiled->loops, block);
  // Where several row blocks read each panel of B, it is packed first:
  // the copy, B read row after row, costs less than what the register
  // tiles lose to B's strided rows, B in the cache or read from memory
  // (128 x 1024 @ 1024 x 1024 on one thread, and 8 layers of it). With one
  // row block it costs more where B is in the cache, and where B comes
  // from memory the prefetch of the next block does better than packing,
  // and packing better than neither (8 and 64 rows). aot-bench
  // --only=stacked and `aot-run --benchmark`; docs/performance.md,
  // "Stacked weights, and B read from memory". A transposed B costs far
  // more unpacked: one row block pays for its copy.
  if (!packs || tiled->loops.size() != 3 + dims->batch.size()) {
    // B read where it lies, a block at a time down its columns: from
    // memory, each step of K is a new page. The next block is prefetched
    // row after row while this one runs (aot-prefetch-rows).
    if (rhs.operand && !transposed && dims->batch.empty() &&
        tiled->loops.size() == 3)
      tiled->loops[1]->setAttr(kPrefetchNextBlockAttr,
                               mlir::UnitAttr::get(op->getContext()));
    return block;
  }
  auto rowLoop =
      llvm::dyn_cast<mlir::scf::ForOp>(tiled->loops.back().getOperation());
  if (!rowLoop)
    return block;
  return packRhsPanel(rewriter, block, rowLoop, sizes[k], sizes[n],
                      tileFor(sizes[n], tileN, Along::Lanes));
}

/// A 2-D convolution whose filter outweighs its image (filterOutweighsImage):
/// tiled into blocks of output channels as wide as its register blocks',
/// the outermost loop, each block reading its slice of the filter from a
/// panel (readFilterFromPanel). Returns the block's convolution, or `op`
/// where it is not such a convolution or its channels are not a whole
/// number of blocks.
static mlir::linalg::LinalgOp filterBlocks(mlir::IRRewriter &rewriter,
                                           mlir::linalg::LinalgOp op,
                                           int64_t tileN) {
  if (!filterOutweighsImage(op))
    return op;
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  const int64_t channels = ranges[3];
  const int64_t width = tileFor(channels, tileN, Along::Lanes);
  if (channels % width != 0 || channels == width)
    return op;
  llvm::SmallVector<int64_t> sizes(ranges.size(), 0);
  sizes[3] = width;
  auto tiled = tileInPlace(rewriter, op, sizes, {});
  if (mlir::failed(tiled))
    return op;
  auto block = llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
  (void)readFilterFromPanel(rewriter, block);
  return block;
}

bool tileFunction(mlir::IRRewriter &rewriter, mlir::func::FuncOp fn,
                  const TileOptions &options) {
  llvm::SmallVector<mlir::linalg::LinalgOp> candidates;
  llvm::SmallVector<std::pair<mlir::linalg::LinalgOp, unsigned>> reductions;
  llvm::SmallVector<
      std::pair<mlir::linalg::LinalgOp, llvm::SmallVector<int64_t>>>
      dots;
  // 1 x 1 convolutions of unit strides become matmuls first, and are tiled
  // as matmuls, whose register tiles run across rows of pixels and whose
  // loops share out on threads better (ResNet-50, two threads: 236 ms as
  // convolutions, 159 ms as matmuls; bench/onnx/models.py).
  llvm::SmallVector<mlir::linalg::Conv2DNhwcHwcfOp> convolutions;
  fn.walk(
      [&](mlir::linalg::Conv2DNhwcHwcfOp op) { convolutions.push_back(op); });
  for (mlir::linalg::Conv2DNhwcHwcfOp op : convolutions)
    (void)pointwiseAsMatmul(rewriter, op);
  fn.walk([&](mlir::linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() || touchesI1(op))
      return;
    if (std::optional<llvm::SmallVector<int64_t>> tiles = dotProductTiles(op))
      dots.push_back({op, std::move(*tiles)});
    else if (!tileSizesFor(op, options).empty())
      candidates.push_back(op);
    else if (std::optional<unsigned> dim = reductionLoop(op))
      reductions.push_back({op, *dim});
  });
  bool peeled = false;
  for (auto [op, dim] : reductions)
    (void)tileReduction(rewriter, op, dim, options, peeled);
  for (auto &[op, tiles] : dots)
    (void)tileReduction(rewriter, op, op.getNumLoops() - 1, options, peeled,
                        tiles);

  // Tile each op; the tiles are marked with their vector sizes. The loop
  // over a dynamic dim, or a static one that the tile does not divide, is
  // peeled: its full tiles get static shapes (once the caller has
  // canonicalized) and plain vectors, the last partial tile masked ones.
  // Contractions first: cacheBlocks may take the fill of their results
  // into its blocks (fillPerBlock), before the fill is tiled for itself.
  std::stable_partition(candidates.begin(), candidates.end(),
                        [](mlir::linalg::LinalgOp op) {
                          return mlir::linalg::isaContractionOpInterface(op);
                        });
  for (mlir::linalg::LinalgOp op : candidates) {
    if (llvm::isa<mlir::linalg::FillOp>(op) && op->use_empty()) {
      rewriter.eraseOp(op);
      continue;
    }
    op = filterBlocks(rewriter, op, options.tileN);
    mlir::linalg::FillOp blockFill;
    op = cacheBlocks(rewriter, op, options, blockFill);
    if (blockFill)
      (void)tileForVectors(rewriter, blockFill,
                           tileSizesFor(blockFill, options), peeled, {});
    // Where tiling fails, the loop lowering handles the op untiled.
    (void)tileForVectors(rewriter, op, tileSizesFor(op, options), peeled,
                         fewRowsOrder(op));
  }
  return peeled;
}

} // namespace aot::tile_and_vectorize
