//===- OnnxScatter.cpp - ScatterND, ScatterElements and MaxUnpool ---------===//
//
// Each is a loop over the indices that carries the data tensor and writes
// one slice (ScatterND) or one element (ScatterElements, MaxUnpool into
// zeros) per index, in order, as
// ONNX defines them: where two indices are equal a later one wins, or, with
// a reduction, combines with what is there. An index outside the data (after
// negative ones are counted from the end) writes nothing rather than memory
// that is not the tensor's.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

namespace {

/// How an update meets the data already at its place.
enum class ScatterReduction { None, Add, Mul, Max, Min };

/// The node's `reduction` attribute, or nullopt after an error.
std::optional<ScatterReduction> reductionOf(NodeContext &ctx) {
  std::string name = ctx.stringAttr("reduction", "none");
  std::optional<ScatterReduction> r =
      llvm::StringSwitch<std::optional<ScatterReduction>>(name)
          .Case("none", ScatterReduction::None)
          .Case("add", ScatterReduction::Add)
          .Case("mul", ScatterReduction::Mul)
          .Case("max", ScatterReduction::Max)
          .Case("min", ScatterReduction::Min)
          .Default(std::nullopt);
  if (!r)
    (void)ctx.fail("reduction '" + name +
                   "' is not one of none, add, mul, max, min");
  return r;
}

/// `current` and `update` (scalars) combined by `r` (not None).
mlir::Value combined(mlir::OpBuilder &b, mlir::Location loc, ScatterReduction r,
                     mlir::Value current, mlir::Value update) {
  bool f = isFloatType(current.getType());
  switch (r) {
  case ScatterReduction::Add:
    return f ? mlir::Value(mlir::arith::AddFOp::create(b, loc, current, update))
             : mlir::arith::AddIOp::create(b, loc, current, update);
  case ScatterReduction::Mul:
    return f ? mlir::Value(mlir::arith::MulFOp::create(b, loc, current, update))
             : mlir::arith::MulIOp::create(b, loc, current, update);
  case ScatterReduction::Max:
    return f ? mlir::Value(
                   mlir::arith::MaximumFOp::create(b, loc, current, update))
             : mlir::arith::MaxSIOp::create(b, loc, current, update);
  case ScatterReduction::Min:
  case ScatterReduction::None:
    break;
  }
  return f ? mlir::Value(
                 mlir::arith::MinimumFOp::create(b, loc, current, update))
           : mlir::arith::MinSIOp::create(b, loc, current, update);
}

/// Whether every index of `at` lies below its size in `sizes` (indices are
/// compared unsigned, so a negative one is out too).
mlir::Value allInRange(mlir::OpBuilder &b, mlir::Location loc,
                       llvm::ArrayRef<mlir::Value> at,
                       llvm::ArrayRef<mlir::Value> sizes) {
  mlir::Value in = mlir::arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [i, size] : llvm::zip(at, sizes))
    in = mlir::arith::AndIOp::create(
        b, loc, in,
        mlir::arith::CmpIOp::create(b, loc, mlir::arith::CmpIPredicate::ult, i,
                                    size));
  return in;
}

/// `write()` where `in` holds, else `acc` unchanged.
mlir::Value writeIf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value in,
                    mlir::Value acc, llvm::function_ref<mlir::Value()> write) {
  auto op = mlir::scf::IfOp::create(
      b, loc, in,
      [&](mlir::OpBuilder &t, mlir::Location l) {
        mlir::scf::YieldOp::create(t, l, write());
      },
      [&](mlir::OpBuilder &e, mlir::Location l) {
        mlir::scf::YieldOp::create(e, l, acc);
      });
  return op.getResult(0);
}

/// Two slices of one type combined element by element by `r`; `dims`
/// holds the sizes of the type's dynamic dims (null where static).
mlir::Value combinedSlices(NodeContext &ctx, ScatterReduction r,
                           mlir::Value current, mlir::Value update,
                           llvm::ArrayRef<mlir::Value> dims) {
  auto type = llvm::cast<mlir::RankedTensorType>(current.getType());
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(type.getRank(),
                                                          ctx.b.getContext());
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{type}, mlir::ValueRange{current, update},
      mlir::ValueRange{ctx.empty(type, dims)},
      llvm::SmallVector<mlir::AffineMap>(3, identity),
      parallelIterators(type.getRank()),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::linalg::YieldOp::create(b, loc, combined(b, loc, r, v[0], v[1]));
      });
  return generic.getResult(0);
}

