//===- OnnxIndexing.cpp - ops that read or write by computed positions ----===//
//
// Tile, Trilu, CumSum, ArgMax/ArgMin, Hardmax, GatherElements, GatherND,
// OneHot, EyeLike and ReverseSequence.
// Each is one linalg.generic whose body computes where it reads
// (tensor.extract at indices from linalg.index). Also the helpers the
// scatter and selection converters share (OnnxIndexing.h).
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxIndexing.h"
#include "Frontend/Onnx/OnnxElementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aot::onnx_import {

mlir::Value indexConst(mlir::OpBuilder &b, mlir::Location loc, int64_t v) {
  return mlir::arith::ConstantIndexOp::create(b, loc, v);
}

llvm::SmallVector<mlir::Value>
dynamicDimsOf(NodeContext &ctx, mlir::RankedTensorType out, mlir::Value like) {
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  for (int64_t d = 0; d < out.getRank(); ++d)
    if (out.isDynamicDim(d))
      dims[d] = ctx.dim(like, d);
  return dims;
}

mlir::Value scalarOperand(NodeContext &ctx, int i, mlir::Type to,
                          llvm::StringRef what) {
  if (!ctx.hasInput(i)) {
    (void)ctx.fail("needs its input " + what);
    return nullptr;
  }
  // Constants as constants: the inputs a converter reads only as
  // constants may have no value when they are known.
  if (auto ints = ctx.constantInts(i); ints && ints->size() == 1) {
    if (to.isIndex())
      return indexConst(ctx.b, ctx.loc, (*ints)[0]);
    return ctx.scalar(to, static_cast<double>((*ints)[0]));
  }
  if (isFloatType(to))
    if (auto floats = ctx.constantFloats(i); floats && floats->size() == 1)
      return ctx.scalar(to, (*floats)[0]);
  mlir::Value v = ctx.input(i);
  if (!v)
    return nullptr;
  auto type = llvm::cast<mlir::RankedTensorType>(v.getType());
  if (!type.hasStaticShape() || type.getNumElements() != 1) {
    (void)ctx.fail(what + " is not a scalar: " + typeText(type));
    return nullptr;
  }
  llvm::SmallVector<mlir::Value> at(type.getRank(),
                                    indexConst(ctx.b, ctx.loc, 0));
  mlir::Value e = mlir::tensor::ExtractOp::create(ctx.b, ctx.loc, v, at);
  mlir::Type from = e.getType();
  if (!from.isIntOrFloat() || from.isInteger(1)) {
    (void)ctx.fail(what + " is not a number: " + typeText(type));
    return nullptr;
  }
  if (to.isIndex()) {
    if (isFloatType(from)) {
      (void)ctx.fail(what + " is not an integer: " + typeText(type));
      return nullptr;
    }
    return mlir::arith::IndexCastOp::create(ctx.b, ctx.loc, to, e);
  }
  return convertScalar(ctx.b, ctx.loc, e, to);
}

llvm::SmallVector<mlir::utils::IteratorType> parallelIterators(int64_t n) {
  return llvm::SmallVector<mlir::utils::IteratorType>(
      n, mlir::utils::IteratorType::parallel);
}

std::optional<int64_t> axisOf(NodeContext &ctx, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    (void)ctx.fail("axis " + llvm::Twine(axis) + " is out of range for rank " +
                   llvm::Twine(rank));
    return std::nullopt;
  }
  return axis < 0 ? axis + rank : axis;
}

static llvm::SmallVector<mlir::Value>
nestLoops(mlir::OpBuilder &b, mlir::Location loc,
          llvm::ArrayRef<mlir::Value> sizes, mlir::ValueRange acc,
          PositionBody body, llvm::SmallVectorImpl<mlir::Value> &position) {
  if (position.size() == sizes.size())
    return body(b, loc, position, acc);
  auto loop = mlir::scf::ForOp::create(b, loc, indexConst(b, loc, 0),
                                       sizes[position.size()],
                                       indexConst(b, loc, 1), acc);
  mlir::OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  position.push_back(loop.getInductionVar());
  llvm::SmallVector<mlir::Value> next =
      nestLoops(b, loc, sizes, loop.getRegionIterArgs(), body, position);
  position.pop_back();
  mlir::scf::YieldOp::create(b, loc, next);
  return llvm::SmallVector<mlir::Value>(loop.getResults());
}

