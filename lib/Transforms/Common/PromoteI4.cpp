//===- PromoteI4.cpp - aot-promote-i4 -------------------------------------===//
//
// 4-bit integers cross the ABI one per byte, sign-extended, and LLVM would
// store them packed in vectors but byte-wise in scalars; so they never reach
// memory as i4. Before tiling, every i4 (scalar, tensor, vector) becomes an
// i8 holding the same value: the ops whose results can leave -8..7 (add,
// sub, mul, divisions, shifts, truncations, float conversions) wrap their
// i8 result back into it, and the unsigned ones read their operands' low
// four bits. An op with i4 values that this pass does not know is an error
// naming it, never a silent change of meaning.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace aot {
#define GEN_PASS_DEF_PROMOTEI4
#include "Transforms/Common/Passes.h.inc"

namespace {

bool isI4(mlir::Type t) { return mlir::getElementTypeOrSelf(t).isInteger(4); }

class I4ToI8 : public mlir::TypeConverter {
public:
  I4ToI8() {
    addConversion([](mlir::Type t) { return t; });
    addConversion([](mlir::IntegerType t) -> mlir::Type {
      return t.getWidth() == 4 ? mlir::IntegerType::get(t.getContext(), 8) : t;
    });
    addConversion([this](mlir::RankedTensorType t) -> mlir::Type {
      return t.clone(convertType(t.getElementType()));
    });
    addConversion([this](mlir::VectorType t) -> mlir::Type {
      return t.clone(convertType(t.getElementType()));
    });
  }
};

/// Helpers on i8 values (scalar or shaped) that hold i4 values.
struct Wrap {
  mlir::ConversionPatternRewriter &b;
  mlir::Location loc;

  mlir::Value cst(mlir::Type like, int64_t v) const {
    mlir::Type element = mlir::getElementTypeOrSelf(like);
    mlir::TypedAttr attr = b.getIntegerAttr(element, v);
    if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(like))
      attr = mlir::SplatElementsAttr::get(shaped, attr);
    return mlir::arith::ConstantOp::create(b, loc, attr);
  }
  /// The low four bits, sign-extended: i4 arithmetic's wrap-around.
  mlir::Value wrap(mlir::Value x) const {
    mlir::Value four = cst(x.getType(), 4);
    return mlir::arith::ShRSIOp::create(
        b, loc, mlir::arith::ShLIOp::create(b, loc, x, four), four);
  }
  /// The low four bits, zero-extended: the value read as unsigned.
  mlir::Value low(mlir::Value x) const {
    return mlir::arith::AndIOp::create(b, loc, x, cst(x.getType(), 0xf));
  }
};

/// An op whose i8 result may leave -8..7: the same op on i8, wrapped.
/// `Unsigned`: its operands are read as unsigned first.
template <typename Op, bool Unsigned = false>
struct WrapResult : mlir::OpConversionPattern<Op> {
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    if (!isI4(op.getType()))
      return mlir::failure();
    Wrap w{rewriter, op.getLoc()};
    llvm::SmallVector<mlir::Value> operands(adaptor.getOperands());
    if (Unsigned)
      for (mlir::Value &v : operands)
        v = w.low(v);
    auto promoted =
        Op::create(rewriter, op.getLoc(),
                   this->getTypeConverter()->convertType(op.getType()),
                   operands, op->getAttrs());
    rewriter.replaceOp(op, w.wrap(promoted));
    return mlir::success();
  }
};

/// Conversions into i4 (trunci, fptosi, fptoui, index_cast): converted into
/// i8, then wrapped. trunci from i8 is the wrap alone.
template <typename Op> struct WrapConversion : mlir::OpConversionPattern<Op> {
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    if (!isI4(op.getType()) || isI4(op.getIn().getType()))
      return mlir::failure();
    Wrap w{rewriter, op.getLoc()};
    mlir::Type i8 = this->getTypeConverter()->convertType(op.getType());
    mlir::Value in = adaptor.getIn();
    mlir::Value value =
        in.getType() == i8
            ? in
            : mlir::Value(Op::create(rewriter, op.getLoc(), i8, in));
    rewriter.replaceOp(op, w.wrap(value));
    return mlir::success();
  }
};

