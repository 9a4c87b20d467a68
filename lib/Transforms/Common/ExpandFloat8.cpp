//===- ExpandFloat8.cpp - aot-expand-float8 -------------------------------===//
//
// LLVM has no 8-bit float types: MLIR's lowering stores them as i8, and
// arith-emulate-unsupported-floats turns their arithmetic into f32 arithmetic
// between arith.extf and arith.truncf. What is left, the conversions and the
// constants, becomes integer and f32 arithmetic here, on scalars and vectors
// alike, so that nothing of an 8-bit float type reaches the LLVM lowering but
// loads, stores and bitcasts of its bytes.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_EXPANDFLOAT8
#include "Transforms/Common/Passes.h.inc"

namespace {

/// How an 8-bit float format spends its codes (see aot/abi/DType.h).
struct Float8Format {
  enum Specials { Ieee, FiniteNanAllOnes, UnsignedZero };
  int mantissa = 0;
  int bias = 0;
  Specials specials = Ieee;

  int minExponent() const { return 1 - bias; }
  unsigned topExponent() const { return 0x7fu >> mantissa; }
  unsigned maxFinite() const {
    return specials == Ieee               ? (topExponent() << mantissa) - 1
           : specials == FiniteNanAllOnes ? 0x7eu
                                          : 0x7fu;
  }
  /// The code of NaN and of what overflows, without the sign.
  unsigned nanCode() const {
    return specials == Ieee               ? 0x7eu
           : specials == FiniteNanAllOnes ? 0x7fu
                                          : 0x80u;
  }
  unsigned overflowCode() const {
    return specials == Ieee ? topExponent() << mantissa : nanCode();
  }
};

std::optional<Float8Format> float8Format(mlir::Type type) {
  mlir::Type t = mlir::getElementTypeOrSelf(type);
  if (llvm::isa<mlir::Float8E4M3FNType>(t))
    return Float8Format{3, 7, Float8Format::FiniteNanAllOnes};
  if (llvm::isa<mlir::Float8E5M2Type>(t))
    return Float8Format{2, 15, Float8Format::Ieee};
  if (llvm::isa<mlir::Float8E4M3FNUZType>(t))
    return Float8Format{3, 8, Float8Format::UnsignedZero};
  if (llvm::isa<mlir::Float8E5M2FNUZType>(t))
    return Float8Format{2, 16, Float8Format::UnsignedZero};
  return std::nullopt;
}

/// Builds scalar-or-vector arithmetic of one shape.
struct Builder {
  mlir::PatternRewriter &b;
  mlir::Location loc;
  mlir::Type shapeOf; ///< a value's type whose shape every value has

