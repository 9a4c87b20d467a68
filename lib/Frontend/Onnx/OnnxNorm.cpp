//===- OnnxNorm.cpp - softmax, normalizations and reductions --------------===//
#include "Frontend/Onnx/OnnxElementwise.h"
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>
#include <set>
#include <utility>

namespace aot::onnx_import {

namespace {

/// The kinds of reduction, and the value each starts from.
enum class Reduction { Sum, Mean, Max, Min, Prod, SumSquare, L2, L1, LogSum };

mlir::Value initialValue(NodeContext &ctx, Reduction kind, mlir::Type t) {
  double inf = std::numeric_limits<double>::infinity();
  switch (kind) {
  case Reduction::Max:
    return isFloatType(t)
               ? floatConst(ctx.b, ctx.loc, t, -inf)
               : mlir::Value(mlir::arith::ConstantOp::create(
                     ctx.b, ctx.loc,
                     ctx.b.getIntegerAttr(t, llvm::APInt::getSignedMinValue(
                                                 t.getIntOrFloatBitWidth()))));
  case Reduction::Min:
    return isFloatType(t)
               ? floatConst(ctx.b, ctx.loc, t, inf)
               : mlir::Value(mlir::arith::ConstantOp::create(
                     ctx.b, ctx.loc,
                     ctx.b.getIntegerAttr(t, llvm::APInt::getSignedMaxValue(
                                                 t.getIntOrFloatBitWidth()))));
  case Reduction::Prod:
    return ctx.scalar(t, 1);
  default:
    return ctx.scalar(t, 0);
  }
}

/// Reduces `x` over `axes` (sorted, non-negative) with `kind`, keeping
/// them as dims of size 1 when `keep`, into `out`.
mlir::Value reduce(NodeContext &ctx, mlir::Value x,
                   const std::set<int64_t> &axes, bool keep, Reduction kind,
                   mlir::RankedTensorType out) {
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Type element = t.getElementType();
  llvm::SmallVector<int64_t> shape;
  llvm::SmallVector<mlir::Value> dims;
  for (int64_t d = 0; d < t.getRank(); ++d)
    if (!axes.count(d)) {
      shape.push_back(t.getDimSize(d));
      dims.push_back(t.isDynamicDim(d) ? ctx.dim(x, d) : mlir::Value());
    }
  auto reducedType = mlir::RankedTensorType::get(shape, element);
  mlir::Value init =
      ctx.filled(reducedType, initialValue(ctx, kind, element), dims);
  mlir::Value r =
      mlir::linalg::ReduceOp::create(
          ctx.b, ctx.loc, mlir::ValueRange{x}, mlir::ValueRange{init},
          llvm::SmallVector<int64_t>(axes.begin(), axes.end()),
          [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
            mlir::Value in = v[0], acc = v[1], r;
            bool f = isFloatType(element);
            switch (kind) {
            case Reduction::Max:
              r = f ? mlir::Value(
                          mlir::arith::MaximumFOp::create(b, loc, in, acc))
                    : mlir::Value(
                          mlir::arith::MaxSIOp::create(b, loc, in, acc));
              break;
            case Reduction::Min:
              r = f ? mlir::Value(
                          mlir::arith::MinimumFOp::create(b, loc, in, acc))
                    : mlir::Value(
                          mlir::arith::MinSIOp::create(b, loc, in, acc));
              break;
            case Reduction::Prod:
              r = f ? mlir::Value(mlir::arith::MulFOp::create(b, loc, in, acc))
                    : mlir::Value(mlir::arith::MulIOp::create(b, loc, in, acc));
              break;
            case Reduction::SumSquare:
            case Reduction::L2:
              in = f ? mlir::Value(mlir::arith::MulFOp::create(b, loc, in, in))
                     : mlir::Value(mlir::arith::MulIOp::create(b, loc, in, in));
              [[fallthrough]];
            case Reduction::L1:
              if (kind == Reduction::L1)
                in = f ? mlir::Value(mlir::math::AbsFOp::create(b, loc, in))
                       : mlir::Value(mlir::math::AbsIOp::create(b, loc, in));
              [[fallthrough]];
            default:
              r = f ? mlir::Value(mlir::arith::AddFOp::create(b, loc, in, acc))
                    : mlir::Value(mlir::arith::AddIOp::create(b, loc, in, acc));
            }
            mlir::linalg::YieldOp::create(b, loc, r);
          })
          .getResult(0);
  if (kind == Reduction::LogSum)
    r = elementwise(ctx, {r}, reducedType,
                    [](mlir::OpBuilder &b, mlir::Location loc,
                       mlir::ValueRange v, mlir::Type) -> mlir::Value {
                      return mlir::math::LogOp::create(b, loc, v[0]);
                    });
  if (kind == Reduction::Mean || kind == Reduction::L2) {
    // The count of a mean: the static sizes multiplied here, the dynamic
    // ones at run time.
    double count = 1;
    mlir::Value dynamicCount;
    for (int64_t d : axes) {
      if (!t.isDynamicDim(d)) {
        count *= double(t.getDimSize(d));
        continue;
      }
      mlir::Value n = ctx.dim(x, d);
      dynamicCount = dynamicCount ? mlir::arith::MulIOp::create(ctx.b, ctx.loc,
                                                                dynamicCount, n)
                                  : n;
    }
    if (kind == Reduction::Mean && dynamicCount)
      dynamicCount = mlir::arith::UIToFPOp::create(
          ctx.b, ctx.loc, element,
          mlir::arith::IndexCastUIOp::create(ctx.b, ctx.loc, ctx.b.getI64Type(),
                                             dynamicCount));
    r = elementwise(ctx, {r}, reducedType,
                    [=](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v, mlir::Type et) -> mlir::Value {
                      if (kind == Reduction::L2)
                        return mlir::math::SqrtOp::create(b, loc, v[0]);
                      mlir::Value divisor = floatConst(b, loc, et, count);
                      if (dynamicCount)
                        divisor = mlir::arith::MulFOp::create(
                            b, loc, dynamicCount, divisor);
                      return mlir::arith::DivFOp::create(b, loc, v[0], divisor);
                    });
  }
  if (!keep)
    return r;
  // Unit dims where the axes were: each joins the group of the kept dim
  // before it (those before the first kept dim, the first group).
  llvm::SmallVector<mlir::ReassociationIndices> groups;
  mlir::ReassociationIndices pending;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    if (axes.count(d)) {
      (groups.empty() ? pending : groups.back()).push_back(d);
      continue;
    }
    mlir::ReassociationIndices g = pending;
    pending.clear();
    g.push_back(d);
    groups.push_back(g);
  }
  if (shape.empty()) {
    llvm::SmallVector<mlir::ReassociationIndices> none;
    return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, out, r, none);
  }
  llvm::SmallVector<mlir::OpFoldResult> sizes;
  for (int64_t d = 0; d < out.getRank(); ++d)
    sizes.push_back(out.isDynamicDim(d)
                        ? mlir::OpFoldResult(ctx.dim(x, d))
                        : ctx.b.getIndexAttr(out.getDimSize(d)));
  return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, out, r, groups,
                                             sizes);
}

