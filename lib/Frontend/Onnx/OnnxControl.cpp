//===- OnnxControl.cpp - If and Loop: subgraphs as regions ----------------===//
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

/// `v` as `type`, where a cast can make it so (the same rank and element
/// type, dims that agree where both are static); null after an error
/// naming `what`.
mlir::Value castTo(NodeContext &ctx, mlir::OpBuilder &b, mlir::Value v,
                   mlir::Type type, const llvm::Twine &what) {
  if (v.getType() == type)
    return v;
  auto from = llvm::dyn_cast<mlir::RankedTensorType>(v.getType());
  auto to = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!from || !to || !mlir::tensor::CastOp::areCastCompatible(from, to))
    return (void)ctx.fail(what + " is " + typeText(v.getType()) +
                          " where the node's output is " + typeText(type)),
           nullptr;
  return mlir::tensor::CastOp::create(b, ctx.loc, to, v);
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
                castTo(ctx, b, results[i], types[i],
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

/// Loop(M?, cond?, v_initial...): an scf.while carrying the iteration
/// number, the condition and the loop-carried values (of the node's output
/// types); it runs while the condition holds and fewer than M iterations
/// (where given) have run. Scan outputs are refused.
mlir::LogicalResult loopOp(NodeContext &ctx) {
  const onnx::GraphProto *body = graphAttr(ctx, "body");
  if (!body)
    return mlir::failure();
  int carried = ctx.node().input_size() - 2;
  if (carried < 0)
    return ctx.fail("takes the inputs M and cond (either may be empty)");
  if (ctx.numOutputs() != carried)
    return ctx.fail("has " + llvm::Twine(ctx.numOutputs() - carried) +
                    " scan outputs; Loops with scan outputs are not supported");
  if (body->output_size() != carried + 1)
    return ctx.fail("its body has " + llvm::Twine(body->output_size()) +
                    " outputs; a condition and " + llvm::Twine(carried) +
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
    if (!t || !v ||
        !(v = castTo(ctx, b, v, t, "loop-carried value " + llvm::Twine(i))))
      return mlir::failure();
    inits.push_back(v);
    types.push_back(t);
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
    mlir::Value v = castTo(ctx, in, results[i + 1], types[i + 2],
                           "the body's loop-carried output " + llvm::Twine(i));
    if (!v)
      return mlir::failure();
    next.push_back(v);
  }
  mlir::scf::YieldOp::create(in, loc, next);
  for (int i = 0; i < carried; ++i)
    ctx.setOutput(i, op.getResult(i + 2));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> controlFlowConverters() {
  std::vector<OpConverter> converters = {
      {"If", ifOp},
      {"Loop", loopOp},
  };
  // They move values into and out of their regions without reading them.
  for (OpConverter &c : converters)
    c.readsUnsigned = true;
  return converters;
}

} // namespace aot::onnx_import
