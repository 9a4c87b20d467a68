//===- ErfApproximation.cpp - f32 erf as one rational function -----------===//
#include "Transforms/Cpu/TileAndVectorize/ErfApproximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace aot::tile_and_vectorize {
namespace {

/// Where erf(x) rounds to 1 in f32 (erf(3.925) = 1 - 8.6e-9, nearer 1 than
/// the f32 below it); the rational function gives 1.0f there too.
constexpr float kClamp = 3.925f;

/// erf(a) / a = P(t) / Q(t), t = a^2 on [0, kClamp^2]: a rational
/// least-squares fit, reweighted towards the minimax relative error
/// (2e-9 in exact arithmetic). Evaluated in f32 with FMAs, the result is
/// within 6 ulp of erf over all f32 (tests/models/erf_accuracy.py checks
/// it against Python's math.erf). Lowest degree first.
constexpr float kNumerator[] = {
    0x1.20dd76p+0f,  0x1.7b2caep-3f,  0x1.bc695cp-5f,  0x1.f74102p-9f,
    0x1.8b4456p-12f, 0x1.35ab16p-18f, -0x1.b8c416p-27f};
constexpr float kDenominator[] = {
    1.0f,           0x1.fd59cap-2f,  0x1.d27504p-4f,
    0x1.f9b1a0p-7f, 0x1.554dbap-10f, 0x1.05ecc8p-14f};

struct ErfAsRational : mlir::OpRewritePattern<mlir::math::ErfOp> {
  ErfAsRational(mlir::MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}

  mlir::LogicalResult
  matchAndRewrite(mlir::math::ErfOp op,
                  mlir::PatternRewriter &rewriter) const override {
    auto type = llvm::dyn_cast<mlir::VectorType>(op.getType());
    if (!type || !type.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "not a vector of f32");
    mlir::Location loc = op.getLoc();
    auto splat = [&](float v) -> mlir::Value {
      return mlir::arith::ConstantOp::create(
          rewriter, loc,
          mlir::DenseElementsAttr::get(type, rewriter.getF32FloatAttr(v)));
    };
    auto horner = [&](llvm::ArrayRef<float> coefficients, mlir::Value t) {
      mlir::Value sum = splat(coefficients.back());
      for (float c : llvm::reverse(coefficients.drop_back()))
        sum = mlir::math::FmaOp::create(rewriter, loc, sum, t, splat(c));
      return sum;
    };
    mlir::Value x = op.getOperand();
    mlir::Value a = mlir::math::AbsFOp::create(rewriter, loc, x);
    // a > kClamp ? kClamp : a, so that a NaN stays NaN (a min would
    // return the clamp for it on x86).
    mlir::Value clamp = splat(kClamp);
    mlir::Value above = mlir::arith::CmpFOp::create(
        rewriter, loc, mlir::arith::CmpFPredicate::OGT, a, clamp);
    a = mlir::arith::SelectOp::create(rewriter, loc, above, clamp, a);
    mlir::Value t = mlir::arith::MulFOp::create(rewriter, loc, a, a);
    mlir::Value numerator =
        mlir::arith::MulFOp::create(rewriter, loc, a, horner(kNumerator, t));
    mlir::Value ratio = mlir::arith::DivFOp::create(rewriter, loc, numerator,
                                                    horner(kDenominator, t));
    rewriter.replaceOpWithNewOp<mlir::math::CopySignOp>(op, ratio, x);
    return mlir::success();
  }
};

} // namespace

void populateErfApproximationPattern(mlir::RewritePatternSet &patterns) {
  patterns.add<ErfAsRational>(patterns.getContext());
}

} // namespace aot::tile_and_vectorize