/// `x` with its dims in `axes` set to 1 (the type of a kept reduction).
mlir::RankedTensorType keptType(mlir::RankedTensorType x,
                                const std::set<int64_t> &axes) {
  llvm::SmallVector<int64_t> kept(x.getShape());
  for (int64_t d : axes)
    kept[d] = 1;
  return mlir::RankedTensorType::get(kept, x.getElementType());
}

/// ReduceLogSumExp as max + log(sum(exp(x - max))): no exp overflows.
mlir::Value logSumExp(NodeContext &ctx, mlir::Value x,
                      const std::set<int64_t> &axes, bool keep,
                      mlir::RankedTensorType out) {
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Value max =
      reduce(ctx, x, axes, true, Reduction::Max, keptType(t, axes));
  mlir::Value e = elementwise(
      ctx, {x, max}, t,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
         mlir::Type) -> mlir::Value {
        return mlir::math::ExpOp::create(
            b, loc, mlir::arith::SubFOp::create(b, loc, v[0], v[1]));
      });
  mlir::Value sum = reduce(ctx, e, axes, keep, Reduction::Sum, out);
  if (!keep)
    max = reduce(ctx, x, axes, false, Reduction::Max, out);
  return elementwise(ctx, {sum, max}, out,
                     [](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v, mlir::Type) -> mlir::Value {
                       return mlir::arith::AddFOp::create(
                           b, loc, mlir::math::LogOp::create(b, loc, v[0]),
                           v[1]);
                     });
}