llvm::SmallVector<mlir::Value>
forEachPosition(mlir::OpBuilder &b, mlir::Location loc,
                llvm::ArrayRef<mlir::Value> sizes, mlir::ValueRange acc,
                PositionBody body) {
  llvm::SmallVector<mlir::Value> position;
  return nestLoops(b, loc, sizes, acc, body, position);
}

namespace {

/// Tile: output index i reads input index i mod the input's size, per dim.
mlir::LogicalResult tile(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  auto repeats = ctx.constantInts(1);
  if (!repeats || int64_t(repeats->size()) != rank)
    return ctx.fail("takes constant repeats, one per dim");
  if (llvm::any_of(*repeats, [](int64_t r) { return r < 0; }))
    return ctx.fail("takes no negative repeats");
  llvm::SmallVector<mlir::Value> sizes, dims(rank);
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(ctx.dim(x, d));
    if (out.isDynamicDim(d))
      dims[d] = mlir::arith::MulIOp::create(
          ctx.b, ctx.loc, sizes[d], indexConst(ctx.b, ctx.loc, (*repeats)[d]));
  }
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(out, dims)},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::getMultiDimIdentityMap(rank, ctx.b.getContext())},
      parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange) {
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(mlir::arith::RemUIOp::create(
              b, loc, mlir::linalg::IndexOp::create(b, loc, d), sizes[d]));
        mlir::linalg::YieldOp::create(
            b, loc, mlir::tensor::ExtractOp::create(b, loc, x, at).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// Trilu: the upper (or lower) triangle of the last two dims from diagonal
/// k on, zeros elsewhere.
mlir::LogicalResult trilu(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  if (rank < 2)
    return ctx.fail("takes a tensor of rank 2 or more");
  bool upper = ctx.intAttr("upper", 1) != 0;
  // k: a constant, or read at run time from its one-element tensor.
  mlir::Value k = ctx.hasInput(1)
                      ? scalarOperand(ctx, 1, ctx.b.getIndexType(), "k")
                      : indexConst(ctx.b, ctx.loc, 0);
  if (!k)
    return mlir::failure();
  mlir::MLIRContext *mctx = ctx.b.getContext();
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, mctx);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{x},
      mlir::ValueRange{ctx.empty(out, dynamicDimsOf(ctx, out, x))},
      llvm::SmallVector<mlir::AffineMap>{identity, identity},
      parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value i = mlir::linalg::IndexOp::create(b, loc, rank - 2);
        mlir::Value j = mlir::linalg::IndexOp::create(b, loc, rank - 1);
        mlir::Value diagonal = mlir::arith::SubIOp::create(b, loc, j, i);
        mlir::Value keep =
            mlir::arith::CmpIOp::create(b, loc,
                                        upper ? mlir::arith::CmpIPredicate::sge
                                              : mlir::arith::CmpIPredicate::sle,
                                        diagonal, k);
        mlir::Type t = out.getElementType();
        mlir::Value zero =
            mlir::arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t));
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::arith::SelectOp::create(b, loc, keep, v[0], zero)
                .getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// CumSum along a constant axis: each output element sums the inputs up
