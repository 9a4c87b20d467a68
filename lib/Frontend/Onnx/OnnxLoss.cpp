//===- OnnxLoss.cpp - NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss --===//
//
// Both read, for each position of the target (N x d1 ... dk), the input's
// element at the class the target names (input N x C x d1 ... dk), negated
// and weighted: by weight[class] where a weight is given, by 0 where the
// target is ignore_index, by 1 otherwise. A class outside [0, C) is read
// clamped into it, so no read leaves the tensor (ONNX leaves such targets
// undefined). The losses are returned as they are, summed, or summed and
// divided by the sum of their weights (the mean, as the specification's
// reference computes it). SoftmaxCrossEntropyLoss takes them of the log
// softmax over the classes, which it can also return.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxElementwise.h"
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/StringSwitch.h"

#include <limits>

namespace aot::onnx_import {

namespace {

// In a unity build a file before this one may declare an indexConst of its
// own in this anonymous namespace, which would hide the shared one.
using onnx_import::indexConst;

enum class LossReduction { None, Sum, Mean };

/// The dynamic sizes of `v`, all of them (null where static is fine too).
llvm::SmallVector<mlir::Value> sizesOf(NodeContext &ctx, mlir::Value v) {
  auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
  llvm::SmallVector<mlir::Value> dims;
  for (int64_t d = 0; d < t.getRank(); ++d)
    dims.push_back(ctx.dim(v, d));
  return dims;
}

/// The sum of every element of `v` as a rank-0 tensor.
mlir::Value total(NodeContext &ctx, mlir::Value v) {
  auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
  mlir::MLIRContext *mctx = ctx.b.getContext();
  auto scalarType = mlir::RankedTensorType::get({}, t.getElementType());
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      t.getRank(), mlir::utils::IteratorType::reduction);
  auto sum = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{scalarType}, mlir::ValueRange{v},
      mlir::ValueRange{
          ctx.filled(scalarType, ctx.scalar(t.getElementType(), 0))},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::getMultiDimIdentityMap(t.getRank(), mctx),
          mlir::AffineMap::get(t.getRank(), 0, {}, mctx)},
      iterators,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a) {
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::ValueRange{mlir::arith::AddFOp::create(b, loc, a[1], a[0])});
      });
  return sum.getResult(0);
}

/// The log softmax of `x` over dim 1.
mlir::Value logSoftmax(NodeContext &ctx, mlir::Value x) {
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  mlir::Type element = t.getElementType();
  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<int64_t> rowShape(t.getShape());
  rowShape.erase(rowShape.begin() + 1);
  auto rowType = mlir::RankedTensorType::get(rowShape, element);
  llvm::SmallVector<mlir::Value> dims = sizesOf(ctx, x), rowDims(dims);
  rowDims.erase(rowDims.begin() + 1);
  llvm::SmallVector<mlir::AffineExpr> rowExprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != 1)
      rowExprs.push_back(mlir::getAffineDimExpr(d, mctx));
  auto rowMap = mlir::AffineMap::get(rank, 0, rowExprs, mctx);
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, mctx);
  auto iterators = parallelIterators(rank);
  iterators[1] = mlir::utils::IteratorType::reduction;
  auto reduce = [&](mlir::Value init, mlir::ValueRange extra, auto &&combine) {
    llvm::SmallVector<mlir::Value> ins = {x};
    llvm::SmallVector<mlir::AffineMap> maps = {identity};
    for (mlir::Value e : extra) {
      ins.push_back(e);
      maps.push_back(rowMap);
    }
    maps.push_back(rowMap);
    return mlir::linalg::GenericOp::create(
               ctx.b, ctx.loc, mlir::TypeRange{rowType}, ins,
               mlir::ValueRange{ctx.filled(rowType, init, rowDims)}, maps,
               iterators,
               [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a) {
                 mlir::linalg::YieldOp::create(
                     b, loc, mlir::ValueRange{mlir::Value(combine(b, loc, a))});
               })
        .getResult(0);
  };
  mlir::Value max =
      reduce(ctx.scalar(element, -std::numeric_limits<double>::infinity()), {},
             [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a) {
               return mlir::arith::MaximumFOp::create(b, loc, a[1], a[0]);
             });
  mlir::Value sum =
      reduce(ctx.scalar(element, 0), {max},
             [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a) {
               mlir::Value e = mlir::math::ExpOp::create(
                   b, loc, mlir::arith::SubFOp::create(b, loc, a[0], a[1]));
               return mlir::arith::AddFOp::create(b, loc, a[2], e);
             });
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{t}, mlir::ValueRange{x, max, sum},
      mlir::ValueRange{ctx.empty(t, dims)},
      llvm::SmallVector<mlir::AffineMap>{identity, rowMap, rowMap, identity},
      parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a) {
        mlir::Value shifted = mlir::arith::SubFOp::create(b, loc, a[0], a[1]);
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::ValueRange{mlir::arith::SubFOp::create(
                b, loc, shifted, mlir::math::LogOp::create(b, loc, a[2]))});
      });
  return generic.getResult(0);
}