/// The reductions; `logSumExp` for ReduceLogSumExp (`kind` unused).
template <Reduction kind, bool logSumExpOp = false>
mlir::LogicalResult reduceOp(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  bool floatsOnly = logSumExpOp || kind == Reduction::Mean ||
                    kind == Reduction::L2 || kind == Reduction::LogSum;
  if (floatsOnly && !isFloatType(out.getElementType()))
    return ctx.fail("takes floats here");
  int64_t rank = llvm::cast<mlir::RankedTensorType>(x.getType()).getRank();
  std::vector<std::int64_t> axes = ctx.intsAttr("axes");
  if (ctx.hasInput(1)) {
    auto given = ctx.constantInts(1);
    if (!given)
      return ctx.fail("takes constant axes");
    axes = *given;
  }
  std::set<int64_t> normalized;
  if (axes.empty() && !ctx.intAttr("noop_with_empty_axes", 0))
    for (int64_t d = 0; d < rank; ++d)
      normalized.insert(d);
  for (std::int64_t a : axes)
    normalized.insert(a < 0 ? a + rank : a);
  if (normalized.empty()) {
    ctx.setOutput(0, x);
    return mlir::success();
  }
  bool keep = ctx.intAttr("keepdims", 1) != 0;
  ctx.setOutput(0, logSumExpOp ? logSumExp(ctx, x, normalized, keep, out)
                               : reduce(ctx, x, normalized, keep, kind, out));
  return mlir::success();
}

mlir::LogicalResult softmax(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  int64_t axis = ctx.intAttr("axis", -1);
  if (axis < 0)
    axis += out.getRank();
  llvm::SmallVector<mlir::Value> dims;
  for (int64_t d = 0; d < out.getRank(); ++d)
    dims.push_back(out.isDynamicDim(d) ? ctx.dim(x, d) : mlir::Value());
  mlir::Value y =
      mlir::linalg::SoftmaxOp::create(ctx.b, ctx.loc, mlir::TypeRange{out}, x,
                                      ctx.empty(out, dims), uint64_t(axis))
          .getResult()[0];
  if (ctx.node().op_type() == "LogSoftmax")
    y = elementwise(ctx, {y}, out,
                    [](mlir::OpBuilder &b, mlir::Location loc,
                       mlir::ValueRange v, mlir::Type) -> mlir::Value {
                      return mlir::math::LogOp::create(b, loc, v[0]);
                    });
  ctx.setOutput(0, y);
  return mlir::success();
}

/// A per-channel parameter ([C]) as [C, 1, ..., 1], so that numpy
/// broadcasting puts it along dim 1 of an input of `rank`.
mlir::Value alongChannels(NodeContext &ctx, mlir::Value p, int64_t rank) {
  return alongAxis(ctx, p, rank - 1, 0);
}

