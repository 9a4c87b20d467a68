//===- OnnxElementwise.cpp - element by element, with broadcasting --------===//
//
// Every elementwise op becomes one linalg.generic over the output's shape:
// each input is read through a map that aligns its dims to the output's
// from the right (numpy broadcasting) and reads index 0 along a dim of size
// 1 that the output has larger. The body is arith/math on scalars, so the
// compiler's elementwise fusion sees these as it sees its own.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxElementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringSet.h"

#include <cmath>

namespace aot::onnx_import {

mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                          mlir::Type to, bool fromUnsigned, bool toUnsigned) {
  mlir::Type from = v.getType();
  if (from == to)
    return v;
  bool fromFloat = llvm::isa<mlir::FloatType>(from);
  bool toFloat = llvm::isa<mlir::FloatType>(to);
  if (to.isInteger(1)) {
    if (fromFloat)
      return mlir::arith::CmpFOp::create(
          b, loc, mlir::arith::CmpFPredicate::UNE, v,
          mlir::arith::ConstantOp::create(b, loc, b.getFloatAttr(from, 0)));
    return mlir::arith::CmpIOp::create(
        b, loc, mlir::arith::CmpIPredicate::ne, v,
        mlir::arith::ConstantOp::create(b, loc, b.getIntegerAttr(from, 0)));
  }
  if (fromFloat && toFloat)
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? mlir::Value(mlir::arith::ExtFOp::create(b, loc, to, v))
               : mlir::Value(mlir::arith::TruncFOp::create(b, loc, to, v));
  if (fromFloat)
    return toUnsigned
               ? mlir::Value(mlir::arith::FPToUIOp::create(b, loc, to, v))
               : mlir::Value(mlir::arith::FPToSIOp::create(b, loc, to, v));
  // Booleans are 0 or 1, not -1: extended as unsigned.
  bool isBool = from.isInteger(1) || fromUnsigned;
  if (toFloat)
    return isBool ? mlir::Value(mlir::arith::UIToFPOp::create(b, loc, to, v))
                  : mlir::Value(mlir::arith::SIToFPOp::create(b, loc, to, v));
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return isBool ? mlir::Value(mlir::arith::ExtUIOp::create(b, loc, to, v))
                  : mlir::Value(mlir::arith::ExtSIOp::create(b, loc, to, v));
  return mlir::arith::TruncIOp::create(b, loc, to, v);
}

mlir::Value elementwise(NodeContext &ctx, llvm::ArrayRef<mlir::Value> inputs,
                        mlir::RankedTensorType resultType,
                        const ScalarBody &body,
                        llvm::ArrayRef<mlir::Value> givenDims) {
  mlir::MLIRContext *mctx = ctx.b.getContext();
  int64_t rank = resultType.getRank();
  llvm::SmallVector<mlir::AffineMap> maps;
  llvm::SmallVector<mlir::Value> dims(rank);
  for (mlir::Value in : inputs) {
    auto type = llvm::cast<mlir::RankedTensorType>(in.getType());
    int64_t offset = rank - type.getRank();
    // The result's type is ONNX's (shape inference's, or a subgraph's
    // declaration): an input it cannot be broadcast from is an error.
    bool broadcasts = offset >= 0;
    for (int64_t j = 0; broadcasts && j < type.getRank(); ++j) {
      int64_t from = type.getDimSize(j), to = resultType.getDimSize(offset + j);
      broadcasts = from == to || from == 1 ||
                   mlir::ShapedType::isDynamic(from) ||
                   mlir::ShapedType::isDynamic(to);
    }
    if (!broadcasts) {
      (void)ctx.fail("an input of type " + typeText(type) +
                     " does not broadcast to the output's type " +
                     typeText(resultType));
      return nullptr;
    }
    llvm::SmallVector<mlir::AffineExpr> exprs;
    for (int64_t j = 0; j < type.getRank(); ++j) {
      int64_t d = offset + j;
      if (type.getDimSize(j) == 1 && resultType.getDimSize(d) != 1) {
        exprs.push_back(mlir::getAffineConstantExpr(0, mctx));
        continue;
      }
      exprs.push_back(mlir::getAffineDimExpr(d, mctx));
      if (resultType.isDynamicDim(d) && !dims[d])
        dims[d] = ctx.dim(in, j);
    }
    maps.push_back(mlir::AffineMap::get(rank, 0, exprs, mctx));
  }
  maps.push_back(mlir::AffineMap::getMultiDimIdentityMap(rank, mctx));
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d) || dims[d])
      continue;
    if (d < int64_t(givenDims.size()) && givenDims[d]) {
      dims[d] = givenDims[d];
      continue;
    }
    (void)ctx.fail("dim " + llvm::Twine(d) +
                   " of the result is dynamic and no input gives its size");
    return nullptr;
  }
  mlir::Value init = ctx.empty(resultType, dims);
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      rank, mlir::utils::IteratorType::parallel);
  mlir::Type outElement = resultType.getElementType();
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{resultType}, inputs,
      mlir::ValueRange{init}, maps, iterators,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args) {
        mlir::Value r = body(b, loc, args.drop_back(), outElement);
        mlir::linalg::YieldOp::create(b, loc, r);
      });
  return generic.getResult(0);
}

