//===- Vectorization.cpp - tiles as vector ops ----------------------------===//
#include "Transforms/Cpu/TileAndVectorize/Vectorization.h"
#include "Transforms/Cpu/TileAndVectorize/Tiling.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot::tile_and_vectorize {

mlir::FrozenRewritePatternSet
convolutionDecompositionPatterns(mlir::MLIRContext *ctx) {
  mlir::RewritePatternSet conv(ctx);
  mlir::linalg::populateDecomposeConvolutionPatterns(conv);
  return mlir::FrozenRewritePatternSet(std::move(conv));
}

mlir::FrozenRewritePatternSet contractionPatterns(mlir::MLIRContext *ctx) {
  // A linalg.generic contraction vectorizes to a broadcast product and a
  // multi-reduction; as a vector.contract it lowers like a named one.
  mlir::RewritePatternSet contract(ctx);
  mlir::vector::populateVectorReductionToContractPatterns(contract);
  return mlir::FrozenRewritePatternSet(std::move(contract));
}

mlir::FrozenRewritePatternSet unitReductionPatterns(mlir::MLIRContext *ctx) {
  // A reduction over dims of size 1 (a column reduction's tile, one row
  // deep) is the combining op itself, not a reduction per lane.
  mlir::RewritePatternSet unit(ctx);
  mlir::vector::MultiDimReductionOp::getCanonicalizationPatterns(unit, ctx);
  return mlir::FrozenRewritePatternSet(std::move(unit));
}

void decomposeConvolutionTiles(
    mlir::func::FuncOp fn,
    const mlir::FrozenRewritePatternSet &convDecomposition) {
  // Tiles of 2-D convolutions have size-1 windows: as 1-D convolutions
  // the vectorizer takes them. The new ops are marked as they are made.
  llvm::SmallVector<mlir::Operation *> convTiles;
  fn.walk([&](mlir::linalg::LinalgOp t) {
    if (t->hasAttr(kVectorSizes) &&
        llvm::isa<mlir::linalg::ConvolutionOpInterface>(t.getOperation()))
      convTiles.push_back(t);
  });
  if (!convTiles.empty()) {
    struct MarkNewConvolutions : mlir::RewriterBase::Listener {
      void notifyOperationInserted(mlir::Operation *op,
                                   mlir::OpBuilder::InsertPoint) override {
        if (llvm::isa<mlir::linalg::ConvolutionOpInterface>(op))
          op->setAttr(kVectorSizes,
                      mlir::DenseI64ArrayAttr::get(op->getContext(), {}));
      }
    } marker;
    mlir::GreedyRewriteConfig config;
    config.setListener(&marker);
    (void)mlir::applyOpPatternsGreedily(convTiles, convDecomposition, config);
  }
}

void vectorizeTiles(mlir::IRRewriter &rewriter, mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::linalg::LinalgOp> tiles;
  fn.walk([&](mlir::linalg::LinalgOp t) {
    if (t->hasAttr(kVectorSizes))
      tiles.push_back(t);
  });
  for (mlir::linalg::LinalgOp t : tiles) {
    auto sizes = t->getAttrOfType<mlir::DenseI64ArrayAttr>(kVectorSizes);
    t->removeAttr(kVectorSizes);
    // A partial tile (of dynamic size, or the static last one of a peeled
    // loop) is vectorized at the full tile's size, with masks for the
    // lanes past the end of the data.
    // One that divides integers stays scalar instead: no lane past the end
    // is computed (x86 divides vectors of integers a lane at a time anyway).
    llvm::SmallVector<int64_t> vectorSizes;
    if (isPartialTile(t, sizes.asArrayRef())) {
      if (dividesIntegers(t))
        continue;
      vectorSizes.assign(sizes.asArrayRef().begin(), sizes.asArrayRef().end());
    }
    llvm::SmallVector<bool> scalable(vectorSizes.size(), false);
    rewriter.setInsertionPoint(t);
    // Contractions stay contractions, so they lower to outer products.
    auto vectorized = mlir::linalg::vectorize(
        rewriter, t, vectorSizes, scalable,
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (mlir::succeeded(vectorized)) {
      if (t->getNumResults())
        rewriter.replaceOp(t, vectorized->replacements);
      else
        rewriter.eraseOp(t);
    }
  }
}

void formContractions(mlir::func::FuncOp fn,
                      const mlir::FrozenRewritePatternSet &toContraction,
                      const mlir::FrozenRewritePatternSet &unitReductions) {
  (void)mlir::applyPatternsGreedily(fn, toContraction);
  llvm::SmallVector<mlir::Operation *> reductionsOfOneRow;
  fn.walk([&](mlir::vector::MultiDimReductionOp r) {
    auto shape = r.getSourceVectorType().getShape();
    if (llvm::all_of(r.getReductionDims(),
                     [&](int64_t d) { return shape[d] == 1; }))
      reductionsOfOneRow.push_back(r);
  });
  if (!reductionsOfOneRow.empty())
    (void)mlir::applyOpPatternsGreedily(reductionsOfOneRow, unitReductions);
}

} // namespace aot::tile_and_vectorize
