//===- OnnxSequence.cpp - sequences and optionals, resolved at import -----===//
//
// A compiled function takes and returns tensors, so a sequence lives only
// inside a graph, where the importer holds it as the list of its elements'
// values: SequenceConstruct, SequenceEmpty, SequenceInsert, SequenceErase
// and SplitToSequence make lists, SequenceAt, SequenceLength and
// ConcatFromSequence read them, and SequenceMap imports its body once per
// element. An optional is a list of no element or one. What changes a list
// needs its position known at import (a constant); SequenceAt may read a
// position computed at run time among elements of one type. A sequence a
// graph takes or returns, or a loop carries, is refused at its node.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

namespace aot::onnx_import {

namespace {

// In a unity build a file before this one may declare an indexConst of its
// own in this anonymous namespace, which would hide the shared one.
using onnx_import::indexConst;

/// The constant position of input `i` in a list of `size` (an insertion
/// may also name the end), counted from the end when negative; `otherwise`
/// where the input is not given. Nullopt after an error.
std::optional<int64_t> positionOf(NodeContext &ctx, int i, int64_t size,
                                  bool inserting, int64_t otherwise) {
  if (!ctx.hasInput(i))
    return otherwise;
  auto given = ctx.constantInts(i);
  if (!given || given->size() != 1) {
    (void)ctx.fail("takes its position as a constant");
    return std::nullopt;
  }
  int64_t p = (*given)[0], limit = inserting ? size : size - 1;
  if (p < -size || p > limit) {
    (void)ctx.fail("position " + llvm::Twine(p) +
                   " is outside its sequence of " + llvm::Twine(size));
    return std::nullopt;
  }
  return p < 0 ? p + size : p;
}

/// A rank-0 tensor constant.
mlir::Value scalarTensor(NodeContext &ctx, mlir::Type type, int64_t v) {
  auto t = mlir::RankedTensorType::get({}, type);
  return mlir::arith::ConstantOp::create(
      ctx.b, ctx.loc, t,
      mlir::DenseElementsAttr::get(t, ctx.b.getIntegerAttr(type, v)));
}

mlir::LogicalResult sequenceConstruct(NodeContext &ctx) {
  std::vector<mlir::Value> elements;
  for (int i = 0; i < ctx.node().input_size(); ++i) {
    mlir::Value v = ctx.input(i);
    if (!v)
      return mlir::failure();
    elements.push_back(v);
  }
  ctx.setSequenceOutput(0, std::move(elements));
  return mlir::success();
}

mlir::LogicalResult sequenceEmpty(NodeContext &ctx) {
  ctx.setSequenceOutput(0, {});
  return mlir::success();
}

mlir::LogicalResult sequenceInsert(NodeContext &ctx) {
  const std::vector<mlir::Value> *seq = ctx.sequenceInput(0);
  mlir::Value v = ctx.input(1);
  if (!seq || !v)
    return mlir::failure();
  int64_t n = seq->size();
  auto at = positionOf(ctx, 2, n, true, n);
  if (!at)
    return mlir::failure();
  std::vector<mlir::Value> elements(*seq);
  elements.insert(elements.begin() + *at, v);
  ctx.setSequenceOutput(0, std::move(elements));
  return mlir::success();
}

mlir::LogicalResult sequenceErase(NodeContext &ctx) {
  const std::vector<mlir::Value> *seq = ctx.sequenceInput(0);
  if (!seq)
    return mlir::failure();
  int64_t n = seq->size();
  if (n == 0)
    return ctx.fail("erases from an empty sequence");
  auto at = positionOf(ctx, 1, n, false, n - 1);
  if (!at)
    return mlir::failure();
  std::vector<mlir::Value> elements(*seq);
  elements.erase(elements.begin() + *at);
  ctx.setSequenceOutput(0, std::move(elements));
  return mlir::success();
}

mlir::LogicalResult sequenceLength(NodeContext &ctx) {
  const std::vector<mlir::Value> *seq = ctx.sequenceInput(0);
  if (!seq)
    return mlir::failure();
  ctx.setOutput(0, scalarTensor(ctx, ctx.b.getI64Type(), seq->size()));
  return mlir::success();
}

/// SequenceAt: the element at a constant position, or at one read at run
/// time, chosen among elements of the output's type (a position outside
/// the sequence reads its last element).
mlir::LogicalResult sequenceAt(NodeContext &ctx) {
  const std::vector<mlir::Value> *seq = ctx.sequenceInput(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!seq || !out)
    return mlir::failure();
  int64_t n = seq->size();
  if (n == 0)
    return ctx.fail("reads an empty sequence");
  if (auto given = ctx.constantInts(1)) {
    auto at = positionOf(ctx, 1, n, false, 0);
    if (!at)
      return mlir::failure();
    ctx.setOutput(0, (*seq)[*at]);
    return mlir::success();
  }
  llvm::SmallVector<mlir::Value> elements;
  for (auto [k, e] : llvm::enumerate(*seq)) {
    mlir::Value v = ctx.castedTo(
        ctx.b, e, out, "element " + llvm::Twine(k) + " of " + "the sequence");
    if (!v)
      return mlir::failure();
    elements.push_back(v);
  }
  mlir::Value p = scalarOperand(ctx, 1, ctx.b.getIndexType(), "position");
  if (!p)
    return mlir::failure();
  mlir::Value count = indexConst(ctx.b, ctx.loc, n);
  p = mlir::arith::SelectOp::create(
      ctx.b, ctx.loc,
      mlir::arith::CmpIOp::create(ctx.b, ctx.loc,
                                  mlir::arith::CmpIPredicate::slt, p,
                                  indexConst(ctx.b, ctx.loc, 0)),
      mlir::arith::AddIOp::create(ctx.b, ctx.loc, p, count), p);
  // The last element unless an earlier one is named: a chain of selects.
  mlir::Value chosen = elements.back();
  for (int64_t k = n - 2; k >= 0; --k)
    chosen = mlir::arith::SelectOp::create(
        ctx.b, ctx.loc,
        mlir::arith::CmpIOp::create(ctx.b, ctx.loc,
                                    mlir::arith::CmpIPredicate::eq, p,
                                    indexConst(ctx.b, ctx.loc, k)),
        elements[k], chosen);
  ctx.setOutput(0, chosen);
  return mlir::success();
}

/// SplitToSequence: parts along `axis` of the constant sizes of `split`
/// (a list, or one size for every part, the last taking what is left),
/// else parts of one, without the axis where keepdims is 0.
mlir::LogicalResult splitToSequence(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  if (!x)
    return mlir::failure();
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = t.getRank();
  auto axis = axisOf(ctx, ctx.intAttr("axis", 0), rank);
  if (!axis)
    return mlir::failure();
  int64_t size = t.getDimSize(*axis);
  if (mlir::ShapedType::isDynamic(size))
    return ctx.fail("splits a dynamic dim");
  std::vector<int64_t> parts;
  bool keepDims = true;
  if (ctx.hasInput(1)) {
    auto split = ctx.constantInts(1);
    if (!split)
      return ctx.fail("takes constant split sizes");
    auto splitType = ctx.inputType(1);
    if (splitType && splitType.getRank() == 0) {
      if ((*split)[0] < 1)
        return ctx.fail("takes a split size of 1 or more");
      for (int64_t at = 0; at < size; at += (*split)[0])
        parts.push_back(std::min((*split)[0], size - at));
    } else {
      parts = *split;
      int64_t sum = 0;
      for (int64_t p : parts) {
        if (p < 0)
          return ctx.fail("takes split sizes of 0 or more");
        sum += p;
      }
      if (sum != size)
        return ctx.fail("its split sizes add up to " + llvm::Twine(sum) +
                        ", not the dim's " + llvm::Twine(size));
    }
  } else {
    parts.assign(size, 1);
    keepDims = ctx.intAttr("keepdims", 1) != 0;
  }
  std::vector<mlir::Value> elements;
  int64_t offset = 0;
  for (int64_t p : parts) {
    llvm::SmallVector<mlir::OpFoldResult> offsets(rank, ctx.b.getIndexAttr(0)),
        sizes, strides(rank, ctx.b.getIndexAttr(1));
    llvm::SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d) {
      bool along = d == *axis;
      sizes.push_back(
          along ? mlir::OpFoldResult(ctx.b.getIndexAttr(p))
          : t.isDynamicDim(d)
              ? mlir::OpFoldResult(ctx.dim(x, d))
              : mlir::OpFoldResult(ctx.b.getIndexAttr(t.getDimSize(d))));
      if (!along || keepDims)
        shape.push_back(along ? p : t.getDimSize(d));
    }
    offsets[*axis] = ctx.b.getIndexAttr(offset);
    auto partType = mlir::RankedTensorType::get(shape, t.getElementType());
    elements.push_back(mlir::tensor::ExtractSliceOp::create(
        ctx.b, ctx.loc, partType, x, offsets, sizes, strides));
    offset += p;
  }
  ctx.setSequenceOutput(0, std::move(elements));
  return mlir::success();
}

/// ConcatFromSequence: the elements joined along `axis`, each first given a
/// new dim of 1 there where new_axis is 1 (stacked).
mlir::LogicalResult concatFromSequence(NodeContext &ctx) {
  const std::vector<mlir::Value> *seq = ctx.sequenceInput(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!seq || !out)
    return mlir::failure();
  if (seq->empty())
    return ctx.fail("joins an empty sequence");
  if (!ctx.hasAttr("axis"))
    return ctx.fail("needs its axis attribute");
  const bool stacked = ctx.intAttr("new_axis", 0) != 0;
  int64_t rank =
      llvm::cast<mlir::RankedTensorType>(seq->front().getType()).getRank();
  auto axis = axisOf(ctx, ctx.intAttr("axis", 0), rank + (stacked ? 1 : 0));
  if (!axis)
    return mlir::failure();
  llvm::SmallVector<mlir::Value> parts;
  for (mlir::Value e : *seq) {
    auto t = llvm::cast<mlir::RankedTensorType>(e.getType());
    if (t.getRank() != rank || t.getElementType() != out.getElementType())
      return ctx.fail("joins elements of one rank and type: " +
                      typeText(seq->front().getType()) + " and " + typeText(t));
    if (stacked) {
      llvm::SmallVector<int64_t> shape(t.getShape());
      shape.insert(shape.begin() + *axis, 1);
      llvm::SmallVector<mlir::ReassociationIndices> groups;
      for (int64_t d = 0; d < rank; ++d) {
        mlir::ReassociationIndices g = {d + (d >= *axis ? 1 : 0)};
        if (d == *axis)
          g.insert(g.begin(), d);
        groups.push_back(g);
      }
      if (rank == 0)
        groups.clear();
      else if (*axis == rank)
        groups.back().push_back(rank);
      llvm::SmallVector<mlir::OpFoldResult> outSizes;
      for (int64_t d = 0; d <= rank; ++d) {
        int64_t from = d < *axis ? d : d - 1;
        outSizes.push_back(
            d == *axis ? mlir::OpFoldResult(ctx.b.getIndexAttr(1))
            : t.isDynamicDim(from)
                ? mlir::OpFoldResult(ctx.dim(e, from))
                : mlir::OpFoldResult(ctx.b.getIndexAttr(t.getDimSize(from))));
      }
      e = mlir::tensor::ExpandShapeOp::create(
          ctx.b, ctx.loc,
          mlir::RankedTensorType::get(shape, t.getElementType()), e, groups,
          outSizes);
    }
    parts.push_back(e);
  }
  mlir::Value y =
      parts.size() == 1
          ? parts.front()
          : mlir::tensor::ConcatOp::create(ctx.b, ctx.loc, *axis, parts)
                .getResult();
  ctx.setOutput(0, y);
  return mlir::success();
}

/// SequenceMap: the body imported once per element, given element k of
/// each sequence input and each tensor input as it is; its outputs make
/// the output sequences.
mlir::LogicalResult sequenceMap(NodeContext &ctx) {
  const onnx::AttributeProto *body = ctx.attr("body");
  if (!body || !body->has_g())
    return ctx.fail("needs its body graph");
  const std::vector<mlir::Value> *first = ctx.sequenceInput(0);
  if (!first)
    return mlir::failure();
  int64_t n = first->size();
  // Each input: a sequence (of n elements) or a tensor.
  std::vector<const std::vector<mlir::Value> *> sequences;
  std::vector<mlir::Value> tensors;
  for (int i = 0; i < ctx.node().input_size(); ++i) {
    const std::vector<mlir::Value> *seq =
        i == 0 ? first
               : (ctx.inputIsSequence(i) ? ctx.sequenceInput(i) : nullptr);
    mlir::Value v = seq ? mlir::Value() : ctx.input(i);
    if (!seq && !v)
      return mlir::failure();
    if (seq && int64_t(seq->size()) != n)
      return ctx.fail("maps sequences of " + llvm::Twine(n) + " and " +
                      llvm::Twine(seq->size()) + " elements");
    sequences.push_back(seq);
    tensors.push_back(v);
  }
  mlir::Block *block = ctx.b.getInsertionBlock();
  if (ctx.b.getInsertionPoint() != block->end())
    return ctx.fail("internal error: not importing at the end of a block");
  std::vector<std::vector<mlir::Value>> outputs(ctx.numOutputs());
  for (int64_t k = 0; k < n; ++k) {
    llvm::SmallVector<mlir::Value> args;
    for (std::size_t i = 0; i < sequences.size(); ++i)
      args.push_back(sequences[i] ? (*sequences[i])[k] : tensors[i]);
    llvm::SmallVector<mlir::Value> results;
    if (mlir::failed(ctx.importSubgraph(body->g(), block, args, results)))
      return mlir::failure();
    if (int(results.size()) != ctx.numOutputs())
      return ctx.fail("its body has " + llvm::Twine(results.size()) +
                      " outputs; the node " + llvm::Twine(ctx.numOutputs()));
    ctx.b.setInsertionPointToEnd(block);
    for (std::size_t o = 0; o < results.size(); ++o)
      outputs[o].push_back(results[o]);
  }
  for (int o = 0; o < ctx.numOutputs(); ++o)
    ctx.setSequenceOutput(o, std::move(outputs[o]));
  return mlir::success();
}

mlir::LogicalResult optional(NodeContext &ctx) {
  if (!ctx.hasInput(0)) {
    ctx.setSequenceOutput(0, {});
    return mlir::success();
  }
  mlir::Value v = ctx.input(0);
  if (!v)
    return mlir::failure();
  ctx.setSequenceOutput(0, {v});
  return mlir::success();
}

mlir::LogicalResult optionalHasElement(NodeContext &ctx) {
  const std::vector<mlir::Value> *opt = ctx.sequenceInput(0);
  if (!opt)
    return mlir::failure();
  ctx.setOutput(0, scalarTensor(ctx, ctx.b.getI1Type(), opt->empty() ? 0 : 1));
  return mlir::success();
}

mlir::LogicalResult optionalGetElement(NodeContext &ctx) {
  const std::vector<mlir::Value> *opt = ctx.sequenceInput(0);
  if (!opt)
    return mlir::failure();
  if (opt->size() != 1)
    return ctx.fail("reads an optional that holds no value");
  ctx.setOutput(0, opt->front());
  return mlir::success();
}

} // namespace

std::vector<OpConverter> sequenceConverters() {
  return {{"SequenceConstruct", sequenceConstruct},
          {"SequenceEmpty", sequenceEmpty},
          {"SequenceInsert", sequenceInsert, {2}},
          {"SequenceErase", sequenceErase, {1}},
          {"SequenceLength", sequenceLength},
          {"SequenceAt", sequenceAt},
          {"SplitToSequence", splitToSequence, {1}},
          {"ConcatFromSequence", concatFromSequence},
          {"SequenceMap", sequenceMap},
          {"Optional", optional},
          {"OptionalHasElement", optionalHasElement},
          {"OptionalGetElement", optionalGetElement}};
}

} // namespace aot::onnx_import