  mlir::Type like(mlir::Type element) const {
    if (auto vector = llvm::dyn_cast<mlir::VectorType>(shapeOf))
      return vector.clone(element);
    return element;
  }
  mlir::Value cst(mlir::Type element, int64_t v) const {
    mlir::TypedAttr attr = b.getIntegerAttr(element, v);
    if (auto vector = llvm::dyn_cast<mlir::VectorType>(like(element)))
      attr = mlir::SplatElementsAttr::get(vector, attr);
    return mlir::arith::ConstantOp::create(b, loc, attr);
  }
  mlir::Value fcst(mlir::Type element, double v) const {
    mlir::TypedAttr attr = b.getFloatAttr(element, v);
    if (auto vector = llvm::dyn_cast<mlir::VectorType>(like(element)))
      attr = mlir::SplatElementsAttr::get(vector, attr);
    return mlir::arith::ConstantOp::create(b, loc, attr);
  }
  template <typename Op> mlir::Value op(mlir::Value x, mlir::Value y) const {
    return Op::create(b, loc, x, y);
  }
  mlir::Value cmp(mlir::arith::CmpIPredicate p, mlir::Value x,
                  mlir::Value y) const {
    return mlir::arith::CmpIOp::create(b, loc, p, x, y);
  }
  mlir::Value select(mlir::Value c, mlir::Value x, mlir::Value y) const {
    return mlir::arith::SelectOp::create(b, loc, c, x, y);
  }
  mlir::Value bitcast(mlir::Value x, mlir::Type element) const {
    return mlir::arith::BitcastOp::create(b, loc, like(element), x);
  }
};

/// extf from an 8-bit float: its fields placed into an f32 (the subnormals
/// computed as m * 2^(emin - mantissa), exactly), then extended or
/// truncated, exactly, to the wanted type.
struct ExpandExtF : mlir::OpRewritePattern<mlir::arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  mlir::LogicalResult
  matchAndRewrite(mlir::arith::ExtFOp op,
                  mlir::PatternRewriter &rewriter) const override {
    std::optional<Float8Format> f = float8Format(op.getIn().getType());
    if (!f)
      return mlir::failure();
    Builder b{rewriter, op.getLoc(), op.getIn().getType()};
    using mlir::arith::CmpIPredicate;
    mlir::Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type(),
               f32 = rewriter.getF32Type();
    mlir::Value u = mlir::arith::ExtUIOp::create(
        rewriter, op.getLoc(), b.like(i32), b.bitcast(op.getIn(), i8));
    mlir::Value sign = b.op<mlir::arith::ShLIOp>(
        b.op<mlir::arith::AndIOp>(u, b.cst(i32, 0x80)), b.cst(i32, 24));
    mlir::Value mag = b.op<mlir::arith::AndIOp>(u, b.cst(i32, 0x7f));
    mlir::Value e = b.op<mlir::arith::ShRUIOp>(mag, b.cst(i32, f->mantissa));
    mlir::Value m =
        b.op<mlir::arith::AndIOp>(mag, b.cst(i32, (1 << f->mantissa) - 1));
    mlir::Value normal = b.op<mlir::arith::OrIOp>(
        b.op<mlir::arith::ShLIOp>(
            b.op<mlir::arith::AddIOp>(e, b.cst(i32, 127 - f->bias)),
            b.cst(i32, 23)),
        b.op<mlir::arith::ShLIOp>(m, b.cst(i32, 23 - f->mantissa)));
    mlir::Value subnormalValue = b.op<mlir::arith::MulFOp>(
        mlir::arith::UIToFPOp::create(rewriter, op.getLoc(), b.like(f32), m),
        b.fcst(f32, std::ldexp(1.0, f->minExponent() - f->mantissa)));
    mlir::Value bits = b.select(b.cmp(CmpIPredicate::eq, e, b.cst(i32, 0)),
                                b.bitcast(subnormalValue, i32), normal);
    mlir::Value nan = b.cst(i32, 0x7fc00000);
    switch (f->specials) {
    case Float8Format::Ieee: {
      mlir::Value special = b.select(b.cmp(CmpIPredicate::eq, m, b.cst(i32, 0)),
                                     b.cst(i32, 0x7f800000), nan);
      bits = b.select(b.cmp(CmpIPredicate::eq, e, b.cst(i32, f->topExponent())),
                      special, bits);
      break;
    }
    case Float8Format::FiniteNanAllOnes:
      bits =
          b.select(b.cmp(CmpIPredicate::eq, mag, b.cst(i32, 0x7f)), nan, bits);
      break;
    case Float8Format::UnsignedZero:
      bits = b.select(b.cmp(CmpIPredicate::eq, u, b.cst(i32, 0x80)), nan, bits);
      break;
    }
    mlir::Value value = b.bitcast(b.op<mlir::arith::OrIOp>(bits, sign), f32);
    mlir::Type out = op.getType();
    unsigned outWidth = mlir::getElementTypeOrSelf(out).getIntOrFloatBitWidth();
    if (outWidth > 32)
      value = mlir::arith::ExtFOp::create(rewriter, op.getLoc(), out, value);
    else if (outWidth < 32) // f16, bf16: every 8-bit float fits exactly
      value = mlir::arith::TruncFOp::create(rewriter, op.getLoc(), out, value);
    rewriter.replaceOp(op, value);
    return mlir::success();
  }
};

