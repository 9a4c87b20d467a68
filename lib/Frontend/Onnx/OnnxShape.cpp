//===- OnnxShape.cpp - reshapes, transposes, slices, gathers --------------===//
//
// Shapes, axes, starts and ends are read as constants (initializers,
// Constant nodes, or what shape inference computed), so that what computes
// them at run time in the model (Shape -> Gather -> Concat) is not emitted
// at all where the shapes are static. A reshape between static shapes is a
// collapse to one dim and an expansion, which later passes fold away.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxElementwise.h"
#include "Frontend/Onnx/OnnxFold.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

namespace {

mlir::Value indexConst(NodeContext &ctx, int64_t v) {
  return mlir::arith::ConstantIndexOp::create(ctx.b, ctx.loc, v);
}

/// The number of elements of `x`, as an index value.
mlir::Value elementCount(NodeContext &ctx, mlir::Value x) {
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Value n = indexConst(ctx, 1);
  for (int64_t d = 0; d < t.getRank(); ++d)
    n = mlir::arith::MulIOp::create(ctx.b, ctx.loc, n, ctx.dim(x, d));
  return n;
}

/// `x` reshaped to `out`. Static shapes: a collapse to one dim and an
/// expansion; otherwise tensor.reshape to `dims` (an index value per dim
/// of `out`, used where `out` is dynamic).
mlir::Value reshape(NodeContext &ctx, mlir::Value x, mlir::RankedTensorType out,
                    llvm::ArrayRef<mlir::Value> dims) {
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  if (t == out)
    return x;
  if (t.hasStaticShape() && out.hasStaticShape()) {
    mlir::Value flat = x;
    if (t.getRank() != 1) {
      llvm::SmallVector<mlir::ReassociationIndices> all;
      if (t.getRank() > 0) {
        all.emplace_back();
        for (int64_t d = 0; d < t.getRank(); ++d)
          all[0].push_back(d);
      }
      auto flatType =
          mlir::RankedTensorType::get({t.getNumElements()}, t.getElementType());
      flat = t.getRank() == 0
                 ? mlir::Value(mlir::tensor::ExpandShapeOp::create(
                       ctx.b, ctx.loc, flatType, x, all))
                 : mlir::Value(mlir::tensor::CollapseShapeOp::create(
                       ctx.b, ctx.loc, flatType, x, all));
    }
    if (out.getRank() == 1)
      return flat;
    llvm::SmallVector<mlir::ReassociationIndices> all;
    if (out.getRank() > 0) {
      all.emplace_back();
      for (int64_t d = 0; d < out.getRank(); ++d)
        all[0].push_back(d);
    }
    if (out.getRank() == 0)
      return mlir::tensor::CollapseShapeOp::create(ctx.b, ctx.loc, out, flat,
                                                   all);
    return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, out, flat, all);
  }
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = 0; d < out.getRank(); ++d)
    sizes.push_back(out.isDynamicDim(d) ? dims[d]
                                        : indexConst(ctx, out.getDimSize(d)));
  mlir::Value shape =
      mlir::tensor::FromElementsOp::create(ctx.b, ctx.loc, sizes);
  return mlir::tensor::ReshapeOp::create(ctx.b, ctx.loc, out, x, shape);
}

/// Element `at` of the shape vector that input `i` holds, as an index
/// value: a constant where `known` (what knownInts gave) has it, read from
/// the tensor at run time otherwise. Null after an error.
mlir::Value shapeElement(NodeContext &ctx, int i,
                         const std::vector<std::int64_t> &known, int64_t at) {
  int64_t v = known[std::size_t(at)];
  if (v != kUnknownElement)
    return indexConst(ctx, v);
  mlir::Value target = ctx.input(i);
  if (!target)
    return nullptr;
  mlir::Value element = mlir::tensor::ExtractOp::create(ctx.b, ctx.loc, target,
                                                        indexConst(ctx, at));
  return mlir::arith::IndexCastOp::create(ctx.b, ctx.loc, ctx.b.getIndexType(),
                                          element);
}

mlir::LogicalResult reshapeOp(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  if (!out.hasStaticShape()) {
    // The target as far as it is known before run time; its unknown
    // elements (dims of a dynamic input) are read from the tensor.
    std::optional<std::vector<std::int64_t>> shape = ctx.knownInts(1);
    if (!shape || int64_t(shape->size()) != out.getRank())
      return ctx.fail("takes a target shape of known length when the "
                      "result's is not static");
    mlir::Value known = indexConst(ctx, 1);
    int64_t inferred = -1;
    for (int64_t d = 0; d < out.getRank(); ++d) {
      int64_t v = (*shape)[d];
      if (v == kUnknownElement) {
        if (!(dims[d] = shapeElement(ctx, 1, *shape, d)))
          return mlir::failure();
      } else if (v == 0 && !ctx.intAttr("allowzero", 0)) {
        dims[d] = ctx.dim(x, d);
      } else if (v == -1) {
        inferred = d;
      } else {
        dims[d] = indexConst(ctx, v);
      }
      if (v != -1)
        known = mlir::arith::MulIOp::create(ctx.b, ctx.loc, known, dims[d]);
    }
    if (inferred >= 0)
      dims[inferred] = mlir::arith::DivUIOp::create(
          ctx.b, ctx.loc, elementCount(ctx, x), known);
  }
  ctx.setOutput(0, reshape(ctx, x, out, dims));
  return mlir::success();
}

