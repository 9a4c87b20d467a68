//===- OnnxRecurrent.cpp - LSTM and GRU as loops over the sequence --------===//
//
// A recurrent layer becomes, per direction, one matmul projecting every
// step's input at once (the weights transposed and the input biases added
// at import), then an scf.for over the sequence carrying the hidden state
// (and the LSTM's cell): each step a matmul by the recurrent weights and
// one linalg.generic computing the gates. The sequence length may be
// dynamic; so may the batch.
//
// What torch.onnx.export writes is covered: the default activations, no
// peepholes, no sequence_lens, layout 0, GRU with linear_before_reset=1.
// Anything else is an error naming the attribute or input.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxNode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstring>
#include <functional>
#include <optional>

namespace aot::onnx_import {

namespace {

/// The recurrent kinds: gate count and names for messages.
enum class Cell { Lstm, Gru, Rnn };

/// The weights of one direction, ready for the loop.
struct DirectionWeights {
  mlir::Value inputT;        // [I, G*H]
  mlir::Value recurrentT;    // [H, G*H]
  mlir::Value inputBias;     // [G*H]: added to the input projection
  mlir::Value recurrentBias; // [G*H]: added to the recurrent matmul
};

/// Sigmoid and tanh of scalars, as ONNX's default activations.
mlir::Value sigmoid(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x) {
  mlir::Type t = x.getType();
  mlir::Value one =
      mlir::arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 1.0));
  mlir::Value e =
      mlir::math::ExpOp::create(b, loc, mlir::arith::NegFOp::create(b, loc, x));
  return mlir::arith::DivFOp::create(
      b, loc, one, mlir::arith::AddFOp::create(b, loc, one, e));
}

mlir::Value tanhOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x) {
  return mlir::math::TanhOp::create(b, loc, x);
}

/// `bias` [n] broadcast to `type` [rows, n].
mlir::Value broadcastRows(NodeContext &ctx, mlir::Value bias,
                          mlir::RankedTensorType type, mlir::Value rows) {
  return mlir::linalg::BroadcastOp::create(ctx.b, ctx.loc, bias,
                                           ctx.empty(type, {rows, nullptr}),
                                           llvm::ArrayRef<int64_t>{0})
      .getResult()[0];
}

/// a [m, k] @ b [k, n] + bias broadcast along the rows.
mlir::Value matmulBias(NodeContext &ctx, mlir::Value a, mlir::Value b,
                       mlir::Value bias) {
  auto at = llvm::cast<mlir::RankedTensorType>(a.getType());
  auto bt = llvm::cast<mlir::RankedTensorType>(b.getType());
  auto type = mlir::RankedTensorType::get({at.getDimSize(0), bt.getDimSize(1)},
                                          at.getElementType());
  mlir::Value init = broadcastRows(ctx, bias, type, ctx.dim(a, 0));
  return mlir::linalg::MatmulOp::create(ctx.b, ctx.loc, mlir::TypeRange{type},
                                        mlir::ValueRange{a, b},
                                        mlir::ValueRange{init})
      .getResult(0);
}

/// Columns [k*h, (k+1)*h) of `g` [rows, G*h].
mlir::Value gateColumns(NodeContext &ctx, mlir::Value g, int64_t k, int64_t h) {
  auto t = llvm::cast<mlir::RankedTensorType>(g.getType());
  auto type =
      mlir::RankedTensorType::get({t.getDimSize(0), h}, t.getElementType());
  llvm::SmallVector<mlir::OpFoldResult> offsets = {ctx.b.getIndexAttr(0),
                                                   ctx.b.getIndexAttr(k * h)};
  llvm::SmallVector<mlir::OpFoldResult> sizes = {
      t.isDynamicDim(0) ? mlir::OpFoldResult(ctx.dim(g, 0))
                        : ctx.b.getIndexAttr(t.getDimSize(0)),
      ctx.b.getIndexAttr(h)};
  llvm::SmallVector<mlir::OpFoldResult> strides(2, ctx.b.getIndexAttr(1));
  return mlir::tensor::ExtractSliceOp::create(ctx.b, ctx.loc, type, g, offsets,
                                              sizes, strides);
}