/// `v` with its leading `n` dims folded into one (a new leading dim of 1
/// when n is 0).
mlir::Value foldLeadingDims(NodeContext &ctx, mlir::Value v, int64_t n) {
  auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
  if (n == 1)
    return v;
  if (n == 0) {
    llvm::SmallVector<int64_t> shape = {1};
    llvm::append_range(shape, t.getShape());
    llvm::SmallVector<mlir::ReassociationIndices> groups;
    llvm::SmallVector<mlir::OpFoldResult> sizes = {ctx.b.getIndexAttr(1)};
    for (int64_t d = 0; d < t.getRank(); ++d) {
      groups.push_back(d == 0 ? mlir::ReassociationIndices{0, 1}
                              : mlir::ReassociationIndices{d + 1});
      sizes.push_back(t.isDynamicDim(d) ? mlir::OpFoldResult(ctx.dim(v, d))
                                        : ctx.b.getIndexAttr(t.getDimSize(d)));
    }
    auto type = mlir::RankedTensorType::get(shape, t.getElementType());
    if (t.getRank() == 0)
      return mlir::tensor::ExpandShapeOp::create(
          ctx.b, ctx.loc, type, v,
          llvm::SmallVector<mlir::ReassociationIndices>{}, sizes);
    return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, type, v, groups,
                                               sizes);
  }
  llvm::SmallVector<mlir::ReassociationIndices> groups(1);
  int64_t count = 1;
  for (int64_t d = 0; d < n; ++d) {
    groups[0].push_back(d);
    count = (count == mlir::ShapedType::kDynamic || t.isDynamicDim(d))
                ? mlir::ShapedType::kDynamic
                : count * t.getDimSize(d);
  }
  llvm::SmallVector<int64_t> shape = {count};
  for (int64_t d = n; d < t.getRank(); ++d) {
    groups.push_back({d});
    shape.push_back(t.getDimSize(d));
  }
  return mlir::tensor::CollapseShapeOp::create(
      ctx.b, ctx.loc, mlir::RankedTensorType::get(shape, t.getElementType()), v,
      groups);
}