/// Flatten, Squeeze, Unsqueeze: the output's dims are the input's,
/// regrouped; dynamic ones are products of input dims.
mlir::LogicalResult regroup(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  if (!out.hasStaticShape()) {
    if (ctx.node().op_type() == "Flatten") {
      int64_t axis = ctx.intAttr("axis", 1);
      if (axis < 0)
        axis += t.getRank();
      mlir::Value outer = indexConst(ctx, 1), inner = indexConst(ctx, 1);
      for (int64_t d = 0; d < t.getRank(); ++d) {
        mlir::Value &acc = d < axis ? outer : inner;
        acc = mlir::arith::MulIOp::create(ctx.b, ctx.loc, acc, ctx.dim(x, d));
      }
      dims = {outer, inner};
    } else {
      // Squeeze and Unsqueeze keep the order of the dims that are not 1.
      int64_t from = 0;
      for (int64_t d = 0; d < out.getRank(); ++d) {
        if (!out.isDynamicDim(d))
          continue;
        while (from < t.getRank() && !t.isDynamicDim(from))
          ++from;
        if (from == t.getRank())
          return ctx.fail("cannot tell the result's dynamic dims");
        dims[d] = ctx.dim(x, from++);
      }
    }
  }
  ctx.setOutput(0, reshape(ctx, x, out, dims));
  return mlir::success();
}

mlir::LogicalResult transpose(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  int64_t rank = out.getRank();
  if (llvm::cast<mlir::RankedTensorType>(x.getType()).getRank() != rank)
    return ctx.fail("the input's rank is not the output's");
  std::vector<std::int64_t> perm;
  for (int64_t d = rank - 1; d >= 0; --d)
    perm.push_back(d);
  perm = ctx.intsAttr("perm", perm);
  if (int64_t(perm.size()) != rank)
    return ctx.fail("perm has " + llvm::Twine(perm.size()) +
                    " entries for a rank of " + llvm::Twine(rank));
  std::vector<bool> seen(rank, false);
  for (int64_t d : perm) {
    if (d < 0 || d >= rank || seen[d])
      return ctx.fail("perm is not a permutation of the " + llvm::Twine(rank) +
                      " dims");
    seen[d] = true;
  }
  ctx.setOutput(0, transposed(ctx.b, ctx.loc, x, perm));
  return mlir::success();
}

mlir::LogicalResult concat(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  int64_t axis = ctx.intAttr("axis", 0);
  if (axis < 0)
    axis += out.getRank();
  llvm::SmallVector<mlir::Value> inputs;
  for (int i = 0; i < ctx.node().input_size(); ++i) {
    mlir::Value v = ctx.input(i);
    if (!v)
      return mlir::failure();
    inputs.push_back(v);
  }
  mlir::Value r = inputs.size() == 1
                      ? inputs[0]
                      : mlir::Value(mlir::tensor::ConcatOp::create(
                            ctx.b, ctx.loc, axis, inputs));
  ctx.setOutput(0, r);
  return mlir::success();
}

/// Shape: the input's dims as i64, constant where they are static.
mlir::LogicalResult shape(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  int64_t start = ctx.intAttr("start", 0), end = ctx.intAttr("end", rank);
  start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
  end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t d = start; d < end; ++d)
    sizes.push_back(mlir::arith::IndexCastOp::create(
        ctx.b, ctx.loc, ctx.b.getI64Type(), ctx.dim(x, d)));
  ctx.setOutput(
      0, mlir::tensor::FromElementsOp::create(ctx.b, ctx.loc, out, sizes));
  return mlir::success();
}

/// Size: the element count, an int64 scalar.
mlir::LogicalResult size(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Value n = mlir::arith::ConstantIndexOp::create(ctx.b, ctx.loc, 1);
  for (int64_t d = 0; d < t.getRank(); ++d)
    n = mlir::arith::MulIOp::create(ctx.b, ctx.loc, n, ctx.dim(x, d));
  n = mlir::arith::IndexCastOp::create(ctx.b, ctx.loc, ctx.b.getI64Type(), n);
  ctx.setOutput(0, mlir::tensor::FromElementsOp::create(
                       ctx.b, ctx.loc, out.clone(llvm::ArrayRef<int64_t>{}),
                       mlir::ValueRange{n}));
  return mlir::success();
}