/// One elementwise generic over [rows, h] of `inputs`, yielding what
/// `body` makes of their elements (one result per output).
llvm::SmallVector<mlir::Value>
gates(NodeContext &ctx, llvm::ArrayRef<mlir::Value> inputs, int outputs,
      const std::function<llvm::SmallVector<mlir::Value>(
          mlir::OpBuilder &, mlir::Location, mlir::ValueRange)> &body) {
  auto t = llvm::cast<mlir::RankedTensorType>(inputs.back().getType());
  mlir::Value rows = ctx.dim(inputs.back(), 0);
  llvm::SmallVector<mlir::Value> inits;
  for (int i = 0; i < outputs; ++i)
    inits.push_back(ctx.empty(t, {rows, nullptr}));
  auto id = mlir::AffineMap::getMultiDimIdentityMap(2, ctx.b.getContext());
  llvm::SmallVector<mlir::AffineMap> maps(inputs.size() + outputs, id);
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      2, mlir::utils::IteratorType::parallel);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, llvm::SmallVector<mlir::Type>(outputs, t), inputs, inits,
      maps, iterators,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args) {
        mlir::linalg::YieldOp::create(
            b, loc, body(b, loc, args.take_front(inputs.size())));
      });
  return llvm::SmallVector<mlir::Value>(generic.getResults());
}

/// The bytes of direction `d`'s [rows, cols] matrix of a [D, rows, cols]
/// constant, transposed to [cols, rows].
std::string directionTransposed(const std::string &bytes, int64_t d,
                                int64_t rows, int64_t cols, std::size_t size) {
  std::size_t block = std::size_t(rows * cols) * size;
  return transposedBytes(bytes.substr(std::size_t(d) * block, block), rows,
                         cols, size);
}

/// The activation of a plain RNN: its `activations` attribute, one name
/// per direction, all the same (torch.onnx.export writes them in lower
/// case); nullopt after an error.
std::optional<bool> rnnUsesRelu(NodeContext &ctx) {
  const onnx::AttributeProto *a = ctx.attr("activations");
  if (!a)
    return false;
  std::optional<bool> relu;
  for (const std::string &name : a->strings()) {
    std::string lower = llvm::StringRef(name).lower();
    if (lower != "tanh" && lower != "relu")
      return (void)ctx.fail("activation '" + name +
                            "' is not supported (Tanh and Relu are)"),
             std::nullopt;
    if (relu && *relu != (lower == "relu"))
      return (void)ctx.fail("directions of different activations are not "
                            "supported"),
             std::nullopt;
    relu = lower == "relu";
  }
  return relu.value_or(false);
}