/// Conversions out of i4 (extsi, extui, uitofp, index_castui): from the i8
/// value, its low four bits first when read as unsigned; extending to i8
/// is the value (or its low bits) itself.
template <typename Op, bool Unsigned>
struct FromI4 : mlir::OpConversionPattern<Op> {
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    if (!isI4(op.getIn().getType()))
      return mlir::failure();
    Wrap w{rewriter, op.getLoc()};
    mlir::Value in = Unsigned ? w.low(adaptor.getIn()) : adaptor.getIn();
    mlir::Type out = this->getTypeConverter()->convertType(op.getType());
    if (in.getType() == out)
      rewriter.replaceOp(op, in);
    else
      rewriter.replaceOpWithNewOp<Op>(op, out, in);
    return mlir::success();
  }
};

/// Extensions into i4 (from i1, i2 or i3): the same extension into i8,
/// whose value (-4..3 or 0..7 at most) an i4 holds as well.
template <typename Op> struct ExtendIntoI4 : mlir::OpConversionPattern<Op> {
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    if (!isI4(op.getType()) || isI4(op.getIn().getType()))
      return mlir::failure();
    rewriter.replaceOpWithNewOp<Op>(
        op, this->getTypeConverter()->convertType(op.getType()),
        adaptor.getIn());
    return mlir::success();
  }
};

/// trunci out of i4 (to i1, i2 or i3): the low bits of the i4 value are
/// those of the i8 value holding it.
struct TruncateFromI4 : mlir::OpConversionPattern<mlir::arith::TruncIOp> {
  using OpConversionPattern::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(mlir::arith::TruncIOp op, OpAdaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    if (!isI4(op.getIn().getType()) || isI4(op.getType()))
      return mlir::failure();
    rewriter.replaceOpWithNewOp<mlir::arith::TruncIOp>(op, op.getType(),
                                                       adaptor.getIn());
    return mlir::success();
  }
};

/// Constants: the same values, sign-extended to i8.
struct PromoteConstant : mlir::OpConversionPattern<mlir::arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(mlir::arith::ConstantOp op, OpAdaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    if (!isI4(op.getType()))
      return mlir::failure();
    mlir::Type type = getTypeConverter()->convertType(op.getType());
    mlir::Type i8 = mlir::getElementTypeOrSelf(type);
    mlir::TypedAttr value;
    if (auto scalar = llvm::dyn_cast<mlir::IntegerAttr>(op.getValue()))
      value = rewriter.getIntegerAttr(i8, scalar.getValue().sext(8));
    else if (auto dense =
                 llvm::dyn_cast<mlir::DenseIntElementsAttr>(op.getValue()))
      value =
          dense.mapValues(i8, [](const llvm::APInt &v) { return v.sext(8); });
    else
      return mlir::failure();
    rewriter.replaceOpWithNewOp<mlir::arith::ConstantOp>(op, type, value);
    return mlir::success();
  }
};

/// Arith ops that compute the same on i8 values holding i4 ones.
bool keepsMeaning(mlir::Operation *op) {
  return llvm::isa<
             mlir::arith::CmpIOp, mlir::arith::SelectOp, mlir::arith::AndIOp,
             mlir::arith::OrIOp, mlir::arith::XOrIOp, mlir::arith::MaxSIOp,
             mlir::arith::MinSIOp, mlir::arith::MaxUIOp, mlir::arith::MinUIOp,
             mlir::arith::ShRSIOp, mlir::arith::SIToFPOp, mlir::arith::RemSIOp>(
             op) ||
         (llvm::isa<mlir::arith::IndexCastOp>(op) &&
          isI4(op->getOperand(0).getType()));
}

bool hasI4(mlir::Operation *op) {
  auto any = [](mlir::TypeRange types) {
    return llvm::any_of(types, [](mlir::Type t) { return isI4(t); });
  };
  if (any(op->getOperandTypes()) || any(op->getResultTypes()))
    return true;
  for (mlir::Region &region : op->getRegions())
    for (mlir::Block &block : region)
      if (any(block.getArgumentTypes()))
        return true;
  if (auto fn = llvm::dyn_cast<mlir::FunctionOpInterface>(op))
    return any(fn.getArgumentTypes()) || any(fn.getResultTypes());
  return false;
}

