//===- ExpandMathPredicates.cpp - aot-expand-math-predicates --------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/APFloat.h"

namespace aot {
#define GEN_PASS_DEF_EXPANDMATHPREDICATES
#include "Transforms/Common/Passes.h.inc"

namespace {

/// A constant of `x`'s type (scalar, or splat of a vector or tensor)
/// holding `value`.
mlir::Value floatConstant(mlir::PatternRewriter &rewriter, mlir::Location loc,
                          mlir::Type type, const llvm::APFloat &value) {
  auto element = llvm::cast<mlir::FloatType>(mlir::getElementTypeOrSelf(type));
  mlir::TypedAttr attr = rewriter.getFloatAttr(element, value);
  if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(type))
    attr = mlir::SplatElementsAttr::get(shaped, attr);
  return mlir::arith::ConstantOp::create(rewriter, loc, attr);
}

/// |x| compared with the format's largest finite and smallest normal
/// values, for isinf and isnormal.
template <typename Op> struct ExpandPredicate : mlir::OpRewritePattern<Op> {
  using mlir::OpRewritePattern<Op>::OpRewritePattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, mlir::PatternRewriter &rewriter) const override {
    mlir::Location loc = op.getLoc();
    mlir::Value x = op.getOperand();
    mlir::Type type = x.getType();
    auto element =
        llvm::dyn_cast<mlir::FloatType>(mlir::getElementTypeOrSelf(type));
    if (!element)
      return mlir::failure();
    const llvm::fltSemantics &sem = element.getFloatSemantics();
    mlir::Value abs = mlir::math::AbsFOp::create(rewriter, loc, x);
    mlir::Value inf =
        floatConstant(rewriter, loc, type, llvm::APFloat::getInf(sem));
    using P = mlir::arith::CmpFPredicate;
    if constexpr (std::is_same_v<Op, mlir::math::IsInfOp>) {
      rewriter.replaceOpWithNewOp<mlir::arith::CmpFOp>(op, P::OEQ, abs, inf);
    } else {
      mlir::Value smallest = floatConstant(
          rewriter, loc, type, llvm::APFloat::getSmallestNormalized(sem));
      mlir::Value notSubnormal =
          mlir::arith::CmpFOp::create(rewriter, loc, P::OGE, abs, smallest);
      mlir::Value finite =
          mlir::arith::CmpFOp::create(rewriter, loc, P::OLT, abs, inf);
      rewriter.replaceOpWithNewOp<mlir::arith::AndIOp>(op, notSubnormal,
                                                       finite);
    }
    return mlir::success();
  }
};

struct ExpandMathPredicatesPass
    : impl::ExpandMathPredicatesBase<ExpandMathPredicatesPass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    patterns.add<ExpandPredicate<mlir::math::IsInfOp>,
                 ExpandPredicate<mlir::math::IsNormalOp>>(&getContext());
    if (mlir::failed(
            mlir::applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace aot