mlir::Value alongAxis(NodeContext &ctx, mlir::Value v, int64_t rank,
                      int64_t axis) {
  auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
  if (t.getRank() == 0 || rank <= 1)
    return v;
  llvm::SmallVector<int64_t> shape(rank, 1);
  shape[axis] = t.getDimSize(0);
  auto type = mlir::RankedTensorType::get(shape, t.getElementType());
  llvm::SmallVector<mlir::ReassociationIndices> groups(1);
  for (int64_t d = 0; d < rank; ++d)
    groups[0].push_back(d);
  if (!t.isDynamicDim(0))
    return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, type, v, groups);
  llvm::SmallVector<mlir::OpFoldResult> sizes(rank, ctx.b.getIndexAttr(1));
  sizes[axis] = ctx.dim(v, 0);
  return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, type, v, groups,
                                             sizes);
}

mlir::Value floatConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t,
                       double v) {
  return mlir::arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
}

namespace {

/// A converter applying `body` to the node's inputs (all of them, or the
/// first `arity`) elementwise, into its output's type.
mlir::LogicalResult apply(NodeContext &ctx, const ScalarBody &body,
                          int arity = -1) {
  llvm::SmallVector<mlir::Value> inputs;
  int n = arity < 0 ? ctx.node().input_size() : arity;
  for (int i = 0; i < n; ++i) {
    mlir::Value v = ctx.input(i);
    if (!v)
      return mlir::failure();
    inputs.push_back(v);
  }
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  ctx.setOutput(0, elementwise(ctx, inputs, out, body));
  return mlir::success();
}

// ---- unary ------------------------------------------------------------------

mlir::LogicalResult identity(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  if (!x)
    return mlir::failure();
  ctx.setOutput(0, x);
  return mlir::success();
}

template <typename FloatOp> mlir::LogicalResult floatUnary(NodeContext &ctx) {
  mlir::RankedTensorType t = ctx.inputType(0);
  if (!t)
    return mlir::failure();
  if (!isFloatType(t.getElementType()))
    return ctx.fail("takes floats here, not " +
                    llvm::Twine(t.getElementType().isInteger()
                                    ? "integers"
                                    : "this element type"));
  return apply(
      ctx,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
         mlir::Type) -> mlir::Value { return FloatOp::create(b, loc, a[0]); });
}

mlir::LogicalResult relu(NodeContext &ctx) {
  if (ctx.isUnsigned(0))
    return identity(ctx);
  return apply(
      ctx,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
         mlir::Type t) -> mlir::Value {
        if (isFloatType(t))
          return mlir::arith::MaximumFOp::create(b, loc, a[0],
                                                 floatConst(b, loc, t, 0));
        return mlir::arith::MaxSIOp::create(
            b, loc, a[0],
            mlir::arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0)));
      });
}

mlir::LogicalResult neg(NodeContext &ctx) {
  return apply(
      ctx,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
         mlir::Type t) -> mlir::Value {
        if (isFloatType(t))
          return mlir::arith::NegFOp::create(b, loc, a[0]);
        return mlir::arith::SubIOp::create(
            b, loc,
            mlir::arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0)),
            a[0]);
      });
}