/// ScatterND: the data, with the slice at each index tuple (the last dim
/// of the indices) replaced by (or combined with) its updates, tuple by
/// tuple in order.
mlir::LogicalResult scatterNd(NodeContext &ctx) {
  mlir::Value data = ctx.input(0), indices = ctx.input(1),
              updates = ctx.input(2);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!data || !indices || !updates || !out)
    return mlir::failure();
  auto reduction = reductionOf(ctx);
  if (!reduction)
    return mlir::failure();
  auto dataType = llvm::cast<mlir::RankedTensorType>(data.getType());
  auto indexType = llvm::cast<mlir::RankedTensorType>(indices.getType());
  int64_t r = dataType.getRank(), q = indexType.getRank();
  if (q < 1 || indexType.isDynamicDim(q - 1))
    return ctx.fail("takes indices whose last dim is static");
  int64_t k = indexType.getDimSize(q - 1);
  if (k < 1 || k > r)
    return ctx.fail("takes index tuples of 1 to " + llvm::Twine(r) +
                    " elements, not " + llvm::Twine(k));
  auto updateType = llvm::cast<mlir::RankedTensorType>(updates.getType());
  if (updateType.getRank() != q - 1 + r - k)
    return ctx.fail("takes updates of rank " + llvm::Twine(q - 1 + r - k) +
                    " (the indices' leading dims and the data's last " +
                    llvm::Twine(r - k) + "), not " +
                    llvm::Twine(updateType.getRank()));
  mlir::Value tuples = foldLeadingDims(ctx, indices, q - 1);
  mlir::Value slices = foldLeadingDims(ctx, updates, q - 1);
  auto sliceTypeOf = [&] {
    llvm::SmallVector<int64_t> shape(dataType.getShape().drop_front(k));
    return mlir::RankedTensorType::get(shape, dataType.getElementType());
  };
  mlir::RankedTensorType sliceType = sliceTypeOf();
  llvm::SmallVector<mlir::OpFoldResult> tail;
  llvm::SmallVector<mlir::Value> tailDims;
  for (int64_t d = k; d < r; ++d) {
    tailDims.push_back(dataType.isDynamicDim(d) ? ctx.dim(data, d) : nullptr);
    tail.push_back(tailDims.back()
                       ? mlir::OpFoldResult(tailDims.back())
                       : ctx.b.getIndexAttr(dataType.getDimSize(d)));
  }
  mlir::Value zero = indexConst(ctx.b, ctx.loc, 0);
  mlir::Value one = indexConst(ctx.b, ctx.loc, 1);
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < k; ++d)
    sizes.push_back(ctx.dim(data, d));
  mlir::Value count = ctx.dim(tuples, 0);
  auto loop = mlir::scf::ForOp::create(ctx.b, ctx.loc, zero, count, one,
                                       mlir::ValueRange{data});
  {
    mlir::OpBuilder::InsertionGuard guard(ctx.b);
    ctx.b.setInsertionPointToStart(loop.getBody());
    mlir::Value m = loop.getInductionVar();
    mlir::Value acc = loop.getRegionIterArg(0);
    llvm::SmallVector<mlir::OpFoldResult> offsets, lengths, strides;
    llvm::SmallVector<mlir::Value> at;
    for (int64_t d = 0; d < k; ++d) {
      mlir::Value e = mlir::tensor::ExtractOp::create(
          ctx.b, ctx.loc, tuples,
          mlir::ValueRange{m, indexConst(ctx.b, ctx.loc, d)});
      at.push_back(wrappedIndex(ctx.b, ctx.loc, e, sizes[d]));
      offsets.push_back(at.back());
      lengths.push_back(ctx.b.getIndexAttr(1));
    }
    llvm::SmallVector<mlir::OpFoldResult> fromOffsets = {m},
                                          fromLengths = {ctx.b.getIndexAttr(1)};
    for (int64_t d = k; d < r; ++d) {
      offsets.push_back(ctx.b.getIndexAttr(0));
      fromOffsets.push_back(ctx.b.getIndexAttr(0));
    }
    llvm::append_range(lengths, tail);
    llvm::append_range(fromLengths, tail);
    strides.assign(r, ctx.b.getIndexAttr(1));
    llvm::SmallVector<mlir::OpFoldResult> fromStrides(r - k + 1,
                                                      ctx.b.getIndexAttr(1));
    mlir::Value next = writeIf(
        ctx.b, ctx.loc, allInRange(ctx.b, ctx.loc, at, sizes), acc, [&] {
          mlir::Value slice = mlir::tensor::ExtractSliceOp::create(
              ctx.b, ctx.loc, sliceType, slices, fromOffsets, fromLengths,
              fromStrides);
          if (*reduction != ScatterReduction::None)
            slice = combinedSlices(
                ctx, *reduction,
                mlir::tensor::ExtractSliceOp::create(
                    ctx.b, ctx.loc, sliceType, acc, offsets, lengths, strides),
                slice, tailDims);
          return mlir::tensor::InsertSliceOp::create(ctx.b, ctx.loc, slice, acc,
                                                     offsets, lengths, strides)
              .getResult();
        });
    mlir::scf::YieldOp::create(ctx.b, ctx.loc, next);
  }
  mlir::Value result = loop.getResult(0);
  if (result.getType() != out)
    result = mlir::tensor::CastOp::create(ctx.b, ctx.loc, out, result);
  ctx.setOutput(0, result);
  return mlir::success();
}