/// to it (before it when exclusive; from the end when reverse), as a
/// reduction over a second index along the axis. Quadratic in the axis
/// length, which positions and masks keep short.
mlir::LogicalResult cumSum(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  auto given = ctx.constantInts(1);
  if (!given || given->size() != 1)
    return ctx.fail("takes a constant axis");
  auto axis = axisOf(ctx, (*given)[0], rank);
  if (!axis)
    return mlir::failure();
  bool exclusive = ctx.intAttr("exclusive", 0) != 0;
  bool reverse = ctx.intAttr("reverse", 0) != 0;
  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<mlir::AffineExpr> read, write;
  for (int64_t d = 0; d < rank; ++d) {
    read.push_back(mlir::getAffineDimExpr(d == *axis ? rank : d, mctx));
    write.push_back(mlir::getAffineDimExpr(d, mctx));
  }
  auto iterators = parallelIterators(rank);
  iterators.push_back(mlir::utils::IteratorType::reduction);
  mlir::Type t = out.getElementType();
  mlir::Value init =
      ctx.filled(out, ctx.scalar(t, 0), dynamicDimsOf(ctx, out, x));
  auto predicate = reverse ? (exclusive ? mlir::arith::CmpIPredicate::ugt
                                        : mlir::arith::CmpIPredicate::uge)
                           : (exclusive ? mlir::arith::CmpIPredicate::ult
                                        : mlir::arith::CmpIPredicate::ule);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{x},
      mlir::ValueRange{init},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::get(rank + 1, 0, read, mctx),
          mlir::AffineMap::get(rank + 1, 0, write, mctx)},
      iterators,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value at = mlir::linalg::IndexOp::create(b, loc, *axis);
        mlir::Value from = mlir::linalg::IndexOp::create(b, loc, rank);
        mlir::Value counted =
            mlir::arith::CmpIOp::create(b, loc, predicate, from, at);
        mlir::Value zero =
            mlir::arith::ConstantOp::create(b, loc, t, b.getZeroAttr(t));
        mlir::Value term =
            mlir::arith::SelectOp::create(b, loc, counted, v[0], zero);
        mlir::Value sum =
            isFloatType(t)
                ? mlir::Value(mlir::arith::AddFOp::create(b, loc, v[1], term))
                : mlir::Value(mlir::arith::AddIOp::create(b, loc, v[1], term));
        mlir::linalg::YieldOp::create(b, loc, sum);
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// The index along `axis` of the extreme value of `x` (the first, or the
/// last where `last`), as `out` (the index type, the axis dropped or kept
/// as 1 where `keep`); NaN is never chosen. Null after an error.
mlir::Value extremeIndex(NodeContext &ctx, mlir::Value x, int64_t axis,
                         bool keep, bool isMax, bool last,
                         mlir::RankedTensorType out) {
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  mlir::Type element = xType.getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1))
    return (void)ctx.fail("takes a float or integer tensor"), nullptr;
  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<mlir::AffineExpr> write;
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  for (int64_t d = 0; d < rank; ++d) {
    if (d == axis) {
      if (keep)
        write.push_back(mlir::getAffineConstantExpr(0, mctx));
      continue;
    }
    int64_t o = int64_t(write.size());
    write.push_back(mlir::getAffineDimExpr(d, mctx));
    if (out.isDynamicDim(o))
      dims[o] = ctx.dim(x, d);
  }
  // The extreme so far starts at the far end of the element type.
  mlir::Value start;
  if (auto f = llvm::dyn_cast<mlir::FloatType>(element)) {
    llvm::APFloat inf = llvm::APFloat::getInf(f.getFloatSemantics(), isMax);
    start = mlir::arith::ConstantOp::create(ctx.b, ctx.loc, element,
                                            ctx.b.getFloatAttr(element, inf));
  } else {
    unsigned width = element.getIntOrFloatBitWidth();
    llvm::APInt v = isMax ? llvm::APInt::getSignedMinValue(width)
                          : llvm::APInt::getSignedMaxValue(width);
    start = mlir::arith::ConstantOp::create(ctx.b, ctx.loc, element,
                                            ctx.b.getIntegerAttr(element, v));
  }
  auto valueType = mlir::RankedTensorType::get(out.getShape(), element);
  mlir::Value best = ctx.filled(valueType, start, dims);
  mlir::Value index =
      ctx.filled(out, ctx.scalar(out.getElementType(), 0), dims);
  llvm::SmallVector<mlir::utils::IteratorType> iterators =
      parallelIterators(rank);
  iterators[axis] = mlir::utils::IteratorType::reduction;
  auto writeMap = mlir::AffineMap::get(rank, 0, write, mctx);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{valueType, out}, mlir::ValueRange{x},
      mlir::ValueRange{best, index},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::getMultiDimIdentityMap(rank, mctx), writeMap,
          writeMap},
      iterators,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value better;
        if (isFloatType(element))
          better = mlir::arith::CmpFOp::create(
              b, loc,
              isMax ? (last ? mlir::arith::CmpFPredicate::OGE
                            : mlir::arith::CmpFPredicate::OGT)
                    : (last ? mlir::arith::CmpFPredicate::OLE
                            : mlir::arith::CmpFPredicate::OLT),
              v[0], v[1]);
        else
          better = mlir::arith::CmpIOp::create(
              b, loc,
              isMax ? (last ? mlir::arith::CmpIPredicate::sge
                            : mlir::arith::CmpIPredicate::sgt)
                    : (last ? mlir::arith::CmpIPredicate::sle
                            : mlir::arith::CmpIPredicate::slt),
              v[0], v[1]);
        mlir::Value i = mlir::arith::IndexCastOp::create(
            b, loc, out.getElementType(),
            mlir::linalg::IndexOp::create(b, loc, axis));
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::ValueRange{
                mlir::arith::SelectOp::create(b, loc, better, v[0], v[1]),
                mlir::arith::SelectOp::create(b, loc, better, i, v[2])});
      });
  return generic.getResult(1);
}

