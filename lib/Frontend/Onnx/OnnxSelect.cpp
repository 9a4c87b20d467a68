//===- OnnxSelect.cpp - TopK, NonZero, Compress: elements chosen by value -===//
//
// TopK is k passes over each row: pass j takes the best element that comes
// after pass j-1's in the order (value, then index), so nothing is sorted
// or marked and ties go to the lower index, as PyTorch and numpy's stable
// sort give them; NaN counts as the largest value. NonZero counts the
// nonzero elements first (its result's size), then loops over the input
// writing the position of each; Compress the same with slices.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

namespace {

/// Compares elements in TopK's order (descending when `largest`): NaN is
/// the largest value, and equal values are told apart by their index.
struct Order {
  mlir::OpBuilder &b;
  mlir::Location loc;
  bool largest;

  mlir::Value isNan(mlir::Value v) {
    return mlir::arith::CmpFOp::create(b, loc, mlir::arith::CmpFPredicate::UNO,
                                       v, v);
  }
  mlir::Value both(mlir::Value x, mlir::Value y) {
    return mlir::arith::AndIOp::create(b, loc, x, y);
  }
  mlir::Value either(mlir::Value x, mlir::Value y) {
    return mlir::arith::OrIOp::create(b, loc, x, y);
  }
  mlir::Value negated(mlir::Value x) {
    mlir::Value one = mlir::arith::ConstantIntOp::create(b, loc, 1, 1);
    return mlir::arith::XOrIOp::create(b, loc, x, one);
  }
  /// Whether value `x` comes strictly before value `y`.
  mlir::Value before(mlir::Value x, mlir::Value y) {
    if (!isFloatType(x.getType()))
      return mlir::arith::CmpIOp::create(b, loc,
                                         largest
                                             ? mlir::arith::CmpIPredicate::sgt
                                             : mlir::arith::CmpIPredicate::slt,
                                         x, y);
    mlir::Value ordered =
        mlir::arith::CmpFOp::create(b, loc,
                                    largest ? mlir::arith::CmpFPredicate::OGT
                                            : mlir::arith::CmpFPredicate::OLT,
                                    x, y);
    // NaN first when descending, last when ascending.
    mlir::Value nanFirst = largest ? both(isNan(x), negated(isNan(y)))
                                   : both(negated(isNan(x)), isNan(y));
    return either(ordered, nanFirst);
  }
  mlir::Value same(mlir::Value x, mlir::Value y) {
    if (!isFloatType(x.getType()))
      return mlir::arith::CmpIOp::create(b, loc, mlir::arith::CmpIPredicate::eq,
                                         x, y);
    return either(mlir::arith::CmpFOp::create(
                      b, loc, mlir::arith::CmpFPredicate::OEQ, x, y),
                  both(isNan(x), isNan(y)));
  }
  /// Whether element (x, i) comes strictly before element (y, j).
  mlir::Value before(mlir::Value x, mlir::Value i, mlir::Value y,
                     mlir::Value j) {
    mlir::Value lower = mlir::arith::CmpIOp::create(
        b, loc, mlir::arith::CmpIPredicate::slt, i, j);
    return either(before(x, y), both(same(x, y), lower));
  }
};

/// `type` without dim `axis`.
mlir::RankedTensorType withoutDim(mlir::RankedTensorType type, int64_t axis,
                                  mlir::Type element) {
  llvm::SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  return mlir::RankedTensorType::get(shape, element);
}

/// TopK: the k largest (or smallest) elements along `axis` and their
/// indices, best first (ONNX lets an unsorted TopK return them in any
/// order, so sorted is what every TopK returns).
mlir::LogicalResult topK(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType valuesType = ctx.outputType(0),
                         indicesType = ctx.outputType(1);
  if (!x || !valuesType || !indicesType)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  if (rank < 1)
    return ctx.fail("takes a tensor of rank 1 or more");
  auto axis = axisOf(ctx, ctx.intAttr("axis", -1), rank);
  if (!axis)
    return mlir::failure();
  mlir::Type element = xType.getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1))
    return ctx.fail("takes a float or integer tensor");
  const bool largest = ctx.intAttr("largest", 1) != 0;

  // k: a constant, else read at run time from its one-element tensor.
  mlir::Value k;
  if (auto given = ctx.constantInts(1)) {
    if (given->size() != 1 || (*given)[0] < 0)
      return ctx.fail("takes k as one value, 0 or more");
    if (!xType.isDynamicDim(*axis) && (*given)[0] > xType.getDimSize(*axis))
      return ctx.fail("its k " + llvm::Twine((*given)[0]) +
                      " is more than the " +
                      llvm::Twine(xType.getDimSize(*axis)) +
                      " elements along axis " + llvm::Twine(*axis));
    k = indexConst(ctx.b, ctx.loc, (*given)[0]);
  } else {
    mlir::Value kTensor = ctx.input(1);
    if (!kTensor)
      return mlir::failure();
    auto kType = llvm::cast<mlir::RankedTensorType>(kTensor.getType());
    if (kType.getRank() != 1 || kType.isDynamicDim(0) ||
        kType.getDimSize(0) != 1)
      return ctx.fail("takes k as a tensor of one element");
    mlir::Value v = mlir::tensor::ExtractOp::create(
        ctx.b, ctx.loc, kTensor,
        mlir::ValueRange{indexConst(ctx.b, ctx.loc, 0)});
    k = mlir::arith::IndexCastOp::create(ctx.b, ctx.loc, ctx.b.getIndexType(),
                                         v);
  }

  // Outputs sized like x but for k along the axis.
  llvm::SmallVector<mlir::Value> dims(rank);
  for (int64_t d = 0; d < rank; ++d) {
    if (d == *axis) {
      dims[d] = k;
      continue;
    }
    dims[d] = ctx.dim(x, d);
  }
  mlir::Type indexElement = indicesType.getElementType();
  mlir::RankedTensorType rowType = withoutDim(xType, *axis, element);
  mlir::RankedTensorType rowIndexType = withoutDim(xType, *axis, indexElement);
  // ctx.empty reads the entries of the dynamic dims only.
  llvm::SmallVector<mlir::Value> rowDims(dims);
  rowDims.erase(rowDims.begin() + *axis);
  mlir::Value values = ctx.empty(valuesType, dims);
  mlir::Value indices = ctx.empty(indicesType, dims);
  mlir::Value noIndex = ctx.scalar(indexElement, -1);
  // Before the first pass "the element before" is none: index -1.
  mlir::Value previous = ctx.filled(rowType, ctx.scalar(element, 0), rowDims);
  mlir::Value previousIndex = ctx.filled(rowIndexType, noIndex, rowDims);

  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<mlir::AffineExpr> rowExprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      rowExprs.push_back(mlir::getAffineDimExpr(d, mctx));
  auto rowMap = mlir::AffineMap::get(rank, 0, rowExprs, mctx);
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, mctx);
  auto iterators = parallelIterators(rank);
  iterators[*axis] = mlir::utils::IteratorType::reduction;

  auto loop = mlir::scf::ForOp::create(
      ctx.b, ctx.loc, indexConst(ctx.b, ctx.loc, 0), k,
      indexConst(ctx.b, ctx.loc, 1),
      mlir::ValueRange{values, indices, previous, previousIndex});
  {
    mlir::OpBuilder::InsertionGuard guard(ctx.b);
    ctx.b.setInsertionPointToStart(loop.getBody());
    mlir::Value j = loop.getInductionVar();
    mlir::ValueRange carried = loop.getRegionIterArgs();
    mlir::Value best = ctx.filled(rowType, ctx.scalar(element, 0), rowDims);
    mlir::Value bestIndex = ctx.filled(rowIndexType, noIndex, rowDims);
    auto pass = mlir::linalg::GenericOp::create(
        ctx.b, ctx.loc, mlir::TypeRange{rowType, rowIndexType},
        mlir::ValueRange{x, carried[2], carried[3]},
        mlir::ValueRange{best, bestIndex},
        llvm::SmallVector<mlir::AffineMap>{identity, rowMap, rowMap, rowMap,
                                           rowMap},
        iterators,
        [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
          Order order{b, loc, largest};
          mlir::Value i = mlir::arith::IndexCastOp::create(
              b, loc, indexElement,
              mlir::linalg::IndexOp::create(b, loc, *axis));
          mlir::Value none = mlir::arith::ConstantOp::create(
              b, loc, indexElement, b.getIntegerAttr(indexElement, -1));
          auto isNone = [&](mlir::Value index) {
            return mlir::arith::CmpIOp::create(
                b, loc, mlir::arith::CmpIPredicate::eq, index, none);
          };
          // Candidates come after the previous pass's choice; the best of
          // them so far is replaced by one before it.
          mlir::Value candidate =
              order.either(isNone(v[2]), order.before(v[1], v[2], v[0], i));
          mlir::Value better = order.both(
              candidate,
              order.either(isNone(v[4]), order.before(v[0], i, v[3], v[4])));
          mlir::linalg::YieldOp::create(
              b, loc,
              mlir::ValueRange{
                  mlir::arith::SelectOp::create(b, loc, better, v[0], v[3]),
                  mlir::arith::SelectOp::create(b, loc, better, i, v[4])});
        });
    // Row j of the outputs along the axis.
    llvm::SmallVector<mlir::OpFoldResult> offsets, sizes, strides;
    for (int64_t d = 0; d < rank; ++d) {
      offsets.push_back(d == *axis ? mlir::OpFoldResult(j)
                                   : ctx.b.getIndexAttr(0));
      sizes.push_back(d == *axis ? mlir::OpFoldResult(ctx.b.getIndexAttr(1))
                      : xType.isDynamicDim(d)
                          ? mlir::OpFoldResult(dims[d])
                          : ctx.b.getIndexAttr(xType.getDimSize(d)));
      strides.push_back(ctx.b.getIndexAttr(1));
    }
    mlir::Value nextValues = mlir::tensor::InsertSliceOp::create(
        ctx.b, ctx.loc, pass.getResult(0), carried[0], offsets, sizes, strides);
    mlir::Value nextIndices = mlir::tensor::InsertSliceOp::create(
        ctx.b, ctx.loc, pass.getResult(1), carried[1], offsets, sizes, strides);
    mlir::scf::YieldOp::create(ctx.b, ctx.loc,
                               mlir::ValueRange{nextValues, nextIndices,
                                                pass.getResult(0),
                                                pass.getResult(1)});
  }
  ctx.setOutput(0, loop.getResult(0));
  ctx.setOutput(1, loop.getResult(1));
  return mlir::success();
}