/// BatchNormalization in inference: (x - mean) / sqrt(var + eps) * scale
/// + bias, per channel.
mlir::LogicalResult batchNorm(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  if (ctx.intAttr("training_mode", 0))
    return ctx.fail("training_mode=1 is not supported (export the model in "
                    "eval mode)");
  llvm::SmallVector<mlir::Value> inputs;
  for (int i = 0; i < 5; ++i) {
    mlir::Value v = ctx.input(i);
    if (!v)
      return mlir::failure();
    inputs.push_back(i ? alongChannels(ctx, v, out.getRank()) : v);
  }
  double epsilon = ctx.floatAttr("epsilon", 1e-5f);
  ctx.setOutput(
      0, elementwise(
             ctx, inputs, out,
             [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
                 mlir::Type t) -> mlir::Value {
               mlir::Value centered =
                   mlir::arith::SubFOp::create(b, loc, v[0], v[3]);
               mlir::Value denominator = mlir::math::SqrtOp::create(
                   b, loc,
                   mlir::arith::AddFOp::create(b, loc, v[4],
                                               floatConst(b, loc, t, epsilon)));
               mlir::Value normal =
                   mlir::arith::DivFOp::create(b, loc, centered, denominator);
               return mlir::arith::AddFOp::create(
                   b, loc, mlir::arith::MulFOp::create(b, loc, normal, v[1]),
                   v[2]);
             }));
  return mlir::success();
}

/// `x` normalized over `axes` (mean 0, variance 1, by two reductions),
/// times `scale` plus `bias` (null: none), both broadcast to `out` as
/// numpy does, in one elementwise pass. Null after an error. Where
/// `stats` is given it is set to the mean and the inverse standard
/// deviation, of the reduced dims kept as 1.
mlir::Value normalized(NodeContext &ctx, mlir::Value x,
                       const std::set<int64_t> &axes, mlir::Value scale,
                       mlir::Value bias, double epsilon,
                       mlir::RankedTensorType out,
                       std::pair<mlir::Value, mlir::Value> *stats = nullptr) {
  double count = 1;
  for (int64_t d : axes) {
    if (out.isDynamicDim(d)) {
      (void)ctx.fail("takes static sizes in the normalized dims (dim " +
                     llvm::Twine(d) + " is dynamic)");
      return nullptr;
    }
    count *= double(out.getDimSize(d));
  }
  mlir::RankedTensorType statType = keptType(out, axes);
  mlir::Value mean = reduce(ctx, x, axes, true, Reduction::Mean, statType);
  mlir::Value centered =
      elementwise(ctx, {x, mean}, out,
                  [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
                     mlir::Type) -> mlir::Value {
                    return mlir::arith::SubFOp::create(b, loc, v[0], v[1]);
                  });
  mlir::Value variance =
      reduce(ctx, centered, axes, true, Reduction::SumSquare, statType);
  if (stats)
    *stats = {
        mean,
        elementwise(ctx, {variance}, statType,
                    [=](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v, mlir::Type t) -> mlir::Value {
                      return mlir::math::RsqrtOp::create(
                          b, loc,
                          mlir::arith::AddFOp::create(
                              b, loc,
                              mlir::arith::DivFOp::create(
                                  b, loc, v[0], floatConst(b, loc, t, count)),
                              floatConst(b, loc, t, epsilon)));
                    })};
  llvm::SmallVector<mlir::Value> inputs = {centered, variance, scale};
  if (bias)
    inputs.push_back(bias);
  bool withBias = bool(bias);
  return elementwise(
      ctx, inputs, out,
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
          mlir::Type t) -> mlir::Value {
        mlir::Value var = mlir::arith::DivFOp::create(
            b, loc, v[1], floatConst(b, loc, t, count));
        mlir::Value inv = mlir::math::RsqrtOp::create(
            b, loc,
            mlir::arith::AddFOp::create(b, loc, var,
                                        floatConst(b, loc, t, epsilon)));
        mlir::Value y = mlir::arith::MulFOp::create(
            b, loc, mlir::arith::MulFOp::create(b, loc, v[0], inv), v[2]);
        if (withBias)
          y = mlir::arith::AddFOp::create(b, loc, y, v[3]);
        return y;
      });
}