mlir::LogicalResult recurrent(NodeContext &ctx, Cell cell) {
  const int64_t gateCount = cell == Cell::Lstm ? 4 : cell == Cell::Gru ? 3 : 1;
  std::optional<bool> relu = false;
  if (cell == Cell::Rnn && !(relu = rnnUsesRelu(ctx)))
    return mlir::failure();
  if (ctx.hasInput(4))
    return ctx.fail("sequence_lens is not supported (every sequence of "
                    "the batch must have the whole length)");
  if (cell == Cell::Lstm && ctx.hasInput(7))
    return ctx.fail("peephole weights (input P) are not supported");
  if (ctx.hasAttr("clip"))
    return ctx.fail("attribute 'clip' is not supported");
  if (cell != Cell::Rnn && ctx.hasAttr("activations"))
    return ctx.fail("attribute 'activations' is not supported (only the "
                    "default activations are)");
  if (ctx.intAttr("layout", 0) != 0)
    return ctx.fail("layout 1 is not supported (torch.onnx.export writes "
                    "layout 0)");
  if (cell == Cell::Lstm && ctx.intAttr("input_forget", 0) != 0)
    return ctx.fail("attribute 'input_forget' = 1 is not supported");
  if (cell == Cell::Gru && ctx.intAttr("linear_before_reset", 0) != 1)
    return ctx.fail("linear_before_reset = 0 is not supported (PyTorch's "
                    "GRU is linear_before_reset = 1)");
  std::string direction = ctx.stringAttr("direction", "forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return ctx.fail("unknown direction '" + direction + "'");
  const int64_t directions = direction == "bidirectional" ? 2 : 1;

  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType wType = ctx.inputType(1), rType = ctx.inputType(2);
  if (!x || !wType || !rType)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Type element = xType.getElementType();
  if (!llvm::isa<mlir::FloatType>(element) || xType.getRank() != 3)
    return ctx.fail("takes a 3-D float input");
  if (wType.getRank() != 3 || rType.getRank() != 3)
    return ctx.fail("takes weights W and R of rank 3, not " + typeText(wType) +
                    " and " + typeText(rType));
  const int64_t hidden = ctx.intAttr("hidden_size", rType.getDimSize(2));
  const int64_t inputSize = xType.getDimSize(2);
  const int64_t gh = gateCount * hidden;
  if (!wType.hasStaticShape() || !rType.hasStaticShape() ||
      wType.getShape() != llvm::ArrayRef<int64_t>{directions, gh, inputSize} ||
      rType.getShape() != llvm::ArrayRef<int64_t>{directions, gh, hidden})
    return ctx.fail("takes weights W [" + llvm::Twine(directions) + ", " +
                    llvm::Twine(gh) + ", input size] and R [" +
                    llvm::Twine(directions) + ", " + llvm::Twine(gh) + ", " +
                    llvm::Twine(hidden) + "] of a static shape");
  std::optional<std::string> wBytes = ctx.constantBytes(1),
                             rBytes = ctx.constantBytes(2);
  if (!wBytes || !rBytes)
    return ctx.fail("takes constant weights W and R");
  std::optional<std::string> bBytes;
  if (ctx.hasInput(3) && !(bBytes = ctx.constantBytes(3)))
    return ctx.fail("takes a constant bias B");
  const std::size_t size = element.getIntOrFloatBitWidth() / 8;
  if (bBytes && bBytes->size() != std::size_t(directions * 2 * gh) * size)
    return ctx.fail("bias B does not hold [" + llvm::Twine(directions) + ", " +
                    llvm::Twine(2 * gh) + "] elements");

  // Weights per direction, transposed; the biases split into what joins
  // the input projection and what joins the recurrent matmul (for the GRU
  // the candidate gate's recurrent bias is inside the reset product).
  auto vectorType = mlir::RankedTensorType::get({gh}, element);
  llvm::SmallVector<DirectionWeights> weights;
  for (int64_t d = 0; d < directions; ++d) {
    DirectionWeights w;
    w.inputT =
        ctx.constant(mlir::RankedTensorType::get({inputSize, gh}, element),
                     directionTransposed(*wBytes, d, gh, inputSize, size));
    w.recurrentT =
        ctx.constant(mlir::RankedTensorType::get({hidden, gh}, element),
                     directionTransposed(*rBytes, d, gh, hidden, size));
    std::string wb(std::size_t(gh) * size, '\0'), rb = wb;
    if (bBytes) {
      wb = bBytes->substr(std::size_t(d * 2 * gh) * size, wb.size());
      rb = bBytes->substr(std::size_t((d * 2 + 1) * gh) * size, rb.size());
    }
    if (cell != Cell::Gru) {
      // Both biases are added to the gates: fold them into one.
      for (std::size_t i = 0; i < std::size_t(gh); ++i) {
        if (size == 4) {
          float a, b;
          std::memcpy(&a, &wb[i * 4], 4);
          std::memcpy(&b, &rb[i * 4], 4);
          a += b;
          std::memcpy(&wb[i * 4], &a, 4);
        } else if (size == 8) {
          double a, b;
          std::memcpy(&a, &wb[i * 8], 8);
          std::memcpy(&b, &rb[i * 8], 8);
          a += b;
          std::memcpy(&wb[i * 8], &a, 8);
        } else {
          return ctx.fail("takes float or double weights with a bias");
        }
      }
      rb.assign(rb.size(), '\0');
    }
    w.inputBias = ctx.constant(vectorType, wb);
    w.recurrentBias = ctx.constant(vectorType, rb);
    weights.push_back(w);
  }

  // Every step's input projection at once, [S*B, I] @ [I, G*H], where the
  // product does not join two dynamic dims (an expand_shape splitting one
  // dynamic dim into two is where MLIR 22's memref folding crashes);
  // otherwise one step's at a time, in the loop.
  mlir::Value steps = ctx.dim(x, 0), batch = ctx.dim(x, 1);
  // The batch as a slice size: an attribute where static, so that slices
  // keep the static type.
  const mlir::OpFoldResult batchSize =
      xType.isDynamicDim(1) ? mlir::OpFoldResult(batch)
                            : ctx.b.getIndexAttr(xType.getDimSize(1));
  const bool projectAll = !(xType.isDynamicDim(0) && xType.isDynamicDim(1));
  mlir::Value flat;
  if (projectAll) {
    auto flatType = mlir::RankedTensorType::get(
        {xType.isDynamicDim(0) || xType.isDynamicDim(1)
             ? mlir::ShapedType::kDynamic
             : xType.getDimSize(0) * xType.getDimSize(1),
         inputSize},
        element);
    flat = mlir::tensor::CollapseShapeOp::create(
        ctx.b, ctx.loc, flatType, x,
        llvm::SmallVector<mlir::ReassociationIndices>{{0, 1}, {2}});
  }

  auto stateType =
      mlir::RankedTensorType::get({xType.getDimSize(1), hidden}, element);
  auto allStatesType = mlir::RankedTensorType::get(
      {xType.getDimSize(0), directions, xType.getDimSize(1), hidden}, element);
  auto finalType = mlir::RankedTensorType::get(
      {directions, xType.getDimSize(1), hidden}, element);
  // The initial state of direction d from input `i` ([D, B, H]) or zeros.
  auto initial = [&](int i, int64_t d) -> mlir::Value {
    if (!ctx.hasInput(i))
      return ctx.filled(stateType, ctx.scalar(element, 0), {batch, nullptr});
    mlir::Value all = ctx.input(i);
    if (!all)
      return nullptr;
    llvm::SmallVector<mlir::OpFoldResult> offsets = {
        ctx.b.getIndexAttr(d), ctx.b.getIndexAttr(0), ctx.b.getIndexAttr(0)};
    llvm::SmallVector<mlir::OpFoldResult> sizes = {
        ctx.b.getIndexAttr(1), batchSize, ctx.b.getIndexAttr(hidden)};
    llvm::SmallVector<mlir::OpFoldResult> strides(3, ctx.b.getIndexAttr(1));
    return mlir::tensor::ExtractSliceOp::create(ctx.b, ctx.loc, stateType, all,
                                                offsets, sizes, strides);
  };

  mlir::Value ys = ctx.empty(allStatesType, {steps, nullptr, batch, nullptr});
  mlir::Value finalH = ctx.empty(finalType, {nullptr, batch, nullptr});
  mlir::Value finalC = ctx.empty(finalType, {nullptr, batch, nullptr});
  mlir::Value zero = mlir::arith::ConstantIndexOp::create(ctx.b, ctx.loc, 0);
  mlir::Value one = mlir::arith::ConstantIndexOp::create(ctx.b, ctx.loc, 1);
  mlir::Value last = mlir::arith::SubIOp::create(ctx.b, ctx.loc, steps, one);
  for (int64_t d = 0; d < directions; ++d) {
    const DirectionWeights &w = weights[d];
    bool reverse = direction == "reverse" || d == 1;
    mlir::Value projected;
    if (projectAll) {
      projected = matmulBias(ctx, flat, w.inputT, w.inputBias);
      auto projectedType = mlir::RankedTensorType::get(
          {xType.getDimSize(0), xType.getDimSize(1), gh}, element);
      projected = mlir::tensor::ExpandShapeOp::create(
          ctx.b, ctx.loc, projectedType, projected,
          llvm::SmallVector<mlir::ReassociationIndices>{{0, 1}, {2}},
          llvm::SmallVector<mlir::OpFoldResult>{
              xType.isDynamicDim(0) ? mlir::OpFoldResult(steps)
                                    : ctx.b.getIndexAttr(xType.getDimSize(0)),
              xType.isDynamicDim(1) ? mlir::OpFoldResult(batch)
                                    : ctx.b.getIndexAttr(xType.getDimSize(1)),
              ctx.b.getIndexAttr(gh)});
    }
    mlir::Value h0 = initial(5, d);
    mlir::Value c0 = cell == Cell::Lstm ? initial(6, d) : h0;
    if (!h0 || !c0)
      return mlir::failure();

    auto loop = mlir::scf::ForOp::create(ctx.b, ctx.loc, zero, steps, one,
                                         mlir::ValueRange{h0, c0, ys});
    {
      mlir::OpBuilder::InsertionGuard guard(ctx.b);
      ctx.b.setInsertionPointToStart(loop.getBody());
      mlir::Value t = loop.getInductionVar();
      if (reverse)
        t = mlir::arith::SubIOp::create(ctx.b, ctx.loc, last, t);
      mlir::Value h = loop.getRegionIterArg(0), c = loop.getRegionIterArg(1),
                  y = loop.getRegionIterArg(2);
      auto stepType =
          mlir::RankedTensorType::get({xType.getDimSize(1), gh}, element);
      llvm::SmallVector<mlir::OpFoldResult> strides(3, ctx.b.getIndexAttr(1));
      mlir::Value xw;
      if (projectAll) {
        llvm::SmallVector<mlir::OpFoldResult> offsets = {
            t, ctx.b.getIndexAttr(0), ctx.b.getIndexAttr(0)};
        llvm::SmallVector<mlir::OpFoldResult> sizes = {
            ctx.b.getIndexAttr(1), batchSize, ctx.b.getIndexAttr(gh)};
        xw = mlir::tensor::ExtractSliceOp::create(
            ctx.b, ctx.loc, stepType, projected, offsets, sizes, strides);
      } else {
        llvm::SmallVector<mlir::OpFoldResult> offsets = {
            t, ctx.b.getIndexAttr(0), ctx.b.getIndexAttr(0)};
        llvm::SmallVector<mlir::OpFoldResult> sizes = {
            ctx.b.getIndexAttr(1), batchSize, ctx.b.getIndexAttr(inputSize)};
        mlir::Value xt = mlir::tensor::ExtractSliceOp::create(
            ctx.b, ctx.loc,
            mlir::RankedTensorType::get({xType.getDimSize(1), inputSize},
                                        element),
            x, offsets, sizes, strides);
        xw = matmulBias(ctx, xt, w.inputT, w.inputBias);
      }
      mlir::Value hr = matmulBias(ctx, h, w.recurrentT, w.recurrentBias);
      mlir::Value newH, newC = c;
      if (cell == Cell::Lstm) {
        // ONNX's gate order: input, output, forget, cell.
        llvm::SmallVector<mlir::Value> in;
        for (int64_t k = 0; k < 4; ++k)
          in.push_back(gateColumns(ctx, xw, k, hidden));
        for (int64_t k = 0; k < 4; ++k)
          in.push_back(gateColumns(ctx, hr, k, hidden));
        in.push_back(c);
        auto r = gates(
            ctx, in, 2,
            [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
              auto sum = [&](int k) {
                return mlir::arith::AddFOp::create(b, loc, v[k], v[k + 4]);
              };
              mlir::Value i = sigmoid(b, loc, sum(0));
              mlir::Value o = sigmoid(b, loc, sum(1));
              mlir::Value f = sigmoid(b, loc, sum(2));
              mlir::Value g = tanhOf(b, loc, sum(3));
              mlir::Value cNew = mlir::arith::AddFOp::create(
                  b, loc, mlir::arith::MulFOp::create(b, loc, f, v[8]),
                  mlir::arith::MulFOp::create(b, loc, i, g));
              mlir::Value hNew =
                  mlir::arith::MulFOp::create(b, loc, o, tanhOf(b, loc, cNew));
              return llvm::SmallVector<mlir::Value>{hNew, cNew};
            });
        newH = r[0];
        newC = r[1];
      } else if (cell == Cell::Rnn) {
        bool useRelu = *relu;
        auto r = gates(
            ctx, {xw, hr}, 1,
            [useRelu](mlir::OpBuilder &b, mlir::Location loc,
                      mlir::ValueRange v) {
              mlir::Value sum = mlir::arith::AddFOp::create(b, loc, v[0], v[1]);
              mlir::Value hNew =
                  useRelu ? mlir::Value(mlir::arith::MaximumFOp::create(
                                b, loc, sum,
                                mlir::arith::ConstantOp::create(
                                    b, loc, b.getFloatAttr(sum.getType(), 0))))
                          : tanhOf(b, loc, sum);
              return llvm::SmallVector<mlir::Value>{hNew};
            });
        newH = r[0];
      } else {
        // Update, reset, candidate; the candidate's recurrent part (bias
        // included) is scaled by the reset gate.
        llvm::SmallVector<mlir::Value> in;
        for (int64_t k = 0; k < 3; ++k)
          in.push_back(gateColumns(ctx, xw, k, hidden));
        for (int64_t k = 0; k < 3; ++k)
          in.push_back(gateColumns(ctx, hr, k, hidden));
        in.push_back(h);
        auto r = gates(
            ctx, in, 1,
            [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
              mlir::Value z = sigmoid(
                  b, loc, mlir::arith::AddFOp::create(b, loc, v[0], v[3]));
              mlir::Value r = sigmoid(
                  b, loc, mlir::arith::AddFOp::create(b, loc, v[1], v[4]));
              mlir::Value n =
                  tanhOf(b, loc,
                         mlir::arith::AddFOp::create(
                             b, loc, v[2],
                             mlir::arith::MulFOp::create(b, loc, r, v[5])));
              // (1 - z) * n + z * h = n + z * (h - n)
              mlir::Value hNew = mlir::arith::AddFOp::create(
                  b, loc, n,
                  mlir::arith::MulFOp::create(
                      b, loc, z, mlir::arith::SubFOp::create(b, loc, v[6], n)));
              return llvm::SmallVector<mlir::Value>{hNew};
            });
        newH = r[0];
        newC = newH;
      }
      // Y[t, d] = h.
      llvm::SmallVector<mlir::OpFoldResult> yOffsets = {
          t, ctx.b.getIndexAttr(d), ctx.b.getIndexAttr(0),
          ctx.b.getIndexAttr(0)};
      llvm::SmallVector<mlir::OpFoldResult> ySizes = {
          ctx.b.getIndexAttr(1), ctx.b.getIndexAttr(1), batchSize,
          ctx.b.getIndexAttr(hidden)};
      llvm::SmallVector<mlir::OpFoldResult> yStrides(4, ctx.b.getIndexAttr(1));
      mlir::Value yNew = mlir::tensor::InsertSliceOp::create(
          ctx.b, ctx.loc, newH, y, yOffsets, ySizes, yStrides);
      mlir::scf::YieldOp::create(ctx.b, ctx.loc,
                                 mlir::ValueRange{newH, newC, yNew});
    }
    ys = loop.getResult(2);
    auto put = [&](mlir::Value state, mlir::Value into) {
      llvm::SmallVector<mlir::OpFoldResult> offsets = {
          ctx.b.getIndexAttr(d), ctx.b.getIndexAttr(0), ctx.b.getIndexAttr(0)};
      llvm::SmallVector<mlir::OpFoldResult> sizes = {
          ctx.b.getIndexAttr(1), batchSize, ctx.b.getIndexAttr(hidden)};
      llvm::SmallVector<mlir::OpFoldResult> strides(3, ctx.b.getIndexAttr(1));
      return mlir::tensor::InsertSliceOp::create(ctx.b, ctx.loc, state, into,
                                                 offsets, sizes, strides)
          .getResult();
    };
    finalH = put(loop.getResult(0), finalH);
    finalC = put(loop.getResult(1), finalC);
  }
  mlir::Value results[] = {ys, finalH, finalC};
  for (int i = 0; i < ctx.numOutputs() && i < 3; ++i)
    if (!ctx.node().output(i).empty())
      ctx.setOutput(i, results[i]);
  return mlir::success();
}

} // namespace

std::vector<OpConverter> recurrentConverters() {
  return {
      {"LSTM", [](NodeContext &ctx) { return recurrent(ctx, Cell::Lstm); }},
      {"GRU", [](NodeContext &ctx) { return recurrent(ctx, Cell::Gru); }},
      {"RNN", [](NodeContext &ctx) { return recurrent(ctx, Cell::Rnn); }},
  };
}

} // namespace aot::onnx_import