/// ScatterElements: the data, with data[p with p[axis] = indices[p]] set
/// to (or combined with) updates[p] for every position p of the indices.
mlir::LogicalResult scatterElements(NodeContext &ctx) {
  mlir::Value data = ctx.input(0), indices = ctx.input(1),
              updates = ctx.input(2);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!data || !indices || !updates || !out)
    return mlir::failure();
  auto reduction = reductionOf(ctx);
  if (!reduction)
    return mlir::failure();
  auto dataType = llvm::cast<mlir::RankedTensorType>(data.getType());
  auto indexType = llvm::cast<mlir::RankedTensorType>(indices.getType());
  auto updateType = llvm::cast<mlir::RankedTensorType>(updates.getType());
  int64_t rank = dataType.getRank();
  if (indexType.getRank() != rank || updateType.getRank() != rank)
    return ctx.fail("takes indices and updates of the data's rank " +
                    llvm::Twine(rank));
  auto axis = axisOf(ctx, ctx.intAttr("axis", 0), rank);
  if (!axis)
    return mlir::failure();
  llvm::SmallVector<mlir::Value> positions, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    positions.push_back(ctx.dim(indices, d));
    sizes.push_back(ctx.dim(data, d));
  }
  ScatterReduction r = *reduction;
  llvm::SmallVector<mlir::Value> result = forEachPosition(
      ctx.b, ctx.loc, positions, mlir::ValueRange{data},
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange p,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        llvm::SmallVector<mlir::Value> at(p);
        at[*axis] = wrappedIndex(
            b, loc, mlir::tensor::ExtractOp::create(b, loc, indices, p),
            sizes[*axis]);
        mlir::Value next =
            writeIf(b, loc, allInRange(b, loc, at, sizes), acc[0], [&] {
              mlir::Value u =
                  mlir::tensor::ExtractOp::create(b, loc, updates, p);
              if (r != ScatterReduction::None)
                u = combined(
                    b, loc, r,
                    mlir::tensor::ExtractOp::create(b, loc, acc[0], at), u);
              return mlir::tensor::InsertOp::create(b, loc, u, acc[0], at)
                  .getResult();
            });
        return {next};
      });
  mlir::Value value = result[0];
  if (value.getType() != out)
    value = mlir::tensor::CastOp::create(ctx.b, ctx.loc, out, value);
  ctx.setOutput(0, value);
  return mlir::success();
}