/// Input 0 and the output type of a node that takes floats; a null input
/// after an error.
std::pair<mlir::Value, mlir::RankedTensorType> floatOperand(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return {nullptr, nullptr};
  if (!isFloatType(out.getElementType()))
    return (void)ctx.fail("takes floats here"),
           std::pair<mlir::Value, mlir::RankedTensorType>{};
  return {x, out};
}

/// LpNormalization: x divided by its L1 or L2 norm along `axis`.
mlir::LogicalResult lpNormalization(NodeContext &ctx) {
  auto [x, out] = floatOperand(ctx);
  if (!x)
    return mlir::failure();
  int64_t p = ctx.intAttr("p", 2), axis = ctx.intAttr("axis", -1);
  if (p != 1 && p != 2)
    return ctx.fail("p must be 1 or 2, not " + llvm::Twine(p));
  if (axis < 0)
    axis += out.getRank();
  if (axis < 0 || axis >= out.getRank())
    return ctx.fail("axis " + llvm::Twine(ctx.intAttr("axis", -1)) +
                    " is out of range");
  std::set<int64_t> axes = {axis};
  mlir::Value norm =
      reduce(ctx, x, axes, true, p == 1 ? Reduction::L1 : Reduction::L2,
             keptType(out, axes));
  ctx.setOutput(
      0, elementwise(ctx, {x, norm}, out,
                     [](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v, mlir::Type) -> mlir::Value {
                       return mlir::arith::DivFOp::create(b, loc, v[0], v[1]);
                     }));
  return mlir::success();
}

/// MeanVarianceNormalization as ONNX defines it: (x - E[x]) /
/// (sqrt(E[x^2] - E[x]^2) + 1e-9) over `axes` (default 0, 2, 3).
mlir::LogicalResult meanVarianceNormalization(NodeContext &ctx) {
  auto [x, out] = floatOperand(ctx);
  if (!x)
    return mlir::failure();
  std::set<int64_t> axes;
  for (int64_t a : ctx.intsAttr("axes", {0, 2, 3})) {
    int64_t d = a < 0 ? a + out.getRank() : a;
    if (d < 0 || d >= out.getRank())
      return ctx.fail("axis " + llvm::Twine(a) + " is out of range");
    axes.insert(d);
  }
  mlir::RankedTensorType statType = keptType(out, axes);
  mlir::Value mean = reduce(ctx, x, axes, true, Reduction::Mean, statType);
  mlir::Value squared =
      elementwise(ctx, {x}, out,
                  [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
                     mlir::Type) -> mlir::Value {
                    return mlir::arith::MulFOp::create(b, loc, v[0], v[0]);
                  });
  mlir::Value meanSquare =
      reduce(ctx, squared, axes, true, Reduction::Mean, statType);
  ctx.setOutput(
      0, elementwise(ctx, {x, mean, meanSquare}, out,
                     [](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v, mlir::Type t) -> mlir::Value {
                       mlir::Value variance = mlir::arith::SubFOp::create(
                           b, loc, v[2],
                           mlir::arith::MulFOp::create(b, loc, v[1], v[1]));
                       mlir::Value deviation = mlir::arith::AddFOp::create(
                           b, loc, mlir::math::SqrtOp::create(b, loc, variance),
                           floatConst(b, loc, t, 1e-9));
                       return mlir::arith::DivFOp::create(
                           b, loc,
                           mlir::arith::SubFOp::create(b, loc, v[0], v[1]),
                           deviation);
                     }));
  return mlir::success();
}

