//===- OnnxRandom.cpp - RandomUniform, RandomNormal, Bernoulli, Multinomial
//===//
//
// Random numbers as a function of a key and a counter: each element hashes
// (key, its position) with SplitMix64's finalizer, whose 64 output bits are
// uniform and independent enough for sampling; the top 53 make a double in
// [0, 1). A normal sample takes two such numbers through Box-Muller. The
// key is the node's seed where it has one, else a hash of the node's name
// and index in the graph, so two nodes draw differently; it is fixed when
// the model is compiled, so every call of the compiled function draws the
// same numbers (reproducible, as a seeded generator restarted per call).
// Multinomial draws each sample by inverse transform: a uniform number
// against the running sum of the softmax of the row.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxElementwise.h"
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/Hashing.h"

#include <cstring>
#include <limits>
#include <numbers>

namespace aot::onnx_import {

namespace {

// In a unity build a file before this one may declare an indexConst of its
// own in this anonymous namespace, which would hide the shared one.
using onnx_import::indexConst;

/// The node's key: its seed's bits, or a hash of its name and position.
uint64_t keyOf(NodeContext &ctx) {
  if (ctx.hasAttr("seed")) {
    double seed = ctx.floatAttr("seed", 0);
    uint64_t bits;
    std::memcpy(&bits, &seed, sizeof bits);
    return bits;
  }
  const onnx::NodeProto &node = ctx.node();
  return llvm::hash_combine(node.name(), node.op_type(),
                            node.output_size() ? node.output(0) : "");
}

/// Scalar code of the generator inside a body.
struct Draw {
  mlir::OpBuilder &b;
  mlir::Location loc;
  uint64_t key;