/// NonZero: the positions of the nonzero elements, row-major, as a
/// rank x count tensor of int64 (column c is the c-th element's position).
mlir::LogicalResult nonZero(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  const int64_t rank = xType.getRank();
  if (rank < 1)
    return ctx.fail("takes a tensor of rank 1 or more");
  mlir::Type element = xType.getElementType();
  if (!element.isIntOrFloat())
    return ctx.fail("takes a float, integer or bool tensor");
  if (out.getRank() != 2 || (!out.isDynamicDim(0) && out.getDimSize(0) != rank))
    return ctx.fail("its output is not of shape [" + llvm::Twine(rank) +
                    ", count]");
  mlir::Type countType = out.getElementType();
  auto isNonZero = [&](mlir::OpBuilder &b, mlir::Location loc, mlir::Value v) {
    mlir::Value zero = mlir::arith::ConstantOp::create(b, loc, element,
                                                       b.getZeroAttr(element));
    if (isFloatType(element))
      return mlir::Value(mlir::arith::CmpFOp::create(
          b, loc, mlir::arith::CmpFPredicate::UNE, v, zero));
    return mlir::Value(mlir::arith::CmpIOp::create(
        b, loc, mlir::arith::CmpIPredicate::ne, v, zero));
  };

  // The count: a reduction over every dim into a scalar.
  mlir::MLIRContext *mctx = ctx.b.getContext();
  auto scalarType = mlir::RankedTensorType::get({}, countType);
  mlir::Value total = ctx.filled(scalarType, ctx.scalar(countType, 0));
  auto counting = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{scalarType}, mlir::ValueRange{x},
      mlir::ValueRange{total},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::getMultiDimIdentityMap(rank, mctx),
          mlir::AffineMap::get(rank, 0, {}, mctx)},
      llvm::SmallVector<mlir::utils::IteratorType>(
          rank, mlir::utils::IteratorType::reduction),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value one = mlir::arith::ExtUIOp::create(b, loc, countType,
                                                       isNonZero(b, loc, v[0]));
        mlir::linalg::YieldOp::create(
            b, loc, mlir::arith::AddIOp::create(b, loc, v[1], one).getResult());
      });
  mlir::Value count = mlir::arith::IndexCastOp::create(
      ctx.b, ctx.loc, ctx.b.getIndexType(),
      mlir::tensor::ExtractOp::create(ctx.b, ctx.loc, counting.getResult(0),
                                      mlir::ValueRange{}));

  auto resultType = mlir::RankedTensorType::get(
      {rank, mlir::ShapedType::kDynamic}, countType);
  mlir::Value result = ctx.empty(resultType, {nullptr, count});
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(ctx.dim(x, d));
  llvm::SmallVector<mlir::Value> written = forEachPosition(
      ctx.b, ctx.loc, sizes,
      mlir::ValueRange{result, indexConst(ctx.b, ctx.loc, 0)},
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange p,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value here =
            isNonZero(b, loc, mlir::tensor::ExtractOp::create(b, loc, x, p));
        auto op = mlir::scf::IfOp::create(
            b, loc, here,
            [&](mlir::OpBuilder &t, mlir::Location l) {
              mlir::Value r = acc[0];
              for (int64_t d = 0; d < rank; ++d)
                r = mlir::tensor::InsertOp::create(
                    t, l,
                    mlir::arith::IndexCastOp::create(t, l, countType, p[d]), r,
                    mlir::ValueRange{indexConst(t, l, d), acc[1]});
              mlir::Value next = mlir::arith::AddIOp::create(
                  t, l, acc[1], indexConst(t, l, 1));
              mlir::scf::YieldOp::create(t, l, mlir::ValueRange{r, next});
            },
            [&](mlir::OpBuilder &e, mlir::Location l) {
              mlir::scf::YieldOp::create(e, l, acc);
            });
        return llvm::SmallVector<mlir::Value>(op.getResults());
      });
  mlir::Value value = written[0];
  if (value.getType() != out)
    value = mlir::tensor::CastOp::create(ctx.b, ctx.loc, out, value);
  ctx.setOutput(0, value);
  return mlir::success();
}