/// DepthToSpace and SpaceToDepth (N x C x H x W, C, H and W static): a
/// split of dims into six, a transpose, a join into four.
template <bool toSpace> mlir::LogicalResult blocksMoved(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t bs = ctx.intAttr("blocksize", 0);
  if (t.getRank() != 4 || bs < 1)
    return ctx.fail("takes a 4-D input and a blocksize of at least 1");
  for (int64_t d = 1; d < 4; ++d)
    if (t.isDynamicDim(d))
      return ctx.fail("takes static channels, height and width");
  int64_t c = t.getDimSize(1), h = t.getDimSize(2), w = t.getDimSize(3);
  std::string mode = ctx.stringAttr("mode", "DCR");
  if (toSpace && mode != "DCR" && mode != "CRD")
    return ctx.fail("unknown mode '" + mode + "'");
  if (toSpace ? c % (bs * bs) : h % bs || w % bs)
    return ctx.fail("blocksize " + llvm::Twine(bs) + " does not divide the " +
                    (toSpace ? "channels" : "height and width"));
  mlir::OpFoldResult n = t.isDynamicDim(0)
                             ? mlir::OpFoldResult(ctx.dim(x, 0))
                             : ctx.b.getIndexAttr(t.getDimSize(0));
  llvm::SmallVector<int64_t> split;
  llvm::SmallVector<mlir::ReassociationIndices> byChannels = {
      {0}, {1, 2, 3}, {4}, {5}};
  llvm::SmallVector<mlir::ReassociationIndices> bySpace = {
      {0}, {1}, {2, 3}, {4, 5}};
  std::vector<int64_t> perm;
  if (!toSpace) { // SpaceToDepth
    split = {c, h / bs, bs, w / bs, bs};
    perm = {0, 3, 5, 1, 2, 4};
  } else if (mode == "DCR") {
    split = {bs, bs, c / (bs * bs), h, w};
    perm = {0, 3, 4, 1, 5, 2};
  } else {
    split = {c / (bs * bs), bs, bs, h, w};
    perm = {0, 1, 4, 2, 5, 3};
  }
  llvm::SmallVector<int64_t> shape = {t.getDimSize(0)};
  shape.append(split);
  llvm::SmallVector<mlir::OpFoldResult> sizes = {n};
  for (int64_t v : split)
    sizes.push_back(ctx.b.getIndexAttr(v));
  mlir::Value six = mlir::tensor::ExpandShapeOp::create(
      ctx.b, ctx.loc, mlir::RankedTensorType::get(shape, t.getElementType()), x,
      toSpace ? byChannels : bySpace, sizes);
  mlir::Value moved = transposed(ctx.b, ctx.loc, six, perm);
  ctx.setOutput(
      0, mlir::tensor::CollapseShapeOp::create(ctx.b, ctx.loc, out, moved,
                                               toSpace ? bySpace : byChannels));
  return mlir::success();
}