/// LRN: x / (bias + alpha / size * (sum of x^2 over `size` neighbouring
/// channels))^beta, the window from c - (size - 1) / 2 to c + size / 2.
mlir::LogicalResult lrn(NodeContext &ctx) {
  auto [x, out] = floatOperand(ctx);
  if (!x)
    return mlir::failure();
  if (out.getRank() < 3)
    return ctx.fail("takes N x C x ... images");
  int64_t size = ctx.intAttr("size", 0);
  if (size < 1)
    return ctx.fail("size must be at least 1");
  double alpha = ctx.floatAttr("alpha", 1e-4f),
         beta = ctx.floatAttr("beta", 0.75f);
  double bias = ctx.floatAttr("bias", 1.0f);
  int64_t rank = out.getRank();
  mlir::Type element = out.getElementType();
  // The squares, padded with zeros along the channels.
  mlir::Value squared =
      elementwise(ctx, {x}, out,
                  [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
                     mlir::Type) -> mlir::Value {
                    return mlir::arith::MulFOp::create(b, loc, v[0], v[0]);
                  });
  llvm::SmallVector<mlir::OpFoldResult> low(rank, ctx.b.getIndexAttr(0)),
      high(rank, ctx.b.getIndexAttr(0));
  low[1] = ctx.b.getIndexAttr((size - 1) / 2);
  high[1] = ctx.b.getIndexAttr(size / 2);
  llvm::SmallVector<int64_t> paddedShape(out.getShape());
  if (!out.isDynamicDim(1))
    paddedShape[1] += size - 1;
  mlir::Value padded = mlir::tensor::PadOp::create(
      ctx.b, ctx.loc, mlir::RankedTensorType::get(paddedShape, element),
      squared, low, high, ctx.scalar(element, 0));
  // Summed over the window: a reduction loop of `size` steps, its extent
  // given by an (unread) tensor of that size.
  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<mlir::AffineExpr> in, id;
  for (int64_t d = 0; d < rank; ++d) {
    id.push_back(mlir::getAffineDimExpr(d, mctx));
    in.push_back(d == 1 ? mlir::getAffineDimExpr(1, mctx) +
                              mlir::getAffineDimExpr(rank, mctx)
                        : mlir::getAffineDimExpr(d, mctx));
  }
  llvm::SmallVector<mlir::AffineMap> maps = {
      mlir::AffineMap::get(rank + 1, 0, in, mctx),
      mlir::AffineMap::get(rank + 1, 0, {mlir::getAffineDimExpr(rank, mctx)},
                           mctx),
      mlir::AffineMap::get(rank + 1, 0, id, mctx)};
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      rank, mlir::utils::IteratorType::parallel);
  iterators.push_back(mlir::utils::IteratorType::reduction);
  llvm::SmallVector<mlir::Value> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(out.isDynamicDim(d) ? ctx.dim(x, d) : mlir::Value());
  mlir::Value window = ctx.empty(mlir::RankedTensorType::get({size}, element));
  mlir::Value sums =
      mlir::linalg::GenericOp::create(
          ctx.b, ctx.loc, mlir::TypeRange{out},
          mlir::ValueRange{padded, window},
          mlir::ValueRange{ctx.filled(out, ctx.scalar(element, 0), dims)}, maps,
          iterators,
          [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
            mlir::Value sum = mlir::arith::AddFOp::create(b, loc, v[0], v[2]);
            mlir::linalg::YieldOp::create(b, loc, sum);
          })
          .getResult(0);
  ctx.setOutput(
      0,
      elementwise(ctx, {x, sums}, out,
                  [=](mlir::OpBuilder &b, mlir::Location loc,
                      mlir::ValueRange v, mlir::Type t) -> mlir::Value {
                    mlir::Value base = mlir::arith::AddFOp::create(
                        b, loc, floatConst(b, loc, t, bias),
                        mlir::arith::MulFOp::create(
                            b, loc, floatConst(b, loc, t, alpha / size), v[1]));
                    return mlir::arith::DivFOp::create(
                        b, loc, v[0],
                        mlir::math::PowFOp::create(
                            b, loc, base, floatConst(b, loc, t, beta)));
                  }));
  return mlir::success();
}

