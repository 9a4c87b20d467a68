//===- FuseElementwise.cpp - aot-fuse-elementwise -------------------------===//
//
// Upstream's elementwise fusion, with one difference: reshapes are not
// folded into contractions or convolutions. Folding a tensor.expand_shape
// (how attention splits heads) into a linalg.matmul turns it into a
// linalg.generic of four loops that no fast path recognises, and the matmul
// runs a hundred times slower; kept apart, the reshape stays at the edge of
// the matmul's dispatch as a view of its result.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "Transforms/Passes.h.inc"

namespace {

/// Whether `op` is a linalg op that a fast path knows by its kind.
bool isContractionOrConvolution(mlir::Operation *op) {
  auto linalgOp = llvm::dyn_cast_or_null<mlir::linalg::LinalgOp>(op);
  return linalgOp && (mlir::linalg::isaContractionOpInterface(linalgOp) ||
                      mlir::linalg::isaConvolutionOpInterface(linalgOp));
}

struct FuseElementwisePass : impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    mlir::MLIRContext *context = &getContext();
    mlir::RewritePatternSet patterns(context);
    // A producer used elsewhere too would be computed twice.
    mlir::linalg::ControlFusionFn producerHasOneUse =
        [](mlir::OpOperand *operand) {
          mlir::Operation *producer = operand->get().getDefiningOp();
          return producer && producer->hasOneUse();
        };
    mlir::linalg::ControlFusionFn reshapeNotIntoContraction =
        [=](mlir::OpOperand *operand) {
          return !isContractionOrConvolution(operand->getOwner()) &&
                 !isContractionOrConvolution(operand->get().getDefiningOp()) &&
                 producerHasOneUse(operand);
        };
    mlir::linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                       producerHasOneUse);
    mlir::linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, reshapeNotIntoContraction);
    mlir::affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    mlir::linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    mlir::tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    mlir::tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                               context);
    context->getLoadedDialect<mlir::linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    mlir::linalg::populateConstantFoldLinalgOperations(patterns,
                                                       producerHasOneUse);
    // Top-down, as upstream does, for compile time. Not converging within
    // the iteration limit still leaves valid IR, as upstream's pass allows.
    (void)mlir::applyPatternsGreedily(
        getOperation(), std::move(patterns),
        mlir::GreedyRewriteConfig().setUseTopDownTraversal(true));
  }
};

} // namespace
} // namespace aot