mlir::LogicalResult abs(NodeContext &ctx) {
  if (ctx.isUnsigned(0))
    return identity(ctx);
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type t) -> mlir::Value {
                 if (isFloatType(t))
                   return mlir::math::AbsFOp::create(b, loc, a[0]);
                 return mlir::math::AbsIOp::create(b, loc, a[0]);
               });
}

mlir::LogicalResult sigmoid(NodeContext &ctx) {
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type t) -> mlir::Value {
                 mlir::Value one = floatConst(b, loc, t, 1);
                 mlir::Value e = mlir::math::ExpOp::create(
                     b, loc, mlir::arith::NegFOp::create(b, loc, a[0]));
                 return mlir::arith::DivFOp::create(
                     b, loc, one, mlir::arith::AddFOp::create(b, loc, one, e));
               });
}

mlir::LogicalResult reciprocal(NodeContext &ctx) {
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type t) -> mlir::Value {
                 return mlir::arith::DivFOp::create(
                     b, loc, floatConst(b, loc, t, 1), a[0]);
               });
}

mlir::LogicalResult leakyRelu(NodeContext &ctx) {
  double alpha = ctx.floatAttr("alpha", 0.01f);
  return apply(ctx,
               [alpha](mlir::OpBuilder &b, mlir::Location loc,
                       mlir::ValueRange a, mlir::Type t) -> mlir::Value {
                 mlir::Value zero = floatConst(b, loc, t, 0);
                 mlir::Value negative = mlir::arith::CmpFOp::create(
                     b, loc, mlir::arith::CmpFPredicate::OLT, a[0], zero);
                 mlir::Value scaled = mlir::arith::MulFOp::create(
                     b, loc, a[0], floatConst(b, loc, t, alpha));
                 return mlir::arith::SelectOp::create(b, loc, negative, scaled,
                                                      a[0]);
               });
}

mlir::LogicalResult hardSigmoid(NodeContext &ctx, double alpha, double beta) {
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 mlir::Value y = mlir::arith::AddFOp::create(
                     b, loc,
                     mlir::arith::MulFOp::create(b, loc, a[0],
                                                 floatConst(b, loc, t, alpha)),
                     floatConst(b, loc, t, beta));
                 y = mlir::arith::MaximumFOp::create(b, loc, y,
                                                     floatConst(b, loc, t, 0));
                 return mlir::arith::MinimumFOp::create(
                     b, loc, y, floatConst(b, loc, t, 1));
               });
}

mlir::LogicalResult hardSigmoidOp(NodeContext &ctx) {
  return hardSigmoid(ctx, ctx.floatAttr("alpha", 0.2f),
                     ctx.floatAttr("beta", 0.5f));
}

mlir::LogicalResult hardSwish(NodeContext &ctx) {
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type t) -> mlir::Value {
                 mlir::Value y = mlir::arith::AddFOp::create(
                     b, loc,
                     mlir::arith::MulFOp::create(
                         b, loc, a[0], floatConst(b, loc, t, 1.0 / 6.0)),
                     floatConst(b, loc, t, 0.5));
                 y = mlir::arith::MaximumFOp::create(b, loc, y,
                                                     floatConst(b, loc, t, 0));
                 y = mlir::arith::MinimumFOp::create(b, loc, y,
                                                     floatConst(b, loc, t, 1));
                 return mlir::arith::MulFOp::create(b, loc, a[0], y);
               });
}

mlir::LogicalResult softplus(NodeContext &ctx) {
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type) -> mlir::Value {
                 return mlir::math::Log1pOp::create(
                     b, loc, mlir::math::ExpOp::create(b, loc, a[0]));
               });
}

mlir::LogicalResult elu(NodeContext &ctx) {
  double alpha = ctx.floatAttr("alpha", 1.0f);
  return apply(
      ctx,
      [alpha](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
              mlir::Type t) -> mlir::Value {
        mlir::Value negative =
            mlir::arith::CmpFOp::create(b, loc, mlir::arith::CmpFPredicate::OLT,
                                        a[0], floatConst(b, loc, t, 0));
        mlir::Value scaled = mlir::arith::MulFOp::create(
            b, loc, mlir::math::ExpM1Op::create(b, loc, a[0]),
            floatConst(b, loc, t, alpha));
        return mlir::arith::SelectOp::create(b, loc, negative, scaled, a[0]);
      });
}