/// Slice with constant starts, ends, axes and steps. A negative step
/// (along a static dim) takes the elements it walks over with the positive
/// step, then reverses them.
/// Slice with starts, ends or steps read at run time, or along a dynamic
/// dim to a size not known before: each sliced dim's start, count and
/// step computed at run time as ONNX clamps them, the elements gathered by
/// one linalg.generic (a negative step reads backwards).
mlir::LogicalResult runtimeSlice(NodeContext &ctx, mlir::Value x,
                                 mlir::RankedTensorType out) {
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  // Each of starts, ends and steps: known values (constants, or shapes
  // computed before), or a tensor read at run time.
  struct Operand {
    std::optional<std::vector<std::int64_t>> known;
    mlir::Value tensor;
    int64_t length = mlir::ShapedType::kDynamic;
  };
  auto operand = [&](int i) -> std::optional<Operand> {
    Operand o;
    if ((o.known = ctx.constantInts(i))) {
      o.length = int64_t(o.known->size());
      return o;
    }
    if (!(o.tensor = ctx.input(i)))
      return std::nullopt;
    auto vt = llvm::cast<mlir::RankedTensorType>(o.tensor.getType());
    if (vt.getRank() == 1)
      o.length = vt.getDimSize(0);
    return o;
  };
  auto starts = operand(1), ends = operand(2);
  if (!starts || !ends)
    return mlir::failure();
  int64_t n = starts->length;
  if (mlir::ShapedType::isDynamic(n) || ends->length != n)
    return ctx.fail("takes starts and ends of one static length");
  // The axes: 0 .. n-1 by default; read at run time, every dim may be one.
  std::optional<Operand> axes;
  if (ctx.hasInput(3)) {
    if (!(axes = operand(3)))
      return mlir::failure();
    if (axes->length != n)
      return ctx.fail("takes axes, one per start");
  }
  std::optional<Operand> steps;
  if (ctx.hasInput(4)) {
    if (!(steps = operand(4)))
      return mlir::failure();
    if (steps->length != n)
      return ctx.fail("takes steps, one per start");
  }
  auto element = [&](const Operand &o, int64_t i) -> mlir::Value {
    if (o.known)
      return indexConst(ctx, (*o.known)[i]);
    mlir::Value e = mlir::tensor::ExtractOp::create(
        b, loc, o.tensor, mlir::ValueRange{indexConst(ctx, i)});
    return mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), e);
  };
  auto cmp = [&](mlir::arith::CmpIPredicate p, mlir::Value l, mlir::Value r) {
    return mlir::arith::CmpIOp::create(b, loc, p, l, r).getResult();
  };
  auto select = [&](mlir::Value c, mlir::Value l, mlir::Value r) {
    return mlir::arith::SelectOp::create(b, loc, c, l, r).getResult();
  };
  auto clamp = [&](mlir::Value v, mlir::Value lo, mlir::Value hi) {
    return mlir::arith::MinSIOp::create(
        b, loc, mlir::arith::MaxSIOp::create(b, loc, v, lo), hi);
  };
  using P = mlir::arith::CmpIPredicate;
  llvm::SmallVector<mlir::Value> first(rank, indexConst(ctx, 0)),
      stride(rank, indexConst(ctx, 1)), counts;
  for (int64_t d = 0; d < rank; ++d)
    counts.push_back(ctx.dim(x, d));
  mlir::Value zero = indexConst(ctx, 0), one = indexConst(ctx, 1);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t axis = 0; axis < rank; ++axis) {
      // Whether slice i is along this dim: where the axes are known, only
      // that dim is visited; else each dim compares (a later slice of the same
      // dim wins, an axis out of range slices nothing).
      mlir::Value along;
      if (!axes || axes->known) {
        int64_t a = axes ? (*axes->known)[i] : i;
        if (a < -rank || a >= rank)
          return ctx.fail("axis " + llvm::Twine(a) + " is out of range");
        if ((a < 0 ? a + rank : a) != axis)
          continue;
      } else {
        mlir::Value a = element(*axes, i);
        a = select(
            cmp(P::slt, a, zero),
            mlir::arith::AddIOp::create(b, loc, a, indexConst(ctx, rank)), a);
        along = cmp(P::eq, a, indexConst(ctx, axis));
      }
      mlir::Value size = ctx.dim(x, axis);
      mlir::Value step = steps ? element(*steps, i) : one;
      // A step of 0 (an error in ONNX) is taken as 1: no division by zero.
      step = select(cmp(P::eq, step, zero), one, step);
      mlir::Value back = cmp(P::slt, step, zero);
      auto fromEnd = [&](mlir::Value v) {
        return select(cmp(P::slt, v, zero),
                      mlir::arith::AddIOp::create(b, loc, v, size), v);
      };
      mlir::Value last = mlir::arith::SubIOp::create(b, loc, size, one);
      mlir::Value begin = fromEnd(element(*starts, i));
      begin = select(back, clamp(begin, zero, last), clamp(begin, zero, size));
      mlir::Value end = fromEnd(element(*ends, i));
      end = select(back, clamp(end, indexConst(ctx, -1), last),
                   clamp(end, zero, size));
      // count = ceil((end - begin) / step), at least 0.
      mlir::Value span = mlir::arith::SubIOp::create(b, loc, end, begin);
      mlir::Value count = mlir::arith::MaxSIOp::create(
          b, loc, mlir::arith::CeilDivSIOp::create(b, loc, span, step), zero);
      if (along) {
        begin = select(along, begin, first[axis]);
        step = select(along, step, stride[axis]);
        count = select(along, count, counts[axis]);
      }
      first[axis] = begin;
      stride[axis] = step;
      counts[axis] = count;
    }
  llvm::SmallVector<int64_t> shape(rank, mlir::ShapedType::kDynamic);
  auto yType = mlir::RankedTensorType::get(shape, t.getElementType());
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  auto generic = mlir::linalg::GenericOp::create(
      b, loc, mlir::TypeRange{yType}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(yType, counts)},
      llvm::SmallVector<mlir::AffineMap>{identity},
      llvm::SmallVector<mlir::utils::IteratorType>(
          rank, mlir::utils::IteratorType::parallel),
      [&](mlir::OpBuilder &ib, mlir::Location l, mlir::ValueRange) {
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(mlir::arith::AddIOp::create(
              ib, l, first[d],
              mlir::arith::MulIOp::create(
                  ib, l, mlir::linalg::IndexOp::create(ib, l, d), stride[d])));
        mlir::linalg::YieldOp::create(
            ib, l,
            mlir::ValueRange{mlir::tensor::ExtractOp::create(ib, l, x, at)});
      });
  ctx.setOutput(0, ctx.castedTo(b, generic.getResult(0), out, "the slice"));
  return mlir::success();
}

