//===- OnnxControl.cpp - If, Loop and Scan: subgraphs as regions ----------===//
//
// A branch or a loop body is a subgraph, converted by an importer of its
// own into the region of an scf op; what it reads of the graphs around it
// it finds there by name. The values an op carries out of its regions take
// the node's output types (shape inference's, dynamic where branches or
// iterations differ), cast to from what each region makes.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxNode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <string>
#include <tuple>

namespace aot::onnx_import {

namespace {

/// The graph attribute `name` of the node; null after an error.
const onnx::GraphProto *graphAttr(NodeContext &ctx, llvm::StringRef name) {
  const onnx::AttributeProto *a = ctx.attr(name);
  if (!a || !a->has_g())
    return (void)ctx.fail("has no graph attribute '" + name + "'"), nullptr;
  return &a->g();
}

/// The single element of input `i` (a boolean or integer scalar, or a
/// tensor of one element); null after an error.
mlir::Value scalarInput(NodeContext &ctx, int i, llvm::StringRef what) {
  mlir::RankedTensorType t = ctx.inputType(i);
  mlir::Value v = ctx.input(i);
  if (!t || !v)
    return nullptr;
  if (!t.hasStaticShape() || t.getNumElements() != 1)
    return (void)ctx.fail(what + " must hold one element"), nullptr;
  llvm::SmallVector<mlir::Value> zeros(
      t.getRank(), mlir::arith::ConstantIndexOp::create(ctx.b, ctx.loc, 0));
  return mlir::tensor::ExtractOp::create(ctx.b, ctx.loc, v, zeros);
}

/// If: an scf.if whose two regions are the branches.
mlir::LogicalResult ifOp(NodeContext &ctx) {
  const onnx::GraphProto *thenGraph = graphAttr(ctx, "then_branch");
  const onnx::GraphProto *elseGraph = graphAttr(ctx, "else_branch");
  if (!thenGraph || !elseGraph)
    return mlir::failure();
  mlir::Value cond = scalarInput(ctx, 0, "the condition");
  if (!cond)
    return mlir::failure();
  if (!cond.getType().isInteger(1))
    return ctx.fail("takes a bool condition");
  llvm::SmallVector<mlir::Type> types;
  for (int i = 0; i < ctx.numOutputs(); ++i) {
    mlir::RankedTensorType t = ctx.outputType(i);
    if (!t)
      return mlir::failure();
    types.push_back(t);
  }
  auto op = mlir::scf::IfOp::create(ctx.b, ctx.loc, types, cond,
                                    /*withElseRegion=*/true);
  for (auto [graph, region, name] :
       {std::tuple(thenGraph, &op.getThenRegion(), "then_branch"),
        std::tuple(elseGraph, &op.getElseRegion(), "else_branch")}) {
    mlir::Block *block = &region->front();
    llvm::SmallVector<mlir::Value> results;
    if (mlir::failed(ctx.importSubgraph(*graph, block, {}, results)))
      return mlir::failure();
    if (results.size() != types.size())
      return ctx.fail(llvm::Twine(name) + " has " +
                      llvm::Twine(results.size()) + " outputs; the node " +
                      llvm::Twine(types.size()));
    mlir::OpBuilder b = mlir::OpBuilder::atBlockEnd(block);
    for (std::size_t i = 0; i < results.size(); ++i)
      if (!(results[i] =
                ctx.castedTo(b, results[i], types[i],
                             llvm::Twine(name) + " output " + llvm::Twine(i))))
        return mlir::failure();
    mlir::scf::YieldOp::create(b, ctx.loc, results);
  }
  for (int i = 0; i < ctx.numOutputs(); ++i)
    ctx.setOutput(i, op.getResult(i));
  return mlir::success();
}

/// `v` (a scalar) as a rank-0 tensor.
mlir::Value asTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v) {
  return mlir::tensor::FromElementsOp::create(
      b, loc, mlir::RankedTensorType::get({}, v.getType()),
      mlir::ValueRange{v});
}

/// `buffer` (a scan output's, of room for its dim 0) with `e` written at
/// position `i` (the iteration): where it is full, first moved into one of
/// twice the room (at least one), the element dims then taken from `e`.
mlir::Value appended(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer,
                     mlir::Value e, mlir::Value i) {
  auto type = llvm::cast<mlir::RankedTensorType>(buffer.getType());
  int64_t rank = type.getRank();
  mlir::Value one = mlir::arith::ConstantIndexOp::create(b, loc, 1);
  mlir::Value room = mlir::tensor::DimOp::create(b, loc, buffer, 0);
  mlir::Value full = mlir::arith::CmpIOp::create(
      b, loc, mlir::arith::CmpIPredicate::eq, i, room);
  // Sizes of `n` elements of `buffer`'s element shape (dims from `like`).
  auto sizesOf = [&](mlir::OpBuilder &b, mlir::OpFoldResult n, mlir::Value like,
                     int64_t first) {
    llvm::SmallVector<mlir::OpFoldResult> sizes = {n};
    for (int64_t d = 1; d < rank; ++d)
      sizes.push_back(
          type.isDynamicDim(d)
              ? mlir::OpFoldResult(
                    mlir::tensor::DimOp::create(b, loc, like, d - first)
                        .getResult())
              : mlir::OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
    return sizes;
  };
  llvm::SmallVector<mlir::OpFoldResult> zeros(rank, b.getIndexAttr(0)),
      strides(rank, b.getIndexAttr(1));
  auto grown = mlir::scf::IfOp::create(
      b, loc, full,
      [&](mlir::OpBuilder &t, mlir::Location l) {
        mlir::Value twice = mlir::arith::MaxUIOp::create(
            t, l,
            mlir::arith::MulIOp::create(
                t, l, room, mlir::arith::ConstantIndexOp::create(t, l, 2)),
            one);
        llvm::SmallVector<mlir::Value> dynamic = {twice};
        for (int64_t d = 1; d < rank; ++d)
          if (type.isDynamicDim(d))
            dynamic.push_back(mlir::tensor::DimOp::create(t, l, e, d - 1));
        mlir::Value bigger = mlir::tensor::EmptyOp::create(t, l, type, dynamic);
        llvm::SmallVector<mlir::OpFoldResult> old = sizesOf(t, i, buffer, 0);
        mlir::Value kept = mlir::tensor::ExtractSliceOp::create(
            t, l, buffer, zeros, old, strides);
        mlir::scf::YieldOp::create(t, l,
                                   mlir::tensor::InsertSliceOp::create(
                                       t, l, kept, bigger, zeros, old, strides)
                                       .getResult());
      },
      [&](mlir::OpBuilder &o, mlir::Location l) {
        mlir::scf::YieldOp::create(o, l, buffer);
      });
  // `e` as one element of the buffer's shape, written at i.
  llvm::SmallVector<mlir::OpFoldResult> at(rank, b.getIndexAttr(0));
  at[0] = i;
  llvm::SmallVector<mlir::OpFoldResult> single =
      sizesOf(b, b.getIndexAttr(1), e, 1);
  llvm::SmallVector<mlir::ReassociationIndices> groups;
  for (int64_t d = 1; d < rank; ++d)
    groups.push_back({d});
  if (!groups.empty())
    groups[0].insert(groups[0].begin(), 0);
  llvm::SmallVector<int64_t> shape(type.getShape());
  shape[0] = 1;
  mlir::Value element = mlir::tensor::ExpandShapeOp::create(
      b, loc, mlir::RankedTensorType::get(shape, type.getElementType()), e,
      groups, single);
  return mlir::tensor::InsertSliceOp::create(
      b, loc, element, grown.getResult(0), at, single, strides);
}

/// Where `type`, a value a subgraph input `declared` is given, cannot be
/// what it declares (another rank, or a static dim that differs), why; else
/// empty. Left unchecked, the value would be cast to the declared type in
/// the body, and read with the wrong dims.
std::string misfit(mlir::RankedTensorType type,
                   const onnx::ValueInfoProto &declared) {
  if (!declared.type().has_tensor_type() ||
      !declared.type().tensor_type().has_shape())
    return "";
  const onnx::TensorShapeProto &shape = declared.type().tensor_type().shape();
  std::string dims;
  bool fits = shape.dim_size() == type.getRank();
  for (int d = 0; d < shape.dim_size(); ++d) {
    const bool known = shape.dim(d).has_dim_value();
    dims += (d ? "x" : "") +
            (known ? std::to_string(shape.dim(d).dim_value()) : "?");
    if (fits && known && !type.isDynamicDim(d) &&
        type.getDimSize(d) != shape.dim(d).dim_value())
      fits = false;
  }
  if (fits)
    return "";
  std::string given;
  llvm::raw_string_ostream os(given);
  os << type;
  return "its body declares input '" + declared.name() + "' with dims " + dims +
         "; the loop gives it " + given;
}

/// Loop(M?, cond?, v_initial...): an scf.while carrying the iteration
/// number, the condition and the loop-carried values (of the node's output
/// types); it runs while the condition holds and fewer than M iterations
/// (where given) have run. Each scan output is collected in a buffer
/// carried after them, doubled when full, and cut to the iterations run.
mlir::LogicalResult loopOp(NodeContext &ctx) {
  const onnx::GraphProto *body = graphAttr(ctx, "body");
  if (!body)
    return mlir::failure();
  int carried = ctx.node().input_size() - 2;
  if (carried < 0)
    return ctx.fail("takes the inputs M and cond (either may be empty)");
  int scans = ctx.numOutputs() - carried;
  if (scans < 0)
    return ctx.fail("has " + llvm::Twine(ctx.numOutputs()) + " outputs for " +
                    llvm::Twine(carried) + " loop-carried values");
  if (body->output_size() != 1 + carried + scans)
    return ctx.fail("its body has " + llvm::Twine(body->output_size()) +
                    " outputs; a condition, " + llvm::Twine(carried) +
                    " loop-carried values and " + llvm::Twine(scans) +
                    " scan outputs were expected");
  if (body->input_size() != 2 + carried)
    return ctx.fail("its body has " + llvm::Twine(body->input_size()) +
                    " inputs; the iteration number, the condition and " +
                    llvm::Twine(carried) +
                    " loop-carried values were expected");
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  mlir::Value trips;
  if (ctx.hasInput(0) && !(trips = scalarInput(ctx, 0, "M")))
    return mlir::failure();
  mlir::Value cond =
      mlir::arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  if (ctx.hasInput(1) && !(cond = scalarInput(ctx, 1, "cond")))
    return mlir::failure();
  if (!cond.getType().isInteger(1) || (trips && !trips.getType().isInteger(64)))
    return ctx.fail("takes an int64 M and a bool cond");
  llvm::SmallVector<mlir::Value> inits = {
      mlir::arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0)), cond};
  llvm::SmallVector<mlir::Type> types = {b.getI64Type(), b.getI1Type()};
  for (int i = 0; i < carried; ++i) {
    mlir::RankedTensorType t = ctx.outputType(i);
    mlir::Value v = ctx.input(i + 2);
    if (!t || !v)
      return mlir::failure();
    if (auto given = llvm::dyn_cast<mlir::RankedTensorType>(v.getType()))
      if (std::string why = misfit(given, body->input(i + 2)); !why.empty())
        return ctx.fail("loop-carried value " + llvm::Twine(i) + ": " + why);
    if (!(v = ctx.castedTo(b, v, t, "loop-carried value " + llvm::Twine(i))))
      return mlir::failure();
    inits.push_back(v);
    types.push_back(t);
  }
  // Each scan output collects into a buffer carried after the values: of
  // the output's type with a dynamic length, no room at first, the element
  // dims the output's where known (else 0 until the first element).
  llvm::SmallVector<mlir::RankedTensorType> elements;
  for (int k = 0; k < scans; ++k) {
    mlir::RankedTensorType t = ctx.outputType(carried + k);
    if (!t)
      return mlir::failure();
    if (t.getRank() == 0)
      return ctx.fail("its scan output " + llvm::Twine(k) + " is a scalar");
    elements.push_back(mlir::RankedTensorType::get(t.getShape().drop_front(),
                                                   t.getElementType()));
    llvm::SmallVector<int64_t> shape(t.getShape());
    shape[0] = mlir::ShapedType::kDynamic;
    auto buffer = mlir::RankedTensorType::get(shape, t.getElementType());
    llvm::SmallVector<mlir::Value> dims;
    for (int64_t d = 0; d < buffer.getRank(); ++d)
      if (buffer.isDynamicDim(d))
        dims.push_back(mlir::arith::ConstantIndexOp::create(b, loc, 0));
    inits.push_back(mlir::tensor::EmptyOp::create(b, loc, buffer, dims));
    types.push_back(buffer);
  }
  llvm::SmallVector<mlir::Location> locs(types.size(), loc);
  auto op = mlir::scf::WhileOp::create(b, loc, types, inits);
  {
    mlir::Block *before = b.createBlock(&op.getBefore(), {}, types, locs);
    mlir::OpBuilder in = mlir::OpBuilder::atBlockEnd(before);
    mlir::Value go = before->getArgument(1);
    if (trips)
      go = mlir::arith::AndIOp::create(
          in, loc, go,
          mlir::arith::CmpIOp::create(in, loc, mlir::arith::CmpIPredicate::slt,
                                      before->getArgument(0), trips));
    mlir::scf::ConditionOp::create(in, loc, go, before->getArguments());
  }
  mlir::Block *after = b.createBlock(&op.getAfter(), {}, types, locs);
  b.setInsertionPointAfter(op);
  mlir::OpBuilder in = mlir::OpBuilder::atBlockEnd(after);
  llvm::SmallVector<mlir::Value> args = {
      asTensor(in, loc, after->getArgument(0)),
      asTensor(in, loc, after->getArgument(1))};
  for (int i = 0; i < carried; ++i)
    args.push_back(after->getArgument(i + 2));
  llvm::SmallVector<mlir::Value> results;
  if (mlir::failed(ctx.importSubgraph(*body, after, args, results)))
    return mlir::failure();
  in.setInsertionPointToEnd(after);
  auto condType = llvm::dyn_cast<mlir::RankedTensorType>(results[0].getType());
  if (!condType || !condType.hasStaticShape() ||
      condType.getNumElements() != 1 || !condType.getElementType().isInteger(1))
    return ctx.fail("its body's condition must be one bool");
  llvm::SmallVector<mlir::Value> zeros(
      condType.getRank(), mlir::arith::ConstantIndexOp::create(in, loc, 0));
  llvm::SmallVector<mlir::Value> next = {
      mlir::arith::AddIOp::create(
          in, loc, after->getArgument(0),
          mlir::arith::ConstantOp::create(in, loc, in.getI64IntegerAttr(1))),
      mlir::tensor::ExtractOp::create(in, loc, results[0], zeros)};
  for (int i = 0; i < carried; ++i) {
    mlir::Value v =
        ctx.castedTo(in, results[i + 1], types[i + 2],
                     "the body's loop-carried output " + llvm::Twine(i));
    if (!v)
      return mlir::failure();
    next.push_back(v);
  }
  mlir::Value i = mlir::arith::IndexCastOp::create(in, loc, in.getIndexType(),
                                                   after->getArgument(0));
  for (int k = 0; k < scans; ++k) {
    mlir::Value e = ctx.castedTo(in, results[1 + carried + k], elements[k],
                                 "the body's scan output " + llvm::Twine(k));
    if (!e)
      return mlir::failure();
    mlir::Value buffer = after->getArgument(2 + carried + k);
    next.push_back(appended(in, loc, buffer, e, i));
  }
  mlir::scf::YieldOp::create(in, loc, next);
  for (int i = 0; i < carried; ++i)
    ctx.setOutput(i, op.getResult(i + 2));
  // A scan output: its buffer's first `iterations` elements.
  mlir::Value iterations = mlir::arith::IndexCastOp::create(
      b, loc, b.getIndexType(), op.getResult(0));
  for (int k = 0; k < scans; ++k) {
    mlir::Value buffer = op.getResult(2 + carried + k);
    auto type = llvm::cast<mlir::RankedTensorType>(buffer.getType());
    llvm::SmallVector<mlir::OpFoldResult> offsets(type.getRank(),
                                                  b.getIndexAttr(0)),
        sizes = {iterations}, strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t d = 1; d < type.getRank(); ++d)
      sizes.push_back(
          type.isDynamicDim(d)
              ? mlir::OpFoldResult(
                    mlir::tensor::DimOp::create(b, loc, buffer, d).getResult())
              : mlir::OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
    ctx.setOutput(carried + k,
                  mlir::tensor::ExtractSliceOp::create(
                      b, loc, type, buffer, offsets, sizes, strides));
  }
  return mlir::success();
}