/// Cast, and CastLike (to its second input's type, the output's).
mlir::LogicalResult cast(NodeContext &ctx) {
  bool fromUnsigned = ctx.isUnsigned(0), toUnsigned = ctx.outputIsUnsigned(0);
  return apply(
      ctx,
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
          mlir::Type t) -> mlir::Value {
        return convertScalar(b, loc, a[0], t, fromUnsigned, toUnsigned);
      },
      /*arity=*/1);
}

/// Softsign: x / (1 + |x|).
mlir::LogicalResult softsign(NodeContext &ctx) {
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type t) -> mlir::Value {
                 mlir::Value d = mlir::arith::AddFOp::create(
                     b, loc, floatConst(b, loc, t, 1),
                     mlir::math::AbsFOp::create(b, loc, a[0]));
                 return mlir::arith::DivFOp::create(b, loc, a[0], d);
               });
}

/// Selu: gamma * x above 0, gamma * alpha * (e^x - 1) else.
mlir::LogicalResult selu(NodeContext &ctx) {
  double alpha = ctx.floatAttr("alpha", 1.67326319217681884765625f);
  double gamma = ctx.floatAttr("gamma", 1.05070102214813232421875f);
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 mlir::Value positive = mlir::arith::CmpFOp::create(
                     b, loc, mlir::arith::CmpFPredicate::OGT, a[0],
                     floatConst(b, loc, t, 0));
                 mlir::Value low = mlir::arith::MulFOp::create(
                     b, loc, mlir::math::ExpM1Op::create(b, loc, a[0]),
                     floatConst(b, loc, t, alpha));
                 mlir::Value y =
                     mlir::arith::SelectOp::create(b, loc, positive, a[0], low);
                 return mlir::arith::MulFOp::create(
                     b, loc, y, floatConst(b, loc, t, gamma));
               });
}

/// Celu: max(0, x) + min(0, alpha * (e^(x / alpha) - 1)).
mlir::LogicalResult celu(NodeContext &ctx) {
  double alpha = ctx.floatAttr("alpha", 1.0f);
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 mlir::Value zero = floatConst(b, loc, t, 0);
                 mlir::Value e = mlir::math::ExpM1Op::create(
                     b, loc,
                     mlir::arith::DivFOp::create(b, loc, a[0],
                                                 floatConst(b, loc, t, alpha)));
                 mlir::Value low = mlir::arith::MinimumFOp::create(
                     b, loc, zero,
                     mlir::arith::MulFOp::create(b, loc, e,
                                                 floatConst(b, loc, t, alpha)));
                 return mlir::arith::AddFOp::create(
                     b, loc,
                     mlir::arith::MaximumFOp::create(b, loc, zero, a[0]), low);
               });
}

/// ThresholdedRelu: x above alpha, else 0.
mlir::LogicalResult thresholdedRelu(NodeContext &ctx) {
  double alpha = ctx.floatAttr("alpha", 1.0f);
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 mlir::Value above = mlir::arith::CmpFOp::create(
                     b, loc, mlir::arith::CmpFPredicate::OGT, a[0],
                     floatConst(b, loc, t, alpha));
                 return mlir::arith::SelectOp::create(b, loc, above, a[0],
                                                      floatConst(b, loc, t, 0));
               });
}