mlir::LogicalResult slice(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  auto starts = ctx.constantInts(1), ends = ctx.constantInts(2);
  if (!starts || !ends || starts->size() != ends->size() ||
      (ctx.hasInput(3) && !ctx.constantInts(3)) ||
      (ctx.hasInput(4) && !ctx.constantInts(4)))
    return runtimeSlice(ctx, x, out);
  std::vector<std::int64_t> axes, steps(starts->size(), 1);
  for (std::size_t i = 0; i < starts->size(); ++i)
    axes.push_back(int64_t(i));
  if (ctx.hasInput(3)) {
    auto a = ctx.constantInts(3);
    if (!a || a->size() != starts->size())
      return ctx.fail("takes constant axes, one per start");
    axes = *a;
  }
  if (ctx.hasInput(4)) {
    auto s = ctx.constantInts(4);
    if (s->size() != starts->size())
      return ctx.fail("takes steps, one per start");
    steps = *s;
  }
  llvm::SmallVector<mlir::OpFoldResult> offsets(rank, ctx.b.getIndexAttr(0)),
      sizes, strides(rank, ctx.b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(t.isDynamicDim(d) ? mlir::OpFoldResult(ctx.dim(x, d))
                                      : ctx.b.getIndexAttr(t.getDimSize(d)));
  llvm::SmallVector<int64_t> reversed;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (axis < 0 || axis >= rank)
      return ctx.fail("axis " + llvm::Twine(axes[i]) + " is out of range");
    if (steps[i] == 0)
      return ctx.fail("takes non-zero steps");
    int64_t size = t.getDimSize(axis);
    if (steps[i] < 0) {
      if (mlir::ShapedType::isDynamic(size))
        return runtimeSlice(ctx, x, out);
      int64_t step = -steps[i];
      int64_t begin = (*starts)[i], end = (*ends)[i];
      begin =
          std::clamp<int64_t>(begin < 0 ? begin + size : begin, 0, size - 1);
      end = std::clamp<int64_t>(end < 0 ? end + size : end, -1, size - 1);
      int64_t count = begin > end ? (begin - end + step - 1) / step : 0;
      offsets[axis] =
          ctx.b.getIndexAttr(count ? begin - (count - 1) * step : 0);
      sizes[axis] = ctx.b.getIndexAttr(count);
      strides[axis] = ctx.b.getIndexAttr(step);
      reversed.push_back(axis);
      continue;
    }
    if (mlir::ShapedType::isDynamic(size)) {
      // The clamped extent is the output's, which shape inference gave.
      int64_t begin = (*starts)[i];
      if (out.isDynamicDim(axis) || begin < 0)
        return runtimeSlice(ctx, x, out);
      offsets[axis] = ctx.b.getIndexAttr(begin);
      sizes[axis] = ctx.b.getIndexAttr(out.getDimSize(axis));
      strides[axis] = ctx.b.getIndexAttr(steps[i]);
      continue;
    }
    auto clampIndex = [&](int64_t v) {
      if (v < 0)
        v += size;
      return std::clamp<int64_t>(v, 0, size);
    };
    int64_t begin = clampIndex((*starts)[i]), end = clampIndex((*ends)[i]);
    int64_t count = end > begin ? (end - begin + steps[i] - 1) / steps[i] : 0;
    offsets[axis] = ctx.b.getIndexAttr(begin);
    sizes[axis] = ctx.b.getIndexAttr(count);
    strides[axis] = ctx.b.getIndexAttr(steps[i]);
  }
  mlir::Value y = mlir::tensor::ExtractSliceOp::create(ctx.b, ctx.loc, x,
                                                       offsets, sizes, strides);
  if (!reversed.empty()) {
    auto yType = llvm::cast<mlir::RankedTensorType>(y.getType());
    mlir::MLIRContext *mctx = ctx.b.getContext();
    llvm::SmallVector<mlir::AffineExpr> read;
    llvm::SmallVector<mlir::Value> dims(rank);
    for (int64_t d = 0; d < rank; ++d) {
      mlir::AffineExpr e = mlir::getAffineDimExpr(d, mctx);
      read.push_back(
          llvm::is_contained(reversed, d) ? yType.getDimSize(d) - 1 - e : e);
      if (yType.isDynamicDim(d))
        dims[d] = ctx.dim(y, d);
    }
    auto generic = mlir::linalg::GenericOp::create(
        ctx.b, ctx.loc, mlir::TypeRange{yType}, mlir::ValueRange{y},
        mlir::ValueRange{ctx.empty(yType, dims)},
        llvm::SmallVector<mlir::AffineMap>{
            mlir::AffineMap::get(rank, 0, read, mctx),
            mlir::AffineMap::getMultiDimIdentityMap(rank, mctx)},
        llvm::SmallVector<mlir::utils::IteratorType>(
            rank, mlir::utils::IteratorType::parallel),
        [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
          mlir::linalg::YieldOp::create(b, loc, v[0]);
        });
    y = generic.getResult(0);
  }
  ctx.setOutput(0, y);
  return mlir::success();
}

