//===- MiscompileMulf.cpp - aot-test-miscompile-mulf (test only) ----------===//
//
// A wrong pattern applied through the greedy driver, like any optimisation:
// each application is an `apply-pattern` action that bisection can skip.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Test/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_TESTMISCOMPILEMULF
#include "Transforms/Test/Passes.h.inc"

namespace {
struct MulfToAddf : mlir::OpRewritePattern<mlir::arith::MulFOp> {
  explicit MulfToAddf(mlir::MLIRContext *context) : OpRewritePattern(context) {
    setDebugName("aot-test-mulf-to-addf");
  }
  mlir::LogicalResult
  matchAndRewrite(mlir::arith::MulFOp op,
                  mlir::PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<mlir::arith::AddFOp>(op, op.getLhs(),
                                                     op.getRhs());
    return mlir::success();
  }
};

struct TestMiscompileMulfPass
    : impl::TestMiscompileMulfBase<TestMiscompileMulfPass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    patterns.add<MulfToAddf>(&getContext());
    if (mlir::failed(
            mlir::applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
} // namespace aot