/// truncf to an 8-bit float, rounding to nearest even: with e the value's
/// exponent (at least the format's smallest) and q = round(|x| * 2^(m - e)),
/// the magnitude's code is ((e - emin) << m) + q, for normals and subnormals
/// alike; a q that rounds up to 2^(m + 1) carries into the exponent by
/// itself, and a code past the largest finite one overflows. Computed in the
/// source's own width (f32 or f64) so that nothing is rounded twice.
struct ExpandTruncF : mlir::OpRewritePattern<mlir::arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  mlir::LogicalResult
  matchAndRewrite(mlir::arith::TruncFOp op,
                  mlir::PatternRewriter &rewriter) const override {
    std::optional<Float8Format> f = float8Format(op.getType());
    if (!f)
      return mlir::failure();
    mlir::Location loc = op.getLoc();
    Builder b{rewriter, loc, op.getIn().getType()};
    mlir::Value x = op.getIn();
    unsigned width =
        mlir::getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
    if (width < 32) // f16 and bf16 widen exactly first
      x = mlir::arith::ExtFOp::create(rewriter, loc,
                                      b.like(rewriter.getF32Type()), x);
    bool wide = width > 32;
    mlir::Type fw = wide ? mlir::Type(rewriter.getF64Type())
                         : mlir::Type(rewriter.getF32Type());
    mlir::Type iw = rewriter.getIntegerType(wide ? 64 : 32);
    int w = wide ? 64 : 32, p = wide ? 52 : 23, bias = wide ? 1023 : 127;
    int64_t inf = wide ? 0x7ff0000000000000 : 0x7f800000;
    using mlir::arith::CmpIPredicate;

    mlir::Value a = b.bitcast(x, iw);
    mlir::Value signBit = b.op<mlir::arith::ShRUIOp>(a, b.cst(iw, w - 1));
    mlir::Value absBits = b.op<mlir::arith::AndIOp>(
        a, b.cst(iw, wide ? 0x7fffffffffffffff : 0x7fffffff));
    mlir::Value isNan = b.cmp(CmpIPredicate::ugt, absBits, b.cst(iw, inf));
    mlir::Value finite = b.cmp(CmpIPredicate::ult, absBits, b.cst(iw, inf));
    mlir::Value e = b.op<mlir::arith::MaxSIOp>(
        b.op<mlir::arith::SubIOp>(
            b.op<mlir::arith::ShRUIOp>(absBits, b.cst(iw, p)), b.cst(iw, bias)),
        b.cst(iw, f->minExponent()));
    // 2^(m - e), a normal number of the source type for every finite e.
    mlir::Value scale = b.bitcast(
        b.op<mlir::arith::ShLIOp>(
            b.op<mlir::arith::SubIOp>(b.cst(iw, bias + f->mantissa), e),
            b.cst(iw, p)),
        fw);
    mlir::Value scaled = b.select(
        finite, b.op<mlir::arith::MulFOp>(b.bitcast(absBits, fw), scale),
        b.fcst(fw, 0.0));
    mlir::Value q = mlir::arith::FPToUIOp::create(
        rewriter, loc, b.like(iw),
        mlir::math::RoundEvenOp::create(rewriter, loc, scaled));
    mlir::Value mag = b.op<mlir::arith::AddIOp>(
        b.op<mlir::arith::ShLIOp>(
            b.op<mlir::arith::SubIOp>(e, b.cst(iw, f->minExponent())),
            b.cst(iw, f->mantissa)),
        q);
    mlir::Value over =
        b.cmp(CmpIPredicate::ugt, mag, b.cst(iw, f->maxFinite()));
    mlir::Value code;
    if (f->specials == Float8Format::UnsignedZero) {
      // No sign on NaN (0x80), on what overflows into it, or on zero.
      mlir::Value signedCode = b.op<mlir::arith::OrIOp>(
          b.op<mlir::arith::ShLIOp>(signBit, b.cst(iw, 7)), mag);
      code = b.select(b.cmp(CmpIPredicate::eq, mag, b.cst(iw, 0)), b.cst(iw, 0),
                      signedCode);
      code = b.select(b.op<mlir::arith::OrIOp>(isNan, over), b.cst(iw, 0x80),
                      code);
    } else {
      mlir::Value magnitude = b.select(over, b.cst(iw, f->overflowCode()), mag);
      magnitude = b.select(isNan, b.cst(iw, f->nanCode()), magnitude);
      code = b.op<mlir::arith::OrIOp>(
          b.op<mlir::arith::ShLIOp>(signBit, b.cst(iw, 7)), magnitude);
    }
    mlir::Value byte = mlir::arith::TruncIOp::create(
        rewriter, loc, b.like(rewriter.getI8Type()), code);
    rewriter.replaceOpWithNewOp<mlir::arith::BitcastOp>(op, op.getType(), byte);
    return mlir::success();
  }
};

/// A constant of an 8-bit float type: its bytes, bitcast.
struct ExpandConstant : mlir::OpRewritePattern<mlir::arith::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  mlir::LogicalResult
  matchAndRewrite(mlir::arith::ConstantOp op,
                  mlir::PatternRewriter &rewriter) const override {
    if (!float8Format(op.getType()))
      return mlir::failure();
    mlir::Type i8 = rewriter.getI8Type();
    mlir::TypedAttr bytes;
    if (auto scalar = llvm::dyn_cast<mlir::FloatAttr>(op.getValue())) {
      bytes = rewriter.getIntegerAttr(
          i8, scalar.getValue().bitcastToAPInt().getZExtValue());
    } else if (auto dense =
                   llvm::dyn_cast<mlir::DenseFPElementsAttr>(op.getValue())) {
      bytes = dense.bitcast(i8);
    } else {
      return mlir::failure();
    }
    mlir::Value c =
        mlir::arith::ConstantOp::create(rewriter, op.getLoc(), bytes);
    rewriter.replaceOpWithNewOp<mlir::arith::BitcastOp>(op, op.getType(), c);
    return mlir::success();
  }
};

struct ExpandFloat8Pass : impl::ExpandFloat8Base<ExpandFloat8Pass> {
  void runOnOperation() override {
    mlir::RewritePatternSet patterns(&getContext());
    patterns.add<ExpandExtF, ExpandTruncF, ExpandConstant>(&getContext());
    // One walk, without folding: the bitcast of a constant's bytes would
    // fold back into the constant this pass takes apart.
    mlir::walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace aot