/// The weighted negative log likelihood of `logp` (N x C x ...) at the
/// classes of `target` (N x ...), reduced as the node says, into output 0.
mlir::LogicalResult likelihoodLoss(NodeContext &ctx, mlir::Value logp,
                                   mlir::Value target, int weightInput) {
  auto xType = llvm::cast<mlir::RankedTensorType>(logp.getType());
  auto tType = llvm::cast<mlir::RankedTensorType>(target.getType());
  int64_t rank = xType.getRank();
  mlir::Type element = xType.getElementType();
  if (rank < 2 || !isFloatType(element))
    return ctx.fail("takes floats of rank 2 or more (N x C x ...), not " +
                    typeText(xType));
  if (tType.getRank() != rank - 1 ||
      !llvm::isa<mlir::IntegerType>(tType.getElementType()) ||
      tType.getElementType().isInteger(1))
    return ctx.fail("takes integer targets of rank " + llvm::Twine(rank - 1) +
                    " (N x ...), not " + typeText(tType));
  for (int64_t d = 0; d < rank - 1; ++d) {
    int64_t x = xType.getDimSize(d == 0 ? 0 : d + 1), t = tType.getDimSize(d);
    if (x != mlir::ShapedType::kDynamic && t != mlir::ShapedType::kDynamic &&
        x != t)
      return ctx.fail("its targets " + typeText(tType) + " do not fit its " +
                      "input " + typeText(xType));
  }
  std::optional<LossReduction> reduction =
      llvm::StringSwitch<std::optional<LossReduction>>(
          ctx.stringAttr("reduction", "mean"))
          .Case("none", LossReduction::None)
          .Case("sum", LossReduction::Sum)
          .Case("mean", LossReduction::Mean)
          .Default(std::nullopt);
  if (!reduction)
    return ctx.fail("reduction '" + ctx.stringAttr("reduction", "mean") +
                    "' is not one of none, sum, mean");
  mlir::Value weight;
  if (ctx.hasInput(weightInput)) {
    weight = ctx.input(weightInput);
    if (!weight)
      return mlir::failure();
    auto wType = llvm::cast<mlir::RankedTensorType>(weight.getType());
    if (wType.getRank() != 1 || wType.getElementType() != element)
      return ctx.fail("takes weights of one per class of " + typeText(element) +
                      ", not " + typeText(wType));
  }
  std::optional<int64_t> ignore;
  if (ctx.hasAttr("ignore_index"))
    ignore = ctx.intAttr("ignore_index", 0);

  // Each target's loss and weight.
  auto lossType = mlir::RankedTensorType::get(tType.getShape(), element);
  llvm::SmallVector<mlir::Value> dims = sizesOf(ctx, target);
  mlir::Value classes = ctx.dim(logp, 1);
  int64_t tRank = tType.getRank();
  auto identity =
      mlir::AffineMap::getMultiDimIdentityMap(tRank, ctx.b.getContext());
  auto losses = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{lossType, lossType},
      mlir::ValueRange{target},
      mlir::ValueRange{ctx.empty(lossType, dims), ctx.empty(lossType, dims)},
      llvm::SmallVector<mlir::AffineMap>(3, identity), parallelIterators(tRank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a) {
        mlir::Value t = a[0];
        mlir::Value c =
            mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), t);
        mlir::Value last =
            mlir::arith::SubIOp::create(b, loc, classes, indexConst(b, loc, 1));
        c = mlir::arith::MinSIOp::create(
            b, loc,
            mlir::arith::MaxSIOp::create(b, loc, c, indexConst(b, loc, 0)),
            last);
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < tRank; ++d) {
          at.push_back(mlir::linalg::IndexOp::create(b, loc, d));
          if (d == 0)
            at.push_back(c);
        }
        mlir::Value x = mlir::tensor::ExtractOp::create(b, loc, logp, at);
        mlir::Value w = weight ? mlir::tensor::ExtractOp::create(
                                     b, loc, weight, mlir::ValueRange{c})
                                     .getResult()
                               : floatConst(b, loc, element, 1);
        if (ignore) {
          mlir::Value ignored = mlir::arith::CmpIOp::create(
              b, loc, mlir::arith::CmpIPredicate::eq, t,
              mlir::arith::ConstantOp::create(
                  b, loc, b.getIntegerAttr(t.getType(), *ignore)));
          w = mlir::arith::SelectOp::create(b, loc, ignored,
                                            floatConst(b, loc, element, 0), w);
        }
        mlir::Value loss = mlir::arith::NegFOp::create(
            b, loc, mlir::arith::MulFOp::create(b, loc, x, w));
        mlir::linalg::YieldOp::create(b, loc, mlir::ValueRange{loss, w});
      });
  mlir::Value loss = losses.getResult(0);
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!outType)
    return mlir::failure();
  if (*reduction == LossReduction::None) {
    ctx.setOutput(0, ctx.castedTo(ctx.b, loss, outType, "the losses"));
    return mlir::success();
  }
  mlir::Value sum = total(ctx, loss);
  if (*reduction == LossReduction::Mean) {
    auto scalarType = mlir::RankedTensorType::get({}, element);
    mlir::Value weights = total(ctx, losses.getResult(1));
    auto none = mlir::AffineMap::get(0, 0, {}, ctx.b.getContext());
    sum = mlir::linalg::GenericOp::create(
              ctx.b, ctx.loc, mlir::TypeRange{scalarType},
              mlir::ValueRange{sum, weights},
              mlir::ValueRange{ctx.empty(scalarType)},
              llvm::SmallVector<mlir::AffineMap>(3, none),
              llvm::SmallVector<mlir::utils::IteratorType>{},
              [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a) {
                mlir::linalg::YieldOp::create(
                    b, loc,
                    mlir::ValueRange{
                        mlir::arith::DivFOp::create(b, loc, a[0], a[1])});
              })
              .getResult(0);
  }
  ctx.setOutput(0, ctx.castedTo(ctx.b, sum, outType, "the loss"));
  return mlir::success();
}

mlir::LogicalResult negativeLogLikelihoodLoss(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), target = ctx.input(1);
  if (!x || !target)
    return mlir::failure();
  return likelihoodLoss(ctx, x, target, 2);
}

mlir::LogicalResult softmaxCrossEntropyLoss(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), target = ctx.input(1);
  if (!x || !target)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  if (xType.getRank() < 2 || !isFloatType(xType.getElementType()))
    return ctx.fail("takes floats of rank 2 or more (N x C x ...), not " +
                    typeText(xType));
  mlir::Value logp = logSoftmax(ctx, x);
  if (ctx.numOutputs() > 1 && !ctx.node().output(1).empty()) {
    mlir::RankedTensorType logType = ctx.outputType(1);
    if (!logType)
      return mlir::failure();
    ctx.setOutput(1, ctx.castedTo(ctx.b, logp, logType, "the log softmax"));
  }
  return likelihoodLoss(ctx, logp, target, 2);
}

} // namespace

std::vector<OpConverter> lossConverters() {
  return {{"NegativeLogLikelihoodLoss", negativeLogLikelihoodLoss},
          {"SoftmaxCrossEntropyLoss", softmaxCrossEntropyLoss}};
}

} // namespace aot::onnx_import