/// LayerNormalization over the dims from `axis` on.
mlir::LogicalResult layerNorm(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), scale = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !scale || !out)
    return mlir::failure();
  // Mean and InvStdDev, where asked for, in the input's type.
  bool withStats = false;
  for (int i = 1; i < ctx.numOutputs(); ++i) {
    if (ctx.node().output(i).empty())
      continue;
    mlir::RankedTensorType t = ctx.outputType(i);
    if (!t)
      return mlir::failure();
    if (t.getElementType() != out.getElementType())
      return ctx.fail("its Mean and InvStdDev in " +
                      typeText(t.getElementType()) +
                      " (stash_type) differ "
                      "from its input's type " +
                      typeText(out.getElementType()));
    withStats = true;
  }
  int64_t rank = out.getRank();
  int64_t axis = ctx.intAttr("axis", -1);
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  if (xType.getRank() != rank || rank == 0)
    return ctx.fail("takes an input of rank 1 or more, as its output's");
  if (!isFloatType(out.getElementType()))
    return ctx.fail("takes floats, not " + typeText(out.getElementType()));
  std::optional<int64_t> first = axisOf(ctx, axis, rank);
  if (!first)
    return mlir::failure();
  axis = *first;
  std::set<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.insert(d);
  mlir::Value bias;
  if (ctx.hasInput(2) && !(bias = ctx.input(2)))
    return mlir::failure();
  std::pair<mlir::Value, mlir::Value> stats;
  mlir::Value y =
      normalized(ctx, x, axes, scale, bias, ctx.floatAttr("epsilon", 1e-5f),
                 out, withStats ? &stats : nullptr);
  if (!y)
    return mlir::failure();
  ctx.setOutput(0, y);
  for (int i = 1; i < ctx.numOutputs() && i < 3; ++i)
    if (!ctx.node().output(i).empty())
      ctx.setOutput(i, ctx.castedTo(ctx.b, i == 1 ? stats.first : stats.second,
                                    ctx.outputType(i),
                                    i == 1 ? "the mean"
                                           : "the inverse "
                                             "standard deviation"));
  return mlir::success();
}

/// InstanceNormalization: each channel of each item normalized over its
/// spatial dims, then scaled and shifted per channel.
mlir::LogicalResult instanceNorm(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), scale = ctx.input(1), bias = ctx.input(2);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !scale || !bias || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  if (rank < 3)
    return ctx.fail("takes an input of rank 3 or more (N, C, D1, ...)");
  std::set<int64_t> axes;
  for (int64_t d = 2; d < rank; ++d)
    axes.insert(d);
  mlir::Value y = normalized(ctx, x, axes, alongChannels(ctx, scale, rank),
                             alongChannels(ctx, bias, rank),
                             ctx.floatAttr("epsilon", 1e-5f), out);
  if (!y)
    return mlir::failure();
  ctx.setOutput(0, y);
  return mlir::success();
}

} // namespace

std::vector<OpConverter> normalizationConverters() {
  return {
      {"Softmax", softmax},
      {"LogSoftmax", softmax},
      {"BatchNormalization", batchNorm},
      {"LayerNormalization", layerNorm},
      {"InstanceNormalization", instanceNorm},
      {"ReduceSum", reduceOp<Reduction::Sum>, {1}},
      {"ReduceMean", reduceOp<Reduction::Mean>, {1}},
      {"ReduceMax", reduceOp<Reduction::Max>, {1}},
      {"ReduceMin", reduceOp<Reduction::Min>, {1}},
      {"ReduceProd", reduceOp<Reduction::Prod>, {1}},
      {"ReduceSumSquare", reduceOp<Reduction::SumSquare>, {1}},
      {"ReduceL2", reduceOp<Reduction::L2>, {1}},
      {"ReduceL1", reduceOp<Reduction::L1>, {1}},
      {"LpNormalization", lpNormalization},
      {"MeanVarianceNormalization", meanVarianceNormalization},
      {"LRN", lrn},
      {"ReduceLogSum", reduceOp<Reduction::LogSum>, {1}},
      {"ReduceLogSumExp", reduceOp<Reduction::Sum, true>, {1}},
  };
}

} // namespace aot::onnx_import