  mlir::Value u64(uint64_t v) {
    return mlir::arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(b.getI64Type(), static_cast<int64_t>(v)));
  }
  /// 64 random bits for counter `n` (i64).
  mlir::Value bits(mlir::Value n) {
    auto mul = [&](mlir::Value x, uint64_t c) {
      return mlir::arith::MulIOp::create(b, loc, x, u64(c)).getResult();
    };
    auto mix = [&](mlir::Value x, int64_t shift) {
      return mlir::arith::XOrIOp::create(
                 b, loc, x,
                 mlir::arith::ShRUIOp::create(
                     b, loc, x,
                     mlir::arith::ConstantOp::create(
                         b, loc, b.getIntegerAttr(b.getI64Type(), shift))))
          .getResult();
    };
    mlir::Value z = mlir::arith::AddIOp::create(
        b, loc,
        mlir::arith::XOrIOp::create(b, loc, mul(n, 0x9E3779B97F4A7C15),
                                    u64(key)),
        u64(0x9E3779B97F4A7C15));
    z = mul(mix(z, 30), 0xBF58476D1CE4E5B9);
    z = mul(mix(z, 27), 0x94D049BB133111EB);
    return mix(z, 31);
  }
  /// A double in [0, 1) for counter `n`.
  mlir::Value uniform(mlir::Value n) {
    mlir::Value top = mlir::arith::ShRUIOp::create(
        b, loc, bits(n),
        mlir::arith::ConstantOp::create(b, loc,
                                        b.getIntegerAttr(b.getI64Type(), 11)));
    return mlir::arith::MulFOp::create(
        b, loc, mlir::arith::UIToFPOp::create(b, loc, b.getF64Type(), top),
        floatConst(b, loc, b.getF64Type(), 1.0 / 9007199254740992.0));
  }
  /// A standard normal double for counter `n` (two uniforms, 2n and 2n+1).
  mlir::Value normal(mlir::Value n) {
    mlir::Value two = u64(2);
    mlir::Value n2 = mlir::arith::MulIOp::create(b, loc, n, two);
    mlir::Type f64 = b.getF64Type();
    // 1 - u is in (0, 1]: its log is finite.
    mlir::Value u1 = mlir::arith::SubFOp::create(
        b, loc, floatConst(b, loc, f64, 1), uniform(n2));
    mlir::Value u2 = uniform(mlir::arith::AddIOp::create(b, loc, n2, u64(1)));
    mlir::Value radius = mlir::math::SqrtOp::create(
        b, loc,
        mlir::arith::MulFOp::create(b, loc, floatConst(b, loc, f64, -2),
                                    mlir::math::LogOp::create(b, loc, u1)));
    mlir::Value angle = mlir::arith::MulFOp::create(
        b, loc, floatConst(b, loc, f64, 2 * std::numbers::pi), u2);
    return mlir::arith::MulFOp::create(
        b, loc, radius, mlir::math::CosOp::create(b, loc, angle));
  }
};

/// The flat position of the current element of a generic over `rank`
/// dims of sizes `dims`, as an i64.
mlir::Value flatPosition(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::ArrayRef<mlir::Value> dims) {
  mlir::Value flat = indexConst(b, loc, 0);
  for (std::size_t d = 0; d < dims.size(); ++d)
    flat = mlir::arith::AddIOp::create(
        b, loc, mlir::arith::MulIOp::create(b, loc, flat, dims[d]),
        mlir::linalg::IndexOp::create(b, loc, d));
  return mlir::arith::IndexCastOp::create(b, loc, b.getI64Type(), flat);
}

/// The output `out` (sized like `like` where given) filled element by
/// element by `value` (the draw, the element's counter, the inputs' elements
/// at it), in the output's element type.
mlir::LogicalResult fillRandom(
    NodeContext &ctx, mlir::RankedTensorType out, mlir::Value like,
    llvm::function_ref<mlir::Value(Draw &, mlir::Value, mlir::ValueRange)>
        value) {
  if (!isFloatType(out.getElementType()) && !out.getElementType().isInteger())
    return ctx.fail("makes numbers, not " + typeText(out));
  int64_t rank = out.getRank();
  llvm::SmallVector<mlir::Value> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (like)
      dims.push_back(ctx.dim(like, d));
    else if (out.isDynamicDim(d))
      return ctx.fail("makes a tensor of a shape not known here: " +
                      typeText(out));
    else
      dims.push_back(indexConst(ctx.b, ctx.loc, out.getDimSize(d)));
  }
  auto identity =
      mlir::AffineMap::getMultiDimIdentityMap(rank, ctx.b.getContext());
  llvm::SmallVector<mlir::Value> ins;
  llvm::SmallVector<mlir::AffineMap> maps;
  if (like) {
    ins.push_back(like);
    maps.push_back(identity);
  }
  maps.push_back(identity);
  const uint64_t key = keyOf(ctx);
  mlir::Type element = out.getElementType();
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, ins,
      mlir::ValueRange{ctx.empty(out, dims)}, maps, parallelIterators(rank),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        Draw draw{b, loc, key};
        mlir::Value y = value(draw, flatPosition(b, loc, dims), v);
        mlir::linalg::YieldOp::create(b, loc,
                                      convertScalar(b, loc, y, element));
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// A uniform in [low, high) (f64).
mlir::Value uniformIn(Draw &d, mlir::Value n, double low, double high) {
  mlir::Type f64 = d.b.getF64Type();
  return mlir::arith::AddFOp::create(
      d.b, d.loc, floatConst(d.b, d.loc, f64, low),
      mlir::arith::MulFOp::create(d.b, d.loc, d.uniform(n),
                                  floatConst(d.b, d.loc, f64, high - low)));
}

/// A normal of `mean` and `scale` (f64).
mlir::Value normalOf(Draw &d, mlir::Value n, double mean, double scale) {
  mlir::Type f64 = d.b.getF64Type();
  return mlir::arith::AddFOp::create(
      d.b, d.loc, floatConst(d.b, d.loc, f64, mean),
      mlir::arith::MulFOp::create(d.b, d.loc, d.normal(n),
                                  floatConst(d.b, d.loc, f64, scale)));
}

template <bool Like, bool Normal>
mlir::LogicalResult randomOp(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  mlir::Value like;
  if (Like && !(like = ctx.input(0)))
    return mlir::failure();
  const double a = ctx.floatAttr(Normal ? "mean" : "low", 0),
               b = ctx.floatAttr(Normal ? "scale" : "high", 1);
  return fillRandom(
      ctx, out, like, [&](Draw &d, mlir::Value n, mlir::ValueRange) {
        return Normal ? normalOf(d, n, a, b) : uniformIn(d, n, a, b);
      });
}

/// Bernoulli: 1 where a uniform number falls below the input's probability.
mlir::LogicalResult bernoulli(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  mlir::Value p = ctx.input(0);
  if (!out || !p)
    return mlir::failure();
  if (!isFloatType(
          llvm::cast<mlir::RankedTensorType>(p.getType()).getElementType()))
    return ctx.fail("takes probabilities as floats");
  return fillRandom(
      ctx, out, p, [&](Draw &d, mlir::Value n, mlir::ValueRange v) {
        mlir::Type f64 = d.b.getF64Type();
        mlir::Value prob = convertScalar(d.b, d.loc, v[0], f64);
        mlir::Value hit = mlir::arith::CmpFOp::create(
            d.b, d.loc, mlir::arith::CmpFPredicate::OLT, d.uniform(n), prob);
        return mlir::arith::UIToFPOp::create(d.b, d.loc, f64, hit).getResult();
      });
}

/// Multinomial: for each row of unnormalized log-probabilities and each of
/// sample_size samples, the first class whose running probability passes
/// a uniform number (the last class where rounding leaves it short).
mlir::LogicalResult multinomial(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  mlir::Value x = ctx.input(0);
  if (!out || !x)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  if (xType.getRank() != 2 || !isFloatType(xType.getElementType()))
    return ctx.fail("takes floats of batch x classes, not " + typeText(xType));
  if (!out.getElementType().isInteger(32) &&
      !out.getElementType().isInteger(64))
    return ctx.fail("makes int32 or int64 classes, not " + typeText(out));
  mlir::Value classes = ctx.dim(x, 1);
  const uint64_t key = keyOf(ctx);
  mlir::Type element = out.getElementType();
  int64_t samples = ctx.intAttr("sample_size", 1);
  if (samples < 1)
    return ctx.fail("takes a sample_size of 1 or more");
  llvm::SmallVector<mlir::Value> dims = {ctx.dim(x, 0),
                                         indexConst(ctx.b, ctx.loc, samples)};
  auto identity =
      mlir::AffineMap::getMultiDimIdentityMap(2, ctx.b.getContext());
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(out, dims)},
      llvm::SmallVector<mlir::AffineMap>{identity}, parallelIterators(2),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange) {
        Draw d{b, loc, key};
        mlir::Type f64 = b.getF64Type();
        mlir::Value row = mlir::linalg::IndexOp::create(b, loc, 0);
        auto logit = [&](mlir::OpBuilder &ib, mlir::Location il,
                         mlir::Value c) {
          return convertScalar(ib, il,
                               mlir::tensor::ExtractOp::create(
                                   ib, il, x, mlir::ValueRange{row, c}),
                               f64);
        };
        // A loop over the classes; `step` builds with b, which the loop's
        // body has as its builder.
        auto loop = [&](mlir::ValueRange init, auto &&step) {
          return forEachPosition(
              b, loc, {classes}, init,
              [&](mlir::OpBuilder &, mlir::Location, mlir::ValueRange at,
                  mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
                return step(at[0], acc);
              });
        };
        // The softmax's maximum and total, then the walk to the sample.
        mlir::Value lowest =
            floatConst(b, loc, f64, -std::numeric_limits<double>::infinity());
        mlir::Value max = loop(mlir::ValueRange{lowest},
                               [&](mlir::Value c, mlir::ValueRange acc) {
                                 return llvm::SmallVector<mlir::Value>{
                                     mlir::arith::MaximumFOp::create(
                                         b, loc, acc[0], logit(b, loc, c))};
                               })[0];
        auto weight = [&](mlir::Value c) {
          return mlir::math::ExpOp::create(
                     b, loc,
                     mlir::arith::SubFOp::create(b, loc, logit(b, loc, c), max))
              .getResult();
        };
        mlir::Value total =
            loop(mlir::ValueRange{floatConst(b, loc, f64, 0)},
                 [&](mlir::Value c, mlir::ValueRange acc) {
                   return llvm::SmallVector<mlir::Value>{
                       mlir::arith::AddFOp::create(b, loc, acc[0], weight(c))};
                 })[0];
        mlir::Value counter = flatPosition(b, loc, dims);
        mlir::Value target =
            mlir::arith::MulFOp::create(b, loc, d.uniform(counter), total);
        mlir::Value last =
            mlir::arith::SubIOp::create(b, loc, classes, indexConst(b, loc, 1));
        // (running sum, chosen class, found).
        llvm::SmallVector<mlir::Value> walked = loop(
            mlir::ValueRange{floatConst(b, loc, f64, 0), last,
                             mlir::arith::ConstantIntOp::create(b, loc, 0, 1)},
            [&](mlir::Value c, mlir::ValueRange acc) {
              mlir::Value sum =
                  mlir::arith::AddFOp::create(b, loc, acc[0], weight(c));
              mlir::Value passes = mlir::arith::CmpFOp::create(
                  b, loc, mlir::arith::CmpFPredicate::OGT, sum, target);
              mlir::Value take = mlir::arith::AndIOp::create(
                  b, loc, passes,
                  mlir::arith::XOrIOp::create(
                      b, loc, acc[2],
                      mlir::arith::ConstantIntOp::create(b, loc, 1, 1)));
              return llvm::SmallVector<mlir::Value>{
                  sum, mlir::arith::SelectOp::create(b, loc, take, c, acc[1]),
                  mlir::arith::OrIOp::create(b, loc, acc[2], passes)};
            });
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::ValueRange{
                mlir::arith::IndexCastOp::create(b, loc, element, walked[1])});
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> randomConverters() {
  return {{"RandomUniform", randomOp<false, false>},
          {"RandomNormal", randomOp<false, true>},
          {"RandomUniformLike", randomOp<true, false>},
          {"RandomNormalLike", randomOp<true, true>},
          {"Bernoulli", bernoulli},
          {"Multinomial", multinomial}};
}

} // namespace aot::onnx_import