/// MaxUnpool: zeros of the output's shape, each input element written at
/// the position its index names in the output taken flat (as MaxPool's
/// Indices count them, in the pooling's input of (in - 1) stride + kernel -
/// pads), later ones last.
mlir::LogicalResult maxUnpool(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), indices = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !indices || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  auto iType = llvm::cast<mlir::RankedTensorType>(indices.getType());
  int64_t rank = xType.getRank();
  if (rank < 3 || iType.getRank() != rank ||
      !llvm::isa<mlir::IntegerType>(iType.getElementType()))
    return ctx.fail("takes an input of rank 3 or more (N, C, D1, ...) and "
                    "integer indices of its shape, not " +
                    typeText(xType) + " and " + typeText(iType));
  std::vector<int64_t> kernel = ctx.intsAttr("kernel_shape");
  std::vector<int64_t> strides =
      ctx.intsAttr("strides", std::vector<int64_t>(rank - 2, 1));
  std::vector<int64_t> pads =
      ctx.intsAttr("pads", std::vector<int64_t>(2 * (rank - 2), 0));
  if (kernel.size() != size_t(rank - 2) || strides.size() != kernel.size() ||
      pads.size() != 2 * kernel.size())
    return ctx.fail("takes kernel_shape, strides and pads of the input's " +
                    llvm::Twine(rank - 2) + " spatial dims");
  // The sizes the pooling came from, which the indices count in; the
  // output's are output_shape's where given (a constant, or read at run
  // time), those otherwise: an output_shape larger than them pads the
  // output after the elements, as ONNX's reference places them.
  llvm::SmallVector<mlir::Value> pooled, sizes;
  for (int64_t d = 0; d < rank; ++d) {
    mlir::Value in = ctx.dim(x, d);
    if (d >= 2) {
      size_t k = d - 2;
      in = mlir::arith::AddIOp::create(
          ctx.b, ctx.loc,
          mlir::arith::MulIOp::create(
              ctx.b, ctx.loc,
              mlir::arith::SubIOp::create(ctx.b, ctx.loc, in,
                                          indexConst(ctx.b, ctx.loc, 1)),
              indexConst(ctx.b, ctx.loc, strides[k])),
          indexConst(ctx.b, ctx.loc,
                     kernel[k] - pads[k] - pads[k + kernel.size()]));
      in = mlir::arith::MaxSIOp::create(ctx.b, ctx.loc, in,
                                        indexConst(ctx.b, ctx.loc, 0));
    }
    pooled.push_back(in);
  }
  sizes = pooled;
  if (ctx.hasInput(2)) {
    std::optional<std::vector<int64_t>> given = ctx.constantInts(2);
    if (given && given->size() != size_t(rank))
      return ctx.fail("takes an output_shape of " + llvm::Twine(rank) +
                      " sizes");
    mlir::Value shape;
    if (!given) {
      shape = ctx.input(2);
      if (!shape)
        return mlir::failure();
      auto t = llvm::cast<mlir::RankedTensorType>(shape.getType());
      if (t.getRank() != 1 || t.getDimSize(0) != rank)
        return ctx.fail("takes an output_shape of " + llvm::Twine(rank) +
                        " sizes, not " + typeText(t));
    }
    for (int64_t d = 0; d < rank; ++d) {
      if (given) {
        sizes[d] =
            indexConst(ctx.b, ctx.loc, std::max<int64_t>((*given)[d], 0));
        continue;
      }
      // A negative size read at run time is taken as 0.
      mlir::Value v = mlir::arith::IndexCastOp::create(
          ctx.b, ctx.loc, ctx.b.getIndexType(),
          mlir::tensor::ExtractOp::create(
              ctx.b, ctx.loc, shape,
              mlir::ValueRange{indexConst(ctx.b, ctx.loc, d)}));
      sizes[d] = mlir::arith::MaxSIOp::create(ctx.b, ctx.loc, v,
                                              indexConst(ctx.b, ctx.loc, 0));
    }
  }
  mlir::Value zeros =
      ctx.filled(out, ctx.scalar(out.getElementType(), 0), sizes);
  llvm::SmallVector<mlir::Value> positions, divisors;
  mlir::Value total = indexConst(ctx.b, ctx.loc, 1);
  for (int64_t d = 0; d < rank; ++d) {
    positions.push_back(ctx.dim(x, d));
    total = mlir::arith::MulIOp::create(ctx.b, ctx.loc, total, pooled[d]);
    // No division by a size of 0 (nothing is written then).
    divisors.push_back(mlir::arith::MaxUIOp::create(
        ctx.b, ctx.loc, pooled[d], indexConst(ctx.b, ctx.loc, 1)));
  }
  llvm::SmallVector<mlir::Value> result = forEachPosition(
      ctx.b, ctx.loc, positions, mlir::ValueRange{zeros},
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange p,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value flat = mlir::arith::IndexCastOp::create(
            b, loc, b.getIndexType(),
            mlir::tensor::ExtractOp::create(b, loc, indices, p));
        // The flat index as a position, last dim fastest; one outside the
        // output (or negative) writes nothing.
        llvm::SmallVector<mlir::Value> at(rank);
        mlir::Value rest = flat;
        for (int64_t d = rank - 1; d >= 0; --d) {
          at[d] = mlir::arith::RemUIOp::create(b, loc, rest, divisors[d]);
          rest = mlir::arith::DivUIOp::create(b, loc, rest, divisors[d]);
        }
        mlir::Value inside = mlir::arith::CmpIOp::create(
            b, loc, mlir::arith::CmpIPredicate::ult, flat, total);
        for (int64_t d = 0; d < rank; ++d)
          inside = mlir::arith::AndIOp::create(
              b, loc, inside,
              mlir::arith::CmpIOp::create(
                  b, loc, mlir::arith::CmpIPredicate::ult, at[d], sizes[d]));
        return {writeIf(b, loc, inside, acc[0], [&] {
          mlir::Value v = mlir::tensor::ExtractOp::create(b, loc, x, p);
          return mlir::tensor::InsertOp::create(b, loc, v, acc[0], at)
              .getResult();
        })};
      });
  ctx.setOutput(0, result[0]);
  return mlir::success();
}

} // namespace

std::vector<OpConverter> scatterConverters() {
  return {{"ScatterND", scatterNd},
          {"ScatterElements", scatterElements},
          {"MaxUnpool", maxUnpool, {2}}};
}

} // namespace aot::onnx_import