/// Compress: the slices of the input along `axis` (of the input flattened
/// where no axis is given) whose condition element is true; a condition
/// shorter than the axis leaves the slices past its end out. Counts the
/// true elements first (the result's size), then copies each slice kept.
mlir::LogicalResult compress(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), cond = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !cond || !out)
    return mlir::failure();
  auto condType = llvm::cast<mlir::RankedTensorType>(cond.getType());
  if (condType.getRank() != 1 || !condType.getElementType().isInteger(1))
    return ctx.fail("takes a 1-D bool condition");
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t axis = 0;
  if (ctx.hasAttr("axis")) {
    auto given = axisOf(ctx, ctx.intAttr("axis", 0), xType.getRank());
    if (!given)
      return mlir::failure();
    axis = *given;
  } else if (xType.getRank() != 1) {
    llvm::SmallVector<mlir::ReassociationIndices> all(1);
    for (int64_t d = 0; d < xType.getRank(); ++d)
      all[0].push_back(d);
    x = mlir::tensor::CollapseShapeOp::create(ctx.b, ctx.loc, x, all);
    xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  }
  const int64_t rank = xType.getRank();
  if (out.getRank() != rank)
    return ctx.fail("its output is not of rank " + llvm::Twine(rank));
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  mlir::Value zero = indexConst(b, loc, 0), one = indexConst(b, loc, 1);
  mlir::Value n =
      mlir::arith::MinSIOp::create(b, loc, ctx.dim(cond, 0), ctx.dim(x, axis));
  auto kept = [&](mlir::OpBuilder &b, mlir::Location loc, mlir::Value i) {
    return mlir::tensor::ExtractOp::create(b, loc, cond, mlir::ValueRange{i})
        .getResult();
  };
  auto counting = mlir::scf::ForOp::create(
      b, loc, zero, n, one, mlir::ValueRange{zero},
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::Value i,
          mlir::ValueRange acc) {
        mlir::Value next = mlir::arith::AddIOp::create(
            b, loc, acc[0],
            mlir::arith::SelectOp::create(b, loc, kept(b, loc, i),
                                          indexConst(b, loc, 1),
                                          indexConst(b, loc, 0)));
        mlir::scf::YieldOp::create(b, loc, next);
      });
  llvm::SmallVector<int64_t> shape(xType.getShape());
  shape[axis] = mlir::ShapedType::kDynamic;
  auto resultType = mlir::RankedTensorType::get(shape, xType.getElementType());
  llvm::SmallVector<mlir::Value> dims = dynamicDimsOf(ctx, resultType, x);
  dims[axis] = counting.getResult(0);
  // A slice: all of every dim but one element of the axis.
  llvm::SmallVector<mlir::OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(d == axis ? mlir::OpFoldResult(b.getIndexAttr(1))
                              : mlir::OpFoldResult(ctx.dim(x, d)));
  auto at = [&](mlir::Value i) {
    llvm::SmallVector<mlir::OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[axis] = i;
    return offsets;
  };
  auto copying = mlir::scf::ForOp::create(
      b, loc, zero, n, one, mlir::ValueRange{ctx.empty(resultType, dims), zero},
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::Value i,
          mlir::ValueRange acc) {
        auto choice = mlir::scf::IfOp::create(
            b, loc, kept(b, loc, i),
            [&](mlir::OpBuilder &t, mlir::Location l) {
              mlir::Value slice = mlir::tensor::ExtractSliceOp::create(
                  t, l, x, at(i), sizes, strides);
              mlir::Value r = mlir::tensor::InsertSliceOp::create(
                  t, l, slice, acc[0], at(acc[1]), sizes, strides);
              mlir::scf::YieldOp::create(
                  t, l,
                  mlir::ValueRange{r, mlir::arith::AddIOp::create(
                                          t, l, acc[1], indexConst(t, l, 1))});
            },
            [&](mlir::OpBuilder &e, mlir::Location l) {
              mlir::scf::YieldOp::create(e, l, acc);
            });
        mlir::scf::YieldOp::create(b, loc, choice.getResults());
      });
  ctx.setOutput(0, copying.getResult(0));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> selectionConverters() {
  return {{"TopK", topK, {1}}, {"NonZero", nonZero}, {"Compress", compress}};
}

} // namespace aot::onnx_import