/// Shrink: x + bias below -lambd, x - bias above lambd, else 0 (floats).
mlir::LogicalResult shrink(NodeContext &ctx) {
  mlir::RankedTensorType t = ctx.inputType(0);
  if (!t)
    return mlir::failure();
  if (!isFloatType(t.getElementType()))
    return ctx.fail("takes floats here");
  double lambd = ctx.floatAttr("lambd", 0.5f), bias = ctx.floatAttr("bias", 0);
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 mlir::Value below = mlir::arith::CmpFOp::create(
                     b, loc, mlir::arith::CmpFPredicate::OLT, a[0],
                     floatConst(b, loc, t, -lambd));
                 mlir::Value above = mlir::arith::CmpFOp::create(
                     b, loc, mlir::arith::CmpFPredicate::OGT, a[0],
                     floatConst(b, loc, t, lambd));
                 mlir::Value y = mlir::arith::SelectOp::create(
                     b, loc, above,
                     mlir::arith::SubFOp::create(b, loc, a[0],
                                                 floatConst(b, loc, t, bias)),
                     floatConst(b, loc, t, 0));
                 return mlir::arith::SelectOp::create(
                     b, loc, below,
                     mlir::arith::AddFOp::create(b, loc, a[0],
                                                 floatConst(b, loc, t, bias)),
                     y);
               });
}

mlir::LogicalResult isNaN(NodeContext &ctx) {
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type) -> mlir::Value {
                 return mlir::arith::CmpFOp::create(
                     b, loc, mlir::arith::CmpFPredicate::UNO, a[0], a[0]);
               });
}

/// IsInf: +inf where detect_positive, -inf where detect_negative.
mlir::LogicalResult isInf(NodeContext &ctx) {
  bool positive = ctx.intAttr("detect_positive", 1) != 0;
  bool negative = ctx.intAttr("detect_negative", 1) != 0;
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type) -> mlir::Value {
                 mlir::Type f = a[0].getType();
                 auto equals = [&](double v) -> mlir::Value {
                   return mlir::arith::CmpFOp::create(
                       b, loc, mlir::arith::CmpFPredicate::OEQ, a[0],
                       floatConst(b, loc, f, v));
                 };
                 mlir::Value no = mlir::arith::ConstantOp::create(
                     b, loc, b.getBoolAttr(false));
                 mlir::Value pos = positive ? equals(INFINITY) : no;
                 mlir::Value neg = negative ? equals(-INFINITY) : no;
                 return mlir::arith::OrIOp::create(b, loc, pos, neg);
               });
}

mlir::LogicalResult notOp(NodeContext &ctx) {
  return apply(
      ctx,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
         mlir::Type t) -> mlir::Value {
        return mlir::arith::XOrIOp::create(
            b, loc, a[0],
            mlir::arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 1)));
      });
}

// ---- binary and more
// ----------------------------------------------------------

/// An arithmetic op with a float, a signed and an unsigned integer form
/// (the same op where the two's complement bits do not differ).
template <typename FloatOp, typename IntOp, typename UIntOp = IntOp>
mlir::LogicalResult arithmetic(NodeContext &ctx) {
  const bool isUnsigned = ctx.isUnsigned(0);
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 mlir::Value acc = a[0];
                 for (mlir::Value v : a.drop_front())
                   acc = isFloatType(t)
                             ? mlir::Value(FloatOp::create(b, loc, acc, v))
                         : isUnsigned
                             ? mlir::Value(UIntOp::create(b, loc, acc, v))
                             : mlir::Value(IntOp::create(b, loc, acc, v));
                 return acc;
               });
}

mlir::LogicalResult mean(NodeContext &ctx) {
  double n = ctx.node().input_size();
  return apply(ctx,
               [n](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 mlir::Value acc = a[0];
                 for (mlir::Value v : a.drop_front())
                   acc = mlir::arith::AddFOp::create(b, loc, acc, v);
                 return mlir::arith::DivFOp::create(b, loc, acc,
                                                    floatConst(b, loc, t, n));
               });
}

mlir::LogicalResult pow(NodeContext &ctx) {
  const bool baseUnsigned = ctx.isUnsigned(0);
  const bool exponentUnsigned = ctx.isUnsigned(1);
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type t) -> mlir::Value {
                 if (isFloatType(t))
                   return mlir::math::PowFOp::create(
                       b, loc, a[0],
                       convertScalar(b, loc, a[1], t, exponentUnsigned));
                 // An integer base: the power in f64 (exact where the
                 // result fits its 53 bits), truncated to the base's type as
                 // ONNX's Pow keeps it.
                 mlir::Type f64 = b.getF64Type();
                 mlir::Value power = mlir::math::PowFOp::create(
                     b, loc, convertScalar(b, loc, a[0], f64, baseUnsigned),
                     convertScalar(b, loc, a[1], f64, exponentUnsigned));
                 return convertScalar(b, loc, power, t, false, baseUnsigned);
               });
}