/// Whether this pass knows what `op` means on i4 values: every op outside
/// arith and math (they only move or hold values), and the arith ops with
/// a rule above.
bool isPromotable(mlir::Operation *op) {
  llvm::StringRef dialect = op->getName().getDialectNamespace();
  if (dialect != "arith" && dialect != "math")
    return true;
  namespace a = mlir::arith;
  return keepsMeaning(op) ||
         llvm::isa<a::AddIOp, a::SubIOp, a::MulIOp, a::DivSIOp, a::CeilDivSIOp,
                   a::FloorDivSIOp, a::ShLIOp, a::DivUIOp, a::RemUIOp,
                   a::CeilDivUIOp, a::ShRUIOp, a::TruncIOp, a::FPToSIOp,
                   a::FPToUIOp, a::IndexCastOp, a::ExtSIOp, a::ExtUIOp,
                   a::UIToFPOp, a::IndexCastUIOp, a::ConstantOp>(op);
}

/// Every other op (tensor, linalg, scf, func.return and call, the arith ops
/// of keepsMeaning): the same op on the promoted types, its regions' block
/// arguments promoted too.
struct PromoteAny : mlir::ConversionPattern {
  PromoteAny(const mlir::TypeConverter &converter, mlir::MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}
  mlir::LogicalResult
  matchAndRewrite(mlir::Operation *op, llvm::ArrayRef<mlir::Value> operands,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    if (!hasI4(op) || llvm::isa<mlir::FunctionOpInterface>(op))
      return mlir::failure();
    if (op->getDialect() && op->getDialect()->getNamespace() == "arith" &&
        !keepsMeaning(op))
      return rewriter.notifyMatchFailure(op, "no i4 promotion for this op");
    llvm::SmallVector<mlir::Type> types;
    if (mlir::failed(
            getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return mlir::failure();
    mlir::OperationState state(op->getLoc(), op->getName(), operands, types,
                               op->getAttrs(), op->getSuccessors());
    for (mlir::Region &region : op->getRegions()) {
      mlir::Region *moved = state.addRegion();
      rewriter.inlineRegionBefore(region, *moved, moved->end());
      if (mlir::failed(rewriter.convertRegionTypes(moved, *getTypeConverter())))
        return mlir::failure();
    }
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return mlir::success();
  }
};

struct PromoteI4Pass : impl::PromoteI4Base<PromoteI4Pass> {
  void runOnOperation() override {
    mlir::MLIRContext *ctx = &getContext();
    // Checked before converting anything: a conversion that fails halfway
    // would leave nothing worth reporting.
    bool any = false, ok = true;
    getOperation()->walk([&](mlir::Operation *op) {
      if (!hasI4(op))
        return;
      any = true;
      if (!isPromotable(op)) {
        op->emitError() << "'" << op->getName()
                        << "' on i4 values is not supported: i4 takes "
                           "integer arithmetic, comparisons, shifts, "
                           "divisions and conversions of the arith dialect";
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    if (!any)
      return;
    I4ToI8 converter;
    mlir::ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal(
        [](mlir::Operation *op) { return !hasI4(op); });
    mlir::RewritePatternSet patterns(ctx);
    namespace a = mlir::arith;
    patterns.add<WrapResult<a::AddIOp>, WrapResult<a::SubIOp>,
                 WrapResult<a::MulIOp>, WrapResult<a::DivSIOp>,
                 WrapResult<a::CeilDivSIOp>, WrapResult<a::FloorDivSIOp>,
                 WrapResult<a::ShLIOp>, WrapResult<a::DivUIOp, true>,
                 WrapResult<a::RemUIOp, true>, WrapResult<a::CeilDivUIOp, true>,
                 WrapResult<a::ShRUIOp, true>, WrapConversion<a::TruncIOp>,
                 WrapConversion<a::FPToSIOp>, WrapConversion<a::FPToUIOp>,
                 WrapConversion<a::IndexCastOp>, FromI4<a::ExtSIOp, false>,
                 FromI4<a::ExtUIOp, true>, FromI4<a::UIToFPOp, true>,
                 FromI4<a::IndexCastUIOp, true>, ExtendIntoI4<a::ExtSIOp>,
                 ExtendIntoI4<a::ExtUIOp>, TruncateFromI4, PromoteConstant>(
        converter, ctx);
    patterns.add<PromoteAny>(converter, ctx);
    mlir::populateFunctionOpInterfaceTypeConversionPattern<mlir::func::FuncOp>(
        patterns, converter);
    if (mlir::failed(mlir::applyPartialConversion(getOperation(), target,
                                                  std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
} // namespace aot