/// Split along an axis into the node's outputs, by the constant sizes of
/// input 1 (or the attribute of older opsets), else in equal parts.
mlir::LogicalResult split(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  if (!x)
    return mlir::failure();
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  int64_t axis = ctx.intAttr("axis", 0);
  if (axis < 0)
    axis += rank;
  if (t.isDynamicDim(axis))
    return ctx.fail("splits a dynamic dim");
  std::vector<std::int64_t> parts;
  if (ctx.hasInput(1)) {
    auto given = ctx.constantInts(1);
    if (!given)
      return ctx.fail("takes constant split sizes");
    parts = *given;
  } else {
    int n = ctx.numOutputs();
    int64_t size = t.getDimSize(axis), each = (size + n - 1) / n;
    for (int i = 0; i < n; ++i)
      parts.push_back(std::min(each, size - each * i));
  }
  if (int(parts.size()) != ctx.numOutputs())
    return ctx.fail("has " + llvm::Twine(parts.size()) + " sizes for " +
                    llvm::Twine(ctx.numOutputs()) + " outputs");
  int64_t offset = 0;
  for (int i = 0; i < ctx.numOutputs(); ++i) {
    llvm::SmallVector<mlir::OpFoldResult> offsets(rank, ctx.b.getIndexAttr(0)),
        sizes, strides(rank, ctx.b.getIndexAttr(1));
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(t.isDynamicDim(d) ? mlir::OpFoldResult(ctx.dim(x, d))
                                        : ctx.b.getIndexAttr(t.getDimSize(d)));
    offsets[axis] = ctx.b.getIndexAttr(offset);
    sizes[axis] = ctx.b.getIndexAttr(parts[i]);
    offset += parts[i];
    if (!ctx.node().output(i).empty())
      ctx.setOutput(i, mlir::tensor::ExtractSliceOp::create(
                           ctx.b, ctx.loc, x, offsets, sizes, strides));
  }
  return mlir::success();
}

/// Gather along an axis: each output element reads the data at the index
/// its indices element gives (negative from the end).
mlir::LogicalResult gather(NodeContext &ctx) {
  mlir::Value data = ctx.input(0), indices = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!data || !indices || !out)
    return mlir::failure();
  auto dataType = llvm::cast<mlir::RankedTensorType>(data.getType());
  auto indexType = llvm::cast<mlir::RankedTensorType>(indices.getType());
  int64_t rank = dataType.getRank(), q = indexType.getRank();
  int64_t axis = ctx.intAttr("axis", 0);
  if (axis < 0)
    axis += rank;
  mlir::MLIRContext *mctx = ctx.b.getContext();
  int64_t outRank = out.getRank();
  llvm::SmallVector<mlir::AffineExpr> indexExprs;
  for (int64_t j = 0; j < q; ++j)
    indexExprs.push_back(mlir::getAffineDimExpr(axis + j, mctx));
  llvm::SmallVector<mlir::Value> dims(outRank);
  for (int64_t d = 0; d < outRank; ++d) {
    if (!out.isDynamicDim(d))
      continue;
    if (d < axis)
      dims[d] = ctx.dim(data, d);
    else if (d < axis + q)
      dims[d] = ctx.dim(indices, d - axis);
    else
      dims[d] = ctx.dim(data, d - q + 1);
  }
  mlir::Value axisSize = ctx.dim(data, axis);
  llvm::SmallVector<mlir::AffineMap> maps = {
      mlir::AffineMap::get(outRank, 0, indexExprs, mctx),
      mlir::AffineMap::getMultiDimIdentityMap(outRank, mctx)};
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      outRank, mlir::utils::IteratorType::parallel);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{indices},
      mlir::ValueRange{ctx.empty(out, dims)}, maps, iterators,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value i = wrappedIndex(b, loc, v[0], axisSize);
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < rank; ++d) {
          if (d == axis)
            at.push_back(i);
          else
            at.push_back(mlir::linalg::IndexOp::create(
                b, loc, d < axis ? d : d - 1 + q));
        }
        mlir::Value e = mlir::tensor::ExtractOp::create(b, loc, data, at);
        mlir::linalg::YieldOp::create(b, loc, e);
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// Pad, constant mode: a tensor.pad by the constant pads (begins, then
/// ends) with the constant value (0 by default).
mlir::LogicalResult pad(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  std::string mode = ctx.stringAttr("mode", "constant");
  if (mode != "constant")
    return ctx.fail("mode '" + mode + "' is not supported (constant is)");
  auto pads = ctx.constantInts(1);
  int64_t rank = out.getRank();
  if (!pads || int64_t(pads->size()) != 2 * rank)
    return ctx.fail("takes constant pads, two per dim");
  if (llvm::any_of(*pads, [](int64_t p) { return p < 0; }))
    return ctx.fail("takes no negative pads");
  mlir::Type element = out.getElementType();
  mlir::Value value = ctx.scalar(element, 0);
  if (ctx.hasInput(2)) {
    auto given = ctx.constantFloats(2);
    if (!given || given->size() != 1)
      return ctx.fail("takes a constant pad value");
    value = ctx.scalar(element, (*given)[0]);
  }
  llvm::SmallVector<mlir::OpFoldResult> low, high;
  for (int64_t d = 0; d < rank; ++d) {
    low.push_back(ctx.b.getIndexAttr((*pads)[d]));
    high.push_back(ctx.b.getIndexAttr((*pads)[rank + d]));
  }
  ctx.setOutput(
      0, mlir::tensor::PadOp::create(ctx.b, ctx.loc, out, x, low, high, value));
  return mlir::success();
}