/// BitShift of unsigned integers: a shift by the width or more gives 0, as
/// numpy's shifts of unsigned integers do.
mlir::LogicalResult bitShift(NodeContext &ctx) {
  if (!ctx.isUnsigned(0) || !ctx.isUnsigned(1))
    return ctx.fail("takes unsigned integers (uint8 to uint64)");
  std::string direction = ctx.stringAttr("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    return ctx.fail("direction '" + direction + "' is not LEFT or RIGHT");
  const bool left = direction == "LEFT";
  return apply(
      ctx,
      [left](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
             mlir::Type t) -> mlir::Value {
        mlir::Value shifted =
            left ? mlir::arith::ShLIOp::create(b, loc, a[0], a[1]).getResult()
                 : mlir::arith::ShRUIOp::create(b, loc, a[0], a[1]).getResult();
        mlir::Value width = mlir::arith::ConstantOp::create(
            b, loc, b.getIntegerAttr(t, t.getIntOrFloatBitWidth()));
        mlir::Value within = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::ult, a[1], width);
        return mlir::arith::SelectOp::create(
            b, loc, within, shifted,
            mlir::arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0)));
      });
}

/// A comparison: floats ordered, integers signed or unsigned as ONNX
/// types them.
template <mlir::arith::CmpFPredicate F, mlir::arith::CmpIPredicate I,
          mlir::arith::CmpIPredicate U = I>
mlir::LogicalResult compare(NodeContext &ctx) {
  const bool isUnsigned = ctx.isUnsigned(0);
  return apply(ctx,
               [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                   mlir::Type) -> mlir::Value {
                 if (isFloatType(a[0].getType()))
                   return mlir::arith::CmpFOp::create(b, loc, F, a[0], a[1]);
                 return mlir::arith::CmpIOp::create(b, loc, isUnsigned ? U : I,
                                                    a[0], a[1]);
               });
}

template <typename Op> mlir::LogicalResult logical(NodeContext &ctx) {
  return apply(
      ctx,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
         mlir::Type) -> mlir::Value { return Op::create(b, loc, a[0], a[1]); });
}

mlir::LogicalResult where(NodeContext &ctx) {
  return apply(ctx,
               [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                  mlir::Type) -> mlir::Value {
                 return mlir::arith::SelectOp::create(b, loc, a[0], a[1], a[2]);
               });
}

mlir::LogicalResult prelu(NodeContext &ctx) {
  return apply(
      ctx,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
         mlir::Type t) -> mlir::Value {
        mlir::Value negative =
            mlir::arith::CmpFOp::create(b, loc, mlir::arith::CmpFPredicate::OLT,
                                        a[0], floatConst(b, loc, t, 0));
        mlir::Value scaled = mlir::arith::MulFOp::create(b, loc, a[0], a[1]);
        return mlir::arith::SelectOp::create(b, loc, negative, scaled, a[0]);
      });
}

/// Mod: fmod=1 takes the dividend's sign (C's fmod, floats and integers);
/// fmod=0, integers only, the divisor's (Python's %).
mlir::LogicalResult mod(NodeContext &ctx) {
  bool fmod = ctx.intAttr("fmod", 0) != 0;
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  if (!fmod && isFloatType(out.getElementType()))
    return ctx.fail("fmod=0 is defined for integers only; a float Mod needs "
                    "fmod=1");
  // Unsigned remainders have no sign to differ: fmod changes nothing.
  const bool isUnsigned = ctx.isUnsigned(0);
  return apply(
      ctx,
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
          mlir::Type t) -> mlir::Value {
        if (isFloatType(t))
          return mlir::arith::RemFOp::create(b, loc, a[0], a[1]);
        if (isUnsigned)
          return mlir::arith::RemUIOp::create(b, loc, a[0], a[1]);
        mlir::Value r = mlir::arith::RemSIOp::create(b, loc, a[0], a[1]);
        if (fmod)
          return r;
        // A non-zero remainder of the other sign than the divisor moves by it.
        mlir::Value zero =
            mlir::arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
        mlir::Value nonZero = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::ne, r, zero);
        mlir::Value rNegative = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::slt, r, zero);
        mlir::Value dNegative = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::slt, a[1], zero);
        mlir::Value differ =
            mlir::arith::XOrIOp::create(b, loc, rNegative, dNegative);
        mlir::Value moves =
            mlir::arith::AndIOp::create(b, loc, nonZero, differ);
        return mlir::arith::SelectOp::create(
            b, loc, moves, mlir::arith::AddIOp::create(b, loc, r, a[1]), r);
      });
}

