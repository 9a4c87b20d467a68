//===- BitCountsToLlvm.cpp - aot-bit-counts-to-llvm -----------------------===//
#include "Transforms/Gpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_BITCOUNTSTOLLVM
#include "Transforms/Gpu/Passes.h.inc"

namespace {

/// `From` as the LLVM intrinsic op `To` (ctlz and cttz defined at zero).
/// math.trunc is here too: convert-gpu-to-nvvm makes it a call of libm's
/// truncf, which no kernel can link, where NVPTX has an instruction for
/// llvm.trunc.
template <typename From, typename To>
struct BitCountToLlvm : mlir::OpRewritePattern<From> {
  using mlir::OpRewritePattern<From>::OpRewritePattern;
  mlir::LogicalResult
  matchAndRewrite(From op, mlir::PatternRewriter &rewriter) const override {
    mlir::Value in = op.getOperand();
    if constexpr (std::is_same_v<To, mlir::LLVM::CtPopOp> ||
                  std::is_same_v<To, mlir::LLVM::FTruncOp>)
      rewriter.replaceOpWithNewOp<To>(op, in.getType(), in);
    else
      rewriter.replaceOpWithNewOp<To>(op, in.getType(), in,
                                      /*is_zero_poison=*/false);
    return mlir::success();
  }
};

struct BitCountsToLlvmPass : impl::BitCountsToLlvmBase<BitCountsToLlvmPass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    patterns.add<BitCountToLlvm<mlir::math::CountLeadingZerosOp,
                                mlir::LLVM::CountLeadingZerosOp>,
                 BitCountToLlvm<mlir::math::CountTrailingZerosOp,
                                mlir::LLVM::CountTrailingZerosOp>,
                 BitCountToLlvm<mlir::math::CtPopOp, mlir::LLVM::CtPopOp>,
                 BitCountToLlvm<mlir::math::TruncOp, mlir::LLVM::FTruncOp>>(
        &getContext());
    if (mlir::failed(
            mlir::applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace aot