/// ArgMax / ArgMin along `axis`: the first index of the extreme value (the
/// last with select_last_index), as int64.
template <bool isMax> mlir::LogicalResult argExtreme(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto axis = axisOf(ctx, ctx.intAttr("axis", 0),
                     llvm::cast<mlir::RankedTensorType>(x.getType()).getRank());
  if (!axis)
    return mlir::failure();
  ctx.setOutput(0, extremeIndex(ctx, x, *axis, ctx.intAttr("keepdims", 1) != 0,
                                isMax, ctx.intAttr("select_last_index", 0) != 0,
                                out));
  return mlir::success();
}

/// Hardmax: one where the first largest element along `axis` is, zero
/// elsewhere.
mlir::LogicalResult hardmax(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  auto axis = axisOf(ctx, ctx.intAttr("axis", -1), rank);
  if (!axis)
    return mlir::failure();
  if (rank == 0)
    return ctx.fail("takes a tensor of rank 1 or more");
  llvm::SmallVector<int64_t> shape(out.getShape());
  shape[*axis] = 1;
  mlir::Value where =
      extremeIndex(ctx, x, *axis, true, true, false,
                   mlir::RankedTensorType::get(shape, ctx.b.getI64Type()));
  if (!where)
    return mlir::failure();
  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<mlir::AffineExpr> read;
  for (int64_t d = 0; d < rank; ++d)
    read.push_back(d == *axis ? mlir::getAffineConstantExpr(0, mctx)
                              : mlir::getAffineDimExpr(d, mctx));
  mlir::Type t = out.getElementType();
  mlir::Value one = ctx.scalar(t, 1), zero = ctx.scalar(t, 0);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{where},
      mlir::ValueRange{ctx.empty(out, dynamicDimsOf(ctx, out, x))},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::get(rank, 0, read, mctx),
          mlir::AffineMap::getMultiDimIdentityMap(rank, mctx)},
      parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value here = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::eq, v[0],
            mlir::arith::IndexCastOp::create(
                b, loc, b.getI64Type(),
                mlir::linalg::IndexOp::create(b, loc, *axis)));
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::arith::SelectOp::create(b, loc, here, one, zero).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// EyeLike: ones on diagonal k of a matrix shaped like the input, zeros
/// elsewhere, of the type `dtype` gives (the input's where absent).
mlir::LogicalResult eyeLike(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  if (out.getRank() != 2)
    return ctx.fail("takes a matrix");
  int64_t k = ctx.intAttr("k", 0);
  mlir::Type t = out.getElementType();
  mlir::Value one = ctx.scalar(t, 1), zero = ctx.scalar(t, 0);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(out, dynamicDimsOf(ctx, out, x))},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::getMultiDimIdentityMap(2, ctx.b.getContext())},
      parallelIterators(2),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange) {
        mlir::Value diagonal = mlir::arith::SubIOp::create(
            b, loc, mlir::linalg::IndexOp::create(b, loc, 1),
            mlir::linalg::IndexOp::create(b, loc, 0));
        mlir::Value on =
            mlir::arith::CmpIOp::create(b, loc, mlir::arith::CmpIPredicate::eq,
                                        diagonal, indexConst(b, loc, k));
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::arith::SelectOp::create(b, loc, on, one, zero).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// ReverseSequence: along time_axis, the first sequence_lens[i] elements of
/// batch entry i reversed, the rest as they are.
mlir::LogicalResult reverseSequence(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), lens = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !lens || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  if (rank < 2)
    return ctx.fail("takes a tensor of rank 2 or more");
  int64_t time = ctx.intAttr("time_axis", 0);
  int64_t batch = ctx.intAttr("batch_axis", 1);
  if (!((time == 0 && batch == 1) || (time == 1 && batch == 0)))
    return ctx.fail("takes time_axis and batch_axis 0 and 1, in either order");
  auto lensType = llvm::cast<mlir::RankedTensorType>(lens.getType());
  if (lensType.getRank() != 1 || !lensType.getElementType().isInteger(64))
    return ctx.fail("takes 1-D int64 sequence_lens");
  mlir::MLIRContext *mctx = ctx.b.getContext();
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, mctx);
  mlir::Value steps = ctx.dim(x, time);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{lens},
      mlir::ValueRange{ctx.empty(out, dynamicDimsOf(ctx, out, x))},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::get(rank, 0, {mlir::getAffineDimExpr(batch, mctx)},
                               mctx),
          identity},
      parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(mlir::linalg::IndexOp::create(b, loc, d));
        // A length beyond the axis reverses the whole axis.
        mlir::Value n = mlir::arith::MinSIOp::create(
            b, loc,
            mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), v[0]),
            steps);
        mlir::Value inside = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::slt, at[time], n);
        mlir::Value mirrored = mlir::arith::SubIOp::create(
            b, loc,
            mlir::arith::SubIOp::create(b, loc, n, indexConst(b, loc, 1)),
            at[time]);
        at[time] =
            mlir::arith::SelectOp::create(b, loc, inside, mirrored, at[time]);
        mlir::linalg::YieldOp::create(
            b, loc, mlir::tensor::ExtractOp::create(b, loc, x, at).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// GatherElements: each output element reads the data where its position
/// is, but for the axis, where its indices element says.
mlir::LogicalResult gatherElements(NodeContext &ctx) {
  mlir::Value data = ctx.input(0), indices = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!data || !indices || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  auto axis = axisOf(ctx, ctx.intAttr("axis", 0), rank);
  if (!axis)
    return mlir::failure();
  mlir::Value size = ctx.dim(data, *axis);
  auto identity =
      mlir::AffineMap::getMultiDimIdentityMap(rank, ctx.b.getContext());
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{indices},
      mlir::ValueRange{ctx.empty(out, dynamicDimsOf(ctx, out, indices))},
      llvm::SmallVector<mlir::AffineMap>{identity, identity},
      parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(d == *axis ? wrappedIndex(b, loc, v[0], size)
                                  : mlir::Value(mlir::linalg::IndexOp::create(
                                        b, loc, d)));
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::tensor::ExtractOp::create(b, loc, data, at).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// GatherND: output index (i..., j...) reads the data at the batch dims'
/// i, then the k indices of the tuple indices[i...], then j; the tuples
/// are the last dim of the indices (k, static), the first batch_dims dims
/// of data and indices walked together.
mlir::LogicalResult gatherNd(NodeContext &ctx) {
  mlir::Value data = ctx.input(0), indices = ctx.input(1);
  mlir::RankedTensorType dataType = ctx.inputType(0),
                         indicesType = ctx.inputType(1);
  if (!data || !indices || !dataType || !indicesType)
    return mlir::failure();
  const int64_t r = dataType.getRank(), q = indicesType.getRank();
  const int64_t batch = ctx.intAttr("batch_dims", 0);
  if (q < 1 || indicesType.isDynamicDim(q - 1))
    return ctx.fail("takes indices whose last dim (the length of each "
                    "index tuple) is static");
  const int64_t k = indicesType.getDimSize(q - 1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  if (batch < 0 || batch >= std::min(q, r) || k < 1 || batch + k > r)
    return ctx.fail("batch_dims " + llvm::Twine(batch) +
                    " and index tuples "
                    "of " +
                    llvm::Twine(k) + " do not fit data of rank " +
                    llvm::Twine(r) + " and indices of rank " + llvm::Twine(q));
  if (out.getRank() != q - 1 + r - batch - k)
    return ctx.fail("its output's rank is not that of its inputs");
  // Dynamic output dims: those of the indices, then the data's last ones.
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  for (int64_t d = 0; d < out.getRank(); ++d)
    if (out.isDynamicDim(d))
      dims[d] = d < q - 1 ? ctx.dim(indices, d)
                          : ctx.dim(data, batch + k + (d - (q - 1)));
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t t = 0; t < k; ++t)
    sizes.push_back(ctx.dim(data, batch + t));
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(out, dims)},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::getMultiDimIdentityMap(out.getRank(),
                                                  ctx.b.getContext())},
      parallelIterators(out.getRank()),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange) {
        llvm::SmallVector<mlir::Value> position, at;
        for (int64_t d = 0; d < q - 1; ++d)
          position.push_back(mlir::linalg::IndexOp::create(b, loc, d));
        // The batch dims, then the tuple, then the rest of the output's.
        at.assign(position.begin(), position.begin() + batch);
        for (int64_t t = 0; t < k; ++t) {
          llvm::SmallVector<mlir::Value> element(position);
          element.push_back(indexConst(b, loc, t));
          mlir::Value i =
              mlir::tensor::ExtractOp::create(b, loc, indices, element);
          at.push_back(wrappedIndex(b, loc, i, sizes[t]));
        }
        for (int64_t d = q - 1; d < out.getRank(); ++d)
          at.push_back(mlir::linalg::IndexOp::create(b, loc, d));
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::tensor::ExtractOp::create(b, loc, data, at).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// OneHot: a new dim of `depth` (a constant) at `axis`; element j along it
/// is on_value where the index there (negative ones counted from depth) is
/// j, else off_value (values = [off, on]).
mlir::LogicalResult oneHot(NodeContext &ctx) {
  mlir::Value indices = ctx.input(0), values = ctx.input(2);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!indices || !values || !out)
    return mlir::failure();
  auto depth = ctx.constantFloats(1);
  if (!depth || depth->size() != 1)
    return ctx.fail("takes a constant depth (one value)");
  const int64_t rank = out.getRank();
  auto axis = axisOf(ctx, ctx.intAttr("axis", -1), rank);
  if (!axis)
    return mlir::failure();
  const int64_t n = int64_t(std::floor((*depth)[0]));
  if (n < 1 || (!out.isDynamicDim(*axis) && out.getDimSize(*axis) != n))
    return ctx.fail("its depth " + llvm::Twine(n) +
                    " is not its output's dim along the axis");
  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<mlir::AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      exprs.push_back(mlir::getAffineDimExpr(d, mctx));
  auto read = mlir::AffineMap::get(rank, 0, exprs, mctx);
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, mctx);
  llvm::SmallVector<mlir::Value> dims(rank);
  for (int64_t d = 0, i = 0; d < rank; ++d) {
    if (d == *axis)
      continue;
    if (out.isDynamicDim(d))
      dims[d] = ctx.dim(indices, i);
    ++i;
  }
  mlir::Value off = mlir::tensor::ExtractOp::create(
      ctx.b, ctx.loc, values, mlir::ValueRange{indexConst(ctx.b, ctx.loc, 0)});
  mlir::Value on = mlir::tensor::ExtractOp::create(
      ctx.b, ctx.loc, values, mlir::ValueRange{indexConst(ctx.b, ctx.loc, 1)});
  if (off.getType() != out.getElementType())
    return ctx.fail("its values are not of its output's type");
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{indices},
      mlir::ValueRange{ctx.empty(out, dims)},
      llvm::SmallVector<mlir::AffineMap>{read, identity},
      parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value index = v[0];
        // Float indices count whole values, as ONNX's casts do.
        if (isFloatType(index.getType()))
          index = mlir::arith::FPToSIOp::create(b, loc, b.getI64Type(), index);
        mlir::Value i = wrappedIndex(b, loc, index, indexConst(b, loc, n));
        mlir::Value here = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::eq, i,
            mlir::linalg::IndexOp::create(b, loc, *axis));
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::arith::SelectOp::create(b, loc, here, on, off).getResult());
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> indexingConverters() {
  return {
      {"Tile", tile, {1}},
      {"Trilu", trilu, {1}},
      {"CumSum", cumSum, {1}},
      {"ArgMax", argExtreme<true>},
      {"ArgMin", argExtreme<false>},
      {"GatherElements", gatherElements},
      {"GatherND", gatherNd},
      {"OneHot", oneHot, {1}},
      {"Hardmax", hardmax},
      {"EyeLike", eyeLike},
      {"ReverseSequence", reverseSequence},
  };
}

} // namespace aot::onnx_import