/// `v` with dim `axis` dropped (an axis of a scan's slices).
mlir::RankedTensorType withoutAxis(mlir::RankedTensorType t, int64_t axis) {
  llvm::SmallVector<int64_t> shape(t.getShape());
  shape.erase(shape.begin() + axis);
  return mlir::RankedTensorType::get(shape, t.getElementType());
}

/// Scan(states..., scan inputs...): an scf.for over the L slices of the
/// scan inputs along their axes (from the end where a direction is 1),
/// carrying the states and the scan outputs, into which each iteration
/// writes its slices (from the end where their direction is 1).
mlir::LogicalResult scanOp(NodeContext &ctx) {
  const onnx::GraphProto *body = graphAttr(ctx, "body");
  if (!body)
    return mlir::failure();
  const int scanInputs = int(ctx.intAttr("num_scan_inputs", 0));
  const int states = ctx.node().input_size() - scanInputs;
  const int scanOutputs = ctx.numOutputs() - states;
  if (scanInputs < 1 || states < 0 || scanOutputs < 0)
    return ctx.fail("takes num_scan_inputs of 1 or more, after its states");
  if (body->input_size() != states + scanInputs ||
      body->output_size() != states + scanOutputs)
    return ctx.fail("its body has " + llvm::Twine(body->input_size()) +
                    " inputs and " + llvm::Twine(body->output_size()) +
                    " outputs; " + llvm::Twine(states + scanInputs) + " and " +
                    llvm::Twine(states + scanOutputs) + " were expected");
  auto listAttr = [&](llvm::StringRef name, int n) {
    std::vector<int64_t> v = ctx.intsAttr(name);
    if (v.empty())
      v.assign(n, 0);
    return v;
  };
  std::vector<int64_t> inAxes = listAttr("scan_input_axes", scanInputs),
                       inBack = listAttr("scan_input_directions", scanInputs),
                       outAxes = listAttr("scan_output_axes", scanOutputs),
                       outBack =
                           listAttr("scan_output_directions", scanOutputs);
  if (int(inAxes.size()) != scanInputs || int(inBack.size()) != scanInputs ||
      int(outAxes.size()) != scanOutputs || int(outBack.size()) != scanOutputs)
    return ctx.fail("takes one axis and direction per scan input and output");
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  auto index = [&](mlir::OpBuilder &ib, int64_t v) {
    return mlir::arith::ConstantIndexOp::create(ib, loc, v).getResult();
  };

  // The scan inputs, their axes normalized, and L from the first.
  llvm::SmallVector<mlir::Value> inputs;
  mlir::Value length;
  for (int m = 0; m < scanInputs; ++m) {
    mlir::Value v = ctx.input(states + m);
    if (!v)
      return mlir::failure();
    auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
    int64_t axis = inAxes[m] < 0 ? inAxes[m] + t.getRank() : inAxes[m];
    if (axis < 0 || axis >= t.getRank())
      return ctx.fail("scan input " + llvm::Twine(m) + " has no axis " +
                      llvm::Twine(inAxes[m]));
    inAxes[m] = axis;
    if (!length)
      length = mlir::tensor::DimOp::create(b, loc, v, axis);
    inputs.push_back(v);
  }
  // The states, of the node's output types, and the scan outputs, whole.
  llvm::SmallVector<mlir::Value> inits;
  llvm::SmallVector<mlir::RankedTensorType> types;
  for (int i = 0; i < states; ++i) {
    mlir::RankedTensorType t = ctx.outputType(i);
    mlir::Value v = ctx.input(i);
    if (!t || !v || !(v = ctx.castedTo(b, v, t, "state " + llvm::Twine(i))))
      return mlir::failure();
    inits.push_back(v);
    types.push_back(t);
  }
  for (int k = 0; k < scanOutputs; ++k) {
    mlir::RankedTensorType t = ctx.outputType(states + k);
    if (!t)
      return mlir::failure();
    int64_t axis = outAxes[k] < 0 ? outAxes[k] + t.getRank() : outAxes[k];
    if (axis < 0 || axis >= t.getRank())
      return ctx.fail("scan output " + llvm::Twine(k) + " has no axis " +
                      llvm::Twine(outAxes[k]));
    outAxes[k] = axis;
    llvm::SmallVector<mlir::Value> dims;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      if (!t.isDynamicDim(d))
        continue;
      if (d != axis)
        return ctx.fail("its scan output " + llvm::Twine(k) +
                        " has a dim not known before the loop: " + typeText(t));
      dims.push_back(length);
    }
    inits.push_back(mlir::tensor::EmptyOp::create(b, loc, t, dims));
    types.push_back(t);
  }

  auto op =
      mlir::scf::ForOp::create(b, loc, index(b, 0), length, index(b, 1), inits);
  mlir::Block *block = op.getBody();
  mlir::OpBuilder in = mlir::OpBuilder::atBlockBegin(block);
  mlir::Value t = op.getInductionVar();
  mlir::Value last = mlir::arith::SubIOp::create(in, loc, length, index(in, 1));
  auto at = [&](bool back) {
    return back ? mlir::arith::SubIOp::create(in, loc, last, t).getResult() : t;
  };
  // Slice t of each scan input (one along its axis, the axis dropped).
  auto sliceSpec = [&](mlir::Value whole, int64_t axis, mlir::Value position,
                       llvm::SmallVectorImpl<mlir::OpFoldResult> &offsets,
                       llvm::SmallVectorImpl<mlir::OpFoldResult> &sizes,
                       llvm::SmallVectorImpl<mlir::OpFoldResult> &strides) {
    auto wt = llvm::cast<mlir::RankedTensorType>(whole.getType());
    for (int64_t d = 0; d < wt.getRank(); ++d) {
      offsets.push_back(d == axis ? mlir::OpFoldResult(position)
                                  : in.getIndexAttr(0));
      sizes.push_back(
          d == axis ? mlir::OpFoldResult(in.getIndexAttr(1))
          : wt.isDynamicDim(d)
              ? mlir::OpFoldResult(
                    mlir::tensor::DimOp::create(in, loc, whole, d).getResult())
              : mlir::OpFoldResult(in.getIndexAttr(wt.getDimSize(d))));
      strides.push_back(in.getIndexAttr(1));
    }
  };
  llvm::SmallVector<mlir::Value> args(
      op.getRegionIterArgs().take_front(states));
  for (int m = 0; m < scanInputs; ++m) {
    llvm::SmallVector<mlir::OpFoldResult> offsets, sizes, strides;
    sliceSpec(inputs[m], inAxes[m], at(inBack[m] != 0), offsets, sizes,
              strides);
    auto wt = llvm::cast<mlir::RankedTensorType>(inputs[m].getType());
    args.push_back(mlir::tensor::ExtractSliceOp::create(
        in, loc, withoutAxis(wt, inAxes[m]), inputs[m], offsets, sizes,
        strides));
  }
  llvm::SmallVector<mlir::Value> results;
  if (mlir::failed(ctx.importSubgraph(*body, block, args, results)))
    return mlir::failure();
  in.setInsertionPointToEnd(block);
  llvm::SmallVector<mlir::Value> next;
  for (int i = 0; i < states; ++i) {
    mlir::Value v = ctx.castedTo(in, results[i], types[i],
                                 "the body's state " + llvm::Twine(i));
    if (!v)
      return mlir::failure();
    next.push_back(v);
  }
  for (int k = 0; k < scanOutputs; ++k) {
    mlir::Value whole = op.getRegionIterArgs()[states + k];
    mlir::Value slice = ctx.castedTo(
        in, results[states + k], withoutAxis(types[states + k], outAxes[k]),
        "the body's scan output " + llvm::Twine(k));
    if (!slice)
      return mlir::failure();
    llvm::SmallVector<mlir::OpFoldResult> offsets, sizes, strides;
    sliceSpec(whole, outAxes[k], at(outBack[k] != 0), offsets, sizes, strides);
    next.push_back(mlir::tensor::InsertSliceOp::create(
        in, loc, slice, whole, offsets, sizes, strides));
  }
  mlir::scf::YieldOp::create(in, loc, next);
  b.setInsertionPointAfter(op);
  for (int o = 0; o < states + scanOutputs; ++o)
    ctx.setOutput(o, op.getResult(o));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> controlFlowConverters() {
  std::vector<OpConverter> converters = {
      {"If", ifOp},
      {"Loop", loopOp},
      {"Scan", scanOp},
  };
  // They move values into and out of their regions without reading them.
  for (OpConverter &c : converters)
    c.readsUnsigned = true;
  return converters;
}

} // namespace aot::onnx_import
