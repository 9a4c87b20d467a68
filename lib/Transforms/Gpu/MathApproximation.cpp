//===- MathApproximation.cpp - math functions without a math library ------===//
//
// Kernels lower math ops to calls of libdevice's __nv_ functions. Where no
// libdevice is found, these patterns compute what MLIR can approximate with
// arithmetic alone, and the ops that PTX has instructions for (fma, sqrt,
// fabs, rounding; the approximations use several) become LLVM intrinsics
// instead of libdevice calls, so the kernels still compile; what is left is
// named by the check for unresolved calls when the PTX is made.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Gpu/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_MATHAPPROXIMATION
#include "Transforms/Gpu/Passes.h.inc"

namespace {

/// `From` as a call of the LLVM intrinsic `name` with the same operands and
/// type. A generic intrinsic call, not the LLVM dialect's op for it: the
/// NVVM lowering turns those ops (llvm.intr.sqrt, ...) into libdevice calls,
/// where the NVPTX back end has an instruction for the intrinsic.
template <typename From> struct ToIntrinsic : mlir::OpRewritePattern<From> {
  ToIntrinsic(mlir::MLIRContext *ctx, llvm::StringRef name)
      : mlir::OpRewritePattern<From>(ctx), name(name) {}
  mlir::LogicalResult
  matchAndRewrite(From op, mlir::PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<mlir::LLVM::CallIntrinsicOp>(
        op, op->getResultTypes().front(), rewriter.getStringAttr(name),
        op->getOperands());
    return mlir::success();
  }
  std::string name;
};

struct MathApproximationPass
    : impl::MathApproximationBase<MathApproximationPass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    // The approximations of every op MLIR has them for, and the expansions
    // of ops such as tan and sinh into ones it approximates; no AVX2 code,
    // which a GPU lacks.
    mlir::populateMathPolynomialApproximationPatterns(patterns);
    mlir::MLIRContext *ctx = &getContext();
    patterns.add<ToIntrinsic<mlir::math::FmaOp>>(ctx, "llvm.fma");
    patterns.add<ToIntrinsic<mlir::math::SqrtOp>>(ctx, "llvm.sqrt");
    patterns.add<ToIntrinsic<mlir::math::AbsFOp>>(ctx, "llvm.fabs");
    patterns.add<ToIntrinsic<mlir::math::FloorOp>>(ctx, "llvm.floor");
    patterns.add<ToIntrinsic<mlir::math::CeilOp>>(ctx, "llvm.ceil");
    patterns.add<ToIntrinsic<mlir::math::TruncOp>>(ctx, "llvm.trunc");
    patterns.add<ToIntrinsic<mlir::math::RoundEvenOp>>(ctx, "llvm.roundeven");
    patterns.add<ToIntrinsic<mlir::math::CopySignOp>>(ctx, "llvm.copysign");
    if (mlir::failed(
            mlir::applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace aot