/// Expand: broadcast to the output's shape.
mlir::LogicalResult expand(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  // A dynamic dim that the input broadcasts (size 1 there) takes its size
  // from the target shape, read at run time where it is not known before.
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  if (!out.hasStaticShape()) {
    std::optional<std::vector<std::int64_t>> shape = ctx.knownInts(1);
    int64_t offset = out.getRank() - int64_t(shape ? shape->size() : 0);
    for (int64_t d = 0; shape && d < out.getRank(); ++d) {
      if (!out.isDynamicDim(d) || d < offset)
        continue;
      int64_t v = (*shape)[std::size_t(d - offset)];
      if (v != kUnknownElement && v <= 1)
        continue;
      if (!(dims[d] = shapeElement(ctx, 1, *shape, d - offset)))
        return mlir::failure();
    }
  }
  mlir::Value result = elementwise(
      ctx, {x}, out,
      [](mlir::OpBuilder &, mlir::Location, mlir::ValueRange v, mlir::Type) {
        return v[0];
      },
      dims);
  if (!result)
    return mlir::failure();
  ctx.setOutput(0, result);
  return mlir::success();
}

/// Range: start + i * delta for i below max(ceil((limit - start) / delta),
/// 0), the count read from the output's type where it is static.
mlir::LogicalResult range(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  mlir::Value start = ctx.input(0), limit = ctx.input(1), delta = ctx.input(2);
  if (!out || !start || !limit || !delta)
    return mlir::failure();
  if (out.getRank() != 1)
    return ctx.fail("takes scalar start, limit and delta");
  mlir::Type element = out.getElementType();
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  auto scalarOf = [&](mlir::Value v) {
    return mlir::tensor::ExtractOp::create(b, loc, v, mlir::ValueRange{});
  };
  mlir::Value first = scalarOf(start), step = scalarOf(delta);
  llvm::SmallVector<mlir::Value> dims(1);
  if (out.isDynamicDim(0)) {
    mlir::Value last = scalarOf(limit);
    mlir::Value count;
    if (llvm::isa<mlir::FloatType>(element)) {
      mlir::Value q = mlir::arith::DivFOp::create(
          b, loc, mlir::arith::SubFOp::create(b, loc, last, first), step);
      q = mlir::math::CeilOp::create(b, loc, q);
      count = mlir::arith::FPToSIOp::create(b, loc, b.getI64Type(), q);
    } else {
      // Rounded up for either sign of delta.
      mlir::Value a = mlir::arith::SubIOp::create(b, loc, last, first);
      count = mlir::arith::CeilDivSIOp::create(b, loc, a, step);
      if (!element.isInteger(64))
        count = mlir::arith::ExtSIOp::create(b, loc, b.getI64Type(), count);
    }
    mlir::Value zero = mlir::arith::ConstantIntOp::create(b, loc, 0, 64);
    count = mlir::arith::MaxSIOp::create(b, loc, count, zero);
    dims[0] = mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
  }
  mlir::Value init = ctx.empty(out, dims);
  auto map = mlir::AffineMap::getMultiDimIdentityMap(1, b.getContext());
  auto generic = mlir::linalg::GenericOp::create(
      b, loc, mlir::TypeRange{out}, mlir::ValueRange{}, mlir::ValueRange{init},
      llvm::ArrayRef<mlir::AffineMap>{map},
      llvm::ArrayRef<mlir::utils::IteratorType>{
          mlir::utils::IteratorType::parallel},
      [&](mlir::OpBuilder &nb, mlir::Location nl, mlir::ValueRange) {
        mlir::Value i = mlir::linalg::IndexOp::create(nb, nl, 0);
        mlir::Value r;
        if (llvm::isa<mlir::FloatType>(element)) {
          mlir::Value n =
              mlir::arith::IndexCastOp::create(nb, nl, nb.getI64Type(), i);
          n = mlir::arith::SIToFPOp::create(nb, nl, element, n);
          r = mlir::arith::AddFOp::create(
              nb, nl, first, mlir::arith::MulFOp::create(nb, nl, n, step));
        } else {
          mlir::Value n = mlir::arith::IndexCastOp::create(nb, nl, element, i);
          r = mlir::arith::AddIOp::create(
              nb, nl, first, mlir::arith::MulIOp::create(nb, nl, n, step));
        }
        mlir::linalg::YieldOp::create(nb, nl, r);
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

mlir::LogicalResult constantOfShape(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  if (!out.hasStaticShape()) {
    std::optional<std::vector<std::int64_t>> shape = ctx.knownInts(0);
    if (!shape || int64_t(shape->size()) != out.getRank())
      return ctx.fail("takes a shape of known length");
    for (int64_t d = 0; d < out.getRank(); ++d)
      if (out.isDynamicDim(d) && !(dims[d] = shapeElement(ctx, 0, *shape, d)))
        return mlir::failure();
  }
  double value = 0;
  if (const onnx::AttributeProto *a = ctx.attr("value")) {
    const onnx::TensorProto &t = a->t();
    if (t.float_data_size())
      value = t.float_data(0);
    else if (t.int64_data_size())
      value = double(t.int64_data(0));
    else if (t.int32_data_size())
      value = t.int32_data(0);
    else if (t.has_raw_data() && !t.raw_data().empty()) {
      const std::string &raw = t.raw_data();
      switch (t.data_type()) {
      case onnx::TensorProto::FLOAT: {
        float f;
        std::memcpy(&f, raw.data(), 4);
        value = f;
        break;
      }
      case onnx::TensorProto::INT64: {
        std::int64_t i;
        std::memcpy(&i, raw.data(), 8);
        value = double(i);
        break;
      }
      case onnx::TensorProto::INT32: {
        std::int32_t i;
        std::memcpy(&i, raw.data(), 4);
        value = i;
        break;
      }
      case onnx::TensorProto::BOOL:
      case onnx::TensorProto::INT8:
        value = raw[0];
        break;
      default:
        return ctx.fail("takes a value of float, int32, int64, int8 or bool");
      }
    }
  }
  ctx.setOutput(0,
                ctx.filled(out, ctx.scalar(out.getElementType(), value), dims));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> shapeConverters() {
  return {
      {"Reshape", reshapeOp, {1}},
      {"Flatten", regroup},
      {"Squeeze", regroup, {1}},
      {"Unsqueeze", regroup, {1}},
      {"Transpose", transpose},
      {"Concat", concat},
      {"Shape", shape},
      {"Size", size},
      {"DepthToSpace", blocksMoved<true>},
      {"SpaceToDepth", blocksMoved<false>},
      {"Slice", slice, {1, 2, 3, 4}},
      {"Split", split, {1}},
      {"Gather", gather},
      {"Expand", expand, {1}},
      {"Pad", pad, {1, 2, 3}},
      {"ConstantOfShape", constantOfShape, {0}},
      {"Range", range},
      {"Dropout",
       [](NodeContext &ctx) -> mlir::LogicalResult {
         // Only inference: training_mode (input 2) absent or a constant
         // false, or a ratio (input 1) of a constant 0. Dropping at random
         // is not done, so it is refused rather than computed as
         // inference.
         std::optional<std::vector<double>> ratio = ctx.constantFloats(1);
         bool keepsAll = ratio && ratio->size() == 1 && (*ratio)[0] == 0;
         if (ctx.hasInput(2) && !keepsAll) {
           std::optional<std::string> mode = ctx.constantBytes(2);
           if (!mode)
             return ctx.fail("takes training_mode as a constant (only "
                             "inference is supported: nothing dropped)");
           if (llvm::any_of(*mode, [](char c) { return c != 0; }))
             return ctx.fail("training_mode true is not supported (only "
                             "inference: nothing dropped)");
         }
         mlir::Value x = ctx.input(0);
         if (!x)
           return mlir::failure();
         ctx.setOutput(0, x);
         // In inference nothing is dropped: the mask is all true.
         if (ctx.numOutputs() > 1 && !ctx.node().output(1).empty()) {
           mlir::RankedTensorType mask = ctx.outputType(1);
           if (!mask)
             return mlir::failure();
           llvm::SmallVector<mlir::Value> dims(mask.getRank());
           for (int64_t d = 0; d < mask.getRank(); ++d)
             if (mask.isDynamicDim(d))
               dims[d] = ctx.dim(x, d);
           ctx.setOutput(
               1, ctx.filled(mask, ctx.scalar(mask.getElementType(), 1), dims));
         }
         return mlir::success();
       },
       {1, 2}},
  };
}

} // namespace aot::onnx_import