/// Sign: -1, 0 or 1 (NaN stays NaN); 0 or 1 unsigned.
mlir::LogicalResult sign(NodeContext &ctx) {
  const bool isUnsigned = ctx.isUnsigned(0);
  return apply(
      ctx,
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
          mlir::Type t) -> mlir::Value {
        if (isFloatType(t)) {
          mlir::Value zero = floatConst(b, loc, t, 0);
          mlir::Value positive = mlir::arith::CmpFOp::create(
              b, loc, mlir::arith::CmpFPredicate::OGT, a[0], zero);
          mlir::Value negative = mlir::arith::CmpFOp::create(
              b, loc, mlir::arith::CmpFPredicate::OLT, a[0], zero);
          mlir::Value y = mlir::arith::SelectOp::create(
              b, loc, negative, floatConst(b, loc, t, -1), a[0]);
          // Zero (of either sign) and NaN are their own sign.
          return mlir::arith::SelectOp::create(b, loc, positive,
                                               floatConst(b, loc, t, 1), y);
        }
        auto integer = [&](int64_t v) -> mlir::Value {
          return mlir::arith::ConstantOp::create(b, loc,
                                                 b.getIntegerAttr(t, v));
        };
        mlir::Value positive = mlir::arith::CmpIOp::create(
            b, loc,
            isUnsigned ? mlir::arith::CmpIPredicate::ne
                       : mlir::arith::CmpIPredicate::sgt,
            a[0], integer(0));
        mlir::Value negative = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::slt, a[0], integer(0));
        mlir::Value y = mlir::arith::SelectOp::create(b, loc, negative,
                                                      integer(-1), integer(0));
        return mlir::arith::SelectOp::create(b, loc, positive, integer(1), y);
      });
}

