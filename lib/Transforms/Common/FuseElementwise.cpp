//===- FuseElementwise.cpp - aot-fuse-elementwise -------------------------===//
//
// Upstream's elementwise fusion, with three differences. Reshapes are not
// folded into contractions or convolutions: folding a tensor.expand_shape
// (how attention splits heads) into a linalg.matmul turns it into a
// linalg.generic of four loops that no fast path recognises, and the matmul
// runs a hundred times slower; kept apart, the reshape stays at the edge of
// the matmul's dispatch as a view of its result. And a producer used by
// several ops is fused into all of them when it is a little arithmetic on
// one full-size tensor (a layer norm's x - mean): computed again in each
// consumer, it costs a few instructions per element, where writing its
// result and reading it back costs two passes over memory. And only casts
// are fused into a contraction or convolution (fusesIntoOwnerKind).
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "Transforms/Common/Passes.h.inc"

namespace {

/// Whether `op` is a linalg op that a fast path knows by its kind.
bool isContractionOrConvolution(mlir::Operation *op) {
  auto linalgOp = llvm::dyn_cast_or_null<mlir::linalg::LinalgOp>(op);
  return linalgOp && (mlir::linalg::isaContractionOpInterface(linalgOp) ||
                      mlir::linalg::isaConvolutionOpInterface(linalgOp));
}

/// Whether `operand`'s producer may fuse into its owner as far as the
/// owner's kind goes: into a contraction or convolution only when the
/// producer's body is nothing but casts (a transpose, a broadcast, B
/// converted from f16 as it is read), which leaves it one. Arithmetic
/// there (attention's scores scaled before their product with the keys,
/// the softmax's division before the product with the values) would make
/// it a generic of four loops that no fast path tiles, which computes the
/// producer again for every column of the result: BERT-base's encoder
/// spent 18 % of its time in those two products (0.6 GFLOP in 145 ms,
/// one thread, AVX2).
bool fusesIntoOwnerKind(mlir::OpOperand *operand) {
  if (!isContractionOrConvolution(operand->getOwner()))
    return true;
  auto producer = operand->get().getDefiningOp<mlir::linalg::GenericOp>();
  return producer && llvm::all_of(producer.getBody()->without_terminator(),
                                  [](mlir::Operation &op) {
                                    return llvm::isa<mlir::CastOpInterface>(op);
                                  });
}

/// The most ops a producer may have to be computed again in each consumer.
constexpr int kRecomputedOps = 4;

/// Whether `producer` is cheaper to compute again in each of its consumers
/// than to keep: an elementwise linalg.generic of at most kRecomputedOps
/// arith ops (no math functions), reading one full-size tensor (the others
/// broadcast, so each consumer reads what it would have read of the
/// result), all of whose uses are generics it fuses into, so that it goes
/// away.
bool cheapToRecompute(mlir::Operation *producer) {
  auto generic = llvm::dyn_cast_or_null<mlir::linalg::GenericOp>(producer);
  if (!generic || generic->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  int ops = 0;
  for (mlir::Operation &op : generic.getBody()->without_terminator())
    if (!llvm::isa<mlir::arith::ArithDialect>(op.getDialect()) ||
        ++ops > kRecomputedOps)
      return false;
  int fullSize = 0;
  for (mlir::OpOperand *input : generic.getDpsInputOperands())
    if (generic.getMatchingIndexingMap(input).isPermutation())
      ++fullSize;
  if (fullSize > 1)
    return false;
  for (mlir::OpOperand &use : producer->getUses())
    if (!llvm::isa<mlir::linalg::GenericOp>(use.getOwner()) ||
        !mlir::linalg::areElementwiseOpsFusable(&use))
      return false;
  return true;
}

struct FuseElementwisePass : impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    mlir::MLIRContext *context = &getContext();
    mlir::RewritePatternSet patterns(context);
    // A producer used elsewhere too would be computed twice: only when
    // that is cheap.
    mlir::linalg::ControlFusionFn producerHasOneUse =
        [](mlir::OpOperand *operand) {
          mlir::Operation *producer = operand->get().getDefiningOp();
          return producer &&
                 (producer->hasOneUse() || cheapToRecompute(producer)) &&
                 fusesIntoOwnerKind(operand);
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