/// Clip(x, min?, max?): the bounds are optional inputs (scalars).
mlir::LogicalResult clip(NodeContext &ctx) {
  llvm::SmallVector<mlir::Value> inputs;
  mlir::Value x = ctx.input(0);
  if (!x)
    return mlir::failure();
  inputs.push_back(x);
  bool hasMin = ctx.hasInput(1), hasMax = ctx.hasInput(2);
  for (int i : {1, 2})
    if (ctx.hasInput(i)) {
      mlir::Value bound = ctx.input(i);
      if (!bound)
        return mlir::failure();
      inputs.push_back(bound);
    }
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  const bool isUnsigned = ctx.isUnsigned(0);
  ctx.setOutput(
      0, elementwise(ctx, inputs, out,
                     [=](mlir::OpBuilder &b, mlir::Location loc,
                         mlir::ValueRange a, mlir::Type t) -> mlir::Value {
                       mlir::Value y = a[0];
                       int next = 1;
                       if (hasMin)
                         y = isFloatType(t)
                                 ? mlir::Value(mlir::arith::MaximumFOp::create(
                                       b, loc, y, a[next]))
                             : isUnsigned
                                 ? mlir::Value(mlir::arith::MaxUIOp::create(
                                       b, loc, y, a[next]))
                                 : mlir::Value(mlir::arith::MaxSIOp::create(
                                       b, loc, y, a[next]));
                       next += hasMin;
                       if (hasMax)
                         y = isFloatType(t)
                                 ? mlir::Value(mlir::arith::MinimumFOp::create(
                                       b, loc, y, a[next]))
                             : isUnsigned
                                 ? mlir::Value(mlir::arith::MinUIOp::create(
                                       b, loc, y, a[next]))
                                 : mlir::Value(mlir::arith::MinSIOp::create(
                                       b, loc, y, a[next]));
                       return y;
                     }));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> elementwiseConverters() {
  using namespace mlir;
  std::vector<OpConverter> converters = {
      {"Identity", identity},
      {"Relu", relu},
      {"Neg", neg},
      {"Abs", abs},
      {"Sigmoid", sigmoid},
      {"Reciprocal", reciprocal},
      {"LeakyRelu", leakyRelu},
      {"HardSigmoid", hardSigmoidOp},
      {"HardSwish", hardSwish},
      {"Softplus", softplus},
      {"Elu", elu},
      {"Cast", cast, {}, false, /*readsUnsigned=*/true},
      {"BitShift", bitShift, {}, false, /*readsUnsigned=*/true},
      {"CastLike", cast, {}, false, /*readsUnsigned=*/true},
      {"Softsign", softsign},
      {"Selu", selu},
      {"Celu", celu},
      {"ThresholdedRelu", thresholdedRelu},
      {"Shrink", shrink},
      {"IsNaN", isNaN},
      {"IsInf", isInf},
      {"Tan", floatUnary<math::TanOp>},
      {"Asin", floatUnary<math::AsinOp>},
      {"Acos", floatUnary<math::AcosOp>},
      {"Atan", floatUnary<math::AtanOp>},
      {"Sinh", floatUnary<math::SinhOp>},
      {"Cosh", floatUnary<math::CoshOp>},
      {"Asinh", floatUnary<math::AsinhOp>},
      {"Acosh", floatUnary<math::AcoshOp>},
      {"Atanh", floatUnary<math::AtanhOp>},
      {"Not", notOp},
      {"Exp", floatUnary<math::ExpOp>},
      {"Log", floatUnary<math::LogOp>},
      {"Sqrt", floatUnary<math::SqrtOp>},
      {"Tanh", floatUnary<math::TanhOp>},
      {"Erf", floatUnary<math::ErfOp>},
      {"Sin", floatUnary<math::SinOp>},
      {"Cos", floatUnary<math::CosOp>},
      {"Floor", floatUnary<math::FloorOp>},
      {"Ceil", floatUnary<math::CeilOp>},
      {"Round", floatUnary<math::RoundEvenOp>},
      {"Add", arithmetic<arith::AddFOp, arith::AddIOp>},
      {"Sum", arithmetic<arith::AddFOp, arith::AddIOp>},
      {"Sub", arithmetic<arith::SubFOp, arith::SubIOp>},
      {"Mul", arithmetic<arith::MulFOp, arith::MulIOp>},
      {"Div", arithmetic<arith::DivFOp, arith::DivSIOp, arith::DivUIOp>},
      {"Max", arithmetic<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>},
      {"Min", arithmetic<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>},
      {"Mean", mean},
      {"Pow", pow},
      {"Equal", compare<arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq>},
      {"Less", compare<arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt,
                       arith::CmpIPredicate::ult>},
      {"LessOrEqual",
       compare<arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle,
               arith::CmpIPredicate::ule>},
      {"Greater", compare<arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt,
                          arith::CmpIPredicate::ugt>},
      {"GreaterOrEqual",
       compare<arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge,
               arith::CmpIPredicate::uge>},
      {"And", logical<arith::AndIOp>},
      {"Or", logical<arith::OrIOp>},
      {"Xor", logical<arith::XOrIOp>},
      {"Where", where},
      {"PRelu", prelu},
      {"Clip", clip},
      {"Mod", mod},
      {"Sign", sign},
  };
  // The ops that compute on unsigned integers as such (Cast and BitShift
  // say so above).
  static const llvm::StringSet<> unsignedOps = {
      "Identity", "Relu",        "Abs",     "Add",
      "Sum",      "Sub",         "Mul",     "Div",
      "Max",      "Min",         "Pow",     "Equal",
      "Less",     "LessOrEqual", "Greater", "GreaterOrEqual",
      "Where",    "Clip",        "Mod",     "Sign"};
  for (OpConverter &c : converters) {
    c.anyLayout = true;
    c.readsUnsigned |= unsignedOps.contains(c.opType);
  }
  return converters;
}

} // namespace aot::onnx_import
