//===- OnnxSignal.cpp - windows, DFT, STFT and mel filter banks -----------===//
//
// The signal ops of opset 17. A DFT is a sum over the input's elements along
// one axis against a table of twiddle factors, cos and sin of 2 pi (j k mod n)
// / n for each output bin k and input position j: the table is made once per
// call (bins x positions, in double, rounded once to the element type) so the
// sum itself is multiply-adds, and taking j k mod n before the division keeps
// the angles exact for long transforms. An input shorter than the transform
// length counts as zero-padded, so the sum runs over the positions there are;
// a longer one is cut. STFT cuts the signal into frames (times the window)
// and takes the DFT of each. HannWindow, HammingWindow and BlackmanWindow are
// sums of cosines of the position; MelWeightMatrix is ONNX's triangular
// filter bank over DFT bins, computed element by element as its definition
// reads.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxScalar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <numbers>

namespace aot::onnx_import {

namespace {

// In a unity build a file before this one may declare an indexConst of its
// own in this anonymous namespace, which would hide the shared one.
using onnx_import::indexConst;

/// Scalar arithmetic in f64 inside bodies.
struct Scalars : ScalarMath {
  Scalars(mlir::OpBuilder &b, mlir::Location loc)
      : ScalarMath{b, loc, b.getF64Type()} {}
  mlir::Type f64() { return f; }
  mlir::Value cos(mlir::Value v) {
    return mlir::math::CosOp::create(b, loc, v);
  }
  mlir::Value sin(mlir::Value v) {
    return mlir::math::SinOp::create(b, loc, v);
  }
};

/// The constant value of an index, or ShapedType::kDynamic.
int64_t staticOf(mlir::Value v) {
  return mlir::getConstantIntValue(v).value_or(mlir::ShapedType::kDynamic);
}

/// The window functions: a0 - a1 cos(x) + a2 cos(2x), x = 2 pi i / N, with
/// N the size (periodic) or the size less one (symmetric).
mlir::LogicalResult window(NodeContext &ctx, double a0, double a1, double a2) {
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!outType)
    return mlir::failure();
  if (outType.getRank() != 1)
    return ctx.fail("makes a tensor of rank 1, not " + typeText(outType));
  mlir::Value size = scalarOperand(ctx, 0, ctx.b.getIndexType(), "size");
  if (!size)
    return mlir::failure();
  Scalars s{ctx.b, ctx.loc};
  if (int64_t n = staticOf(size); n != mlir::ShapedType::kDynamic && n < 0)
    return ctx.fail("its size " + llvm::Twine(n) + " is negative");
  // A negative size read at run time makes an empty window.
  size = mlir::arith::MaxSIOp::create(ctx.b, ctx.loc, size,
                                      indexConst(ctx.b, ctx.loc, 0));
  mlir::Value n = s.realOf(size);
  if (ctx.intAttr("periodic", 1) == 0)
    n = s.sub(n, s.real(1));
  // One element of a symmetric window divides by zero: it is a0 - a1 + a2.
  n = mlir::arith::MaximumFOp::create(ctx.b, ctx.loc, n, s.real(1));
  mlir::Value step = s.div(s.real(2 * std::numbers::pi), n);
  mlir::Type element = outType.getElementType();
  auto identity =
      mlir::AffineMap::getMultiDimIdentityMap(1, ctx.b.getContext());
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{outType}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(outType, {size})},
      llvm::SmallVector<mlir::AffineMap>{identity}, parallelIterators(1),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange) {
        Scalars t{b, loc};
        mlir::Value x =
            t.mul(t.realOf(mlir::linalg::IndexOp::create(b, loc, 0)), step);
        mlir::Value y = t.sub(t.real(a0), t.mul(t.real(a1), t.cos(x)));
        if (a2 != 0)
          y = t.add(y, t.mul(t.real(a2), t.cos(t.add(x, x))));
        mlir::linalg::YieldOp::create(b, loc,
                                      convertScalar(b, loc, y, element));
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

mlir::LogicalResult hannWindow(NodeContext &ctx) {
  return window(ctx, 0.5, 0.5, 0);
}
mlir::LogicalResult hammingWindow(NodeContext &ctx) {
  return window(ctx, 25.0 / 46, 21.0 / 46, 0);
}
mlir::LogicalResult blackmanWindow(NodeContext &ctx) {
  return window(ctx, 0.42, 0.5, 0.08);
}

/// What a DFT computes: along `axis` of an input whose last dim holds 1
/// (real) or 2 (real, imaginary) parts, `bins` outputs of a transform of
/// length `n` (index values).
struct Transform {
  int64_t axis;
  mlir::Value n;
  mlir::Value bins;
  bool inverse;
};

/// The DFT of `x` (its last dim 1 or 2) by `t`: x's shape with `bins` along
/// the axis and 2 parts last.
mlir::Value dft(NodeContext &ctx, mlir::Value x, const Transform &t) {
  mlir::OpBuilder &b = ctx.b;
  mlir::MLIRContext *mctx = b.getContext();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  mlir::Type element = xType.getElementType();
  bool complex = xType.getDimSize(rank - 1) == 2;

  // The positions that count: the input's, up to n.
  mlir::Value length = ctx.dim(x, t.axis);
  mlir::Value m = mlir::arith::MinSIOp::create(b, ctx.loc, length, t.n);
  if (staticOf(m) == mlir::ShapedType::kDynamic ||
      staticOf(m) != xType.getDimSize(t.axis)) {
    llvm::SmallVector<mlir::OpFoldResult> offsets(rank, b.getIndexAttr(0)),
        sizes, strides(rank, b.getIndexAttr(1));
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(d == t.axis ? mlir::getAsOpFoldResult(m)
                                  : mlir::getAsOpFoldResult(ctx.dim(x, d)));
    x = mlir::tensor::ExtractSliceOp::create(b, ctx.loc, x, offsets, sizes,
                                             strides);
  }

  // The twiddle table, bins x m: cos and sin of 2 pi (j k mod n) / n,
  // divided by n for the inverse.
  auto tableType =
      mlir::RankedTensorType::get({staticOf(t.bins), staticOf(m)}, element);
  auto identity2 = mlir::AffineMap::getMultiDimIdentityMap(2, mctx);
  Scalars s{b, ctx.loc};
  mlir::Value nReal = s.realOf(t.n);
  mlir::Value nInt =
      mlir::arith::IndexCastOp::create(b, ctx.loc, b.getI64Type(), t.n);
  mlir::Value scale = t.inverse ? s.div(s.real(1), nReal) : s.real(1);
  auto table = mlir::linalg::GenericOp::create(
      b, ctx.loc, mlir::TypeRange{tableType, tableType}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(tableType, {t.bins, m}),
                       ctx.empty(tableType, {t.bins, m})},
      llvm::SmallVector<mlir::AffineMap>{identity2, identity2},
      parallelIterators(2),
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange) {
        Scalars u{ib, loc};
        auto at = [&](int64_t d) {
          return mlir::arith::IndexCastOp::create(
              ib, loc, ib.getI64Type(),
              mlir::linalg::IndexOp::create(ib, loc, d));
        };
        mlir::Value jk = mlir::arith::RemSIOp::create(
            ib, loc, mlir::arith::MulIOp::create(ib, loc, at(0), at(1)), nInt);
        mlir::Value angle =
            u.div(u.mul(u.real(2 * std::numbers::pi),
                        mlir::arith::SIToFPOp::create(ib, loc, u.f64(), jk)),
                  nReal);
        mlir::linalg::YieldOp::create(
            ib, loc,
            mlir::ValueRange{
                convertScalar(ib, loc, u.mul(u.cos(angle), scale), element),
                convertScalar(ib, loc, u.mul(u.sin(angle), scale), element)});
      });
  mlir::Value cosT = table.getResult(0), sinT = table.getResult(1);

  // The sums: over (the output's dims but the parts, j), j last.
  int64_t loops = rank; // rank - 1 output dims and j
  auto d = [&](int64_t i) { return mlir::getAffineDimExpr(i, mctx); };
  auto part = [&](int64_t p) {
    llvm::SmallVector<mlir::AffineExpr> e;
    for (int64_t i = 0; i < rank - 1; ++i)
      e.push_back(i == t.axis ? d(loops - 1) : d(i));
    e.push_back(mlir::getAffineConstantExpr(p, mctx));
    return mlir::AffineMap::get(loops, 0, e, mctx);
  };
  auto tableMap =
      mlir::AffineMap::get(loops, 0, {d(t.axis), d(loops - 1)}, mctx);
  llvm::SmallVector<mlir::AffineExpr> outExprs;
  for (int64_t i = 0; i < rank - 1; ++i)
    outExprs.push_back(d(i));
  auto outMap = mlir::AffineMap::get(loops, 0, outExprs, mctx);

  llvm::SmallVector<int64_t> sumShape;
  llvm::SmallVector<mlir::Value> sumDims;
  for (int64_t i = 0; i < rank - 1; ++i) {
    mlir::Value size = i == t.axis ? t.bins : ctx.dim(x, i);
    sumDims.push_back(size);
    sumShape.push_back(i == t.axis ? staticOf(t.bins) : xType.getDimSize(i));
  }
  auto sumType = mlir::RankedTensorType::get(sumShape, element);
  mlir::Value zero = ctx.scalar(element, 0);
  llvm::SmallVector<mlir::Value> inputs = {x};
  llvm::SmallVector<mlir::AffineMap> maps = {part(0)};
  if (complex) {
    inputs.push_back(x);
    maps.push_back(part(1));
  }
  inputs.append({cosT, sinT});
  maps.append({tableMap, tableMap, outMap, outMap});
  auto iterators = parallelIterators(loops);
  iterators.back() = mlir::utils::IteratorType::reduction;
  const bool inverse = t.inverse;
  auto sums = mlir::linalg::GenericOp::create(
      b, ctx.loc, mlir::TypeRange{sumType, sumType}, inputs,
      mlir::ValueRange{ctx.filled(sumType, zero, sumDims),
                       ctx.filled(sumType, zero, sumDims)},
      maps, iterators,
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange v) {
        auto mul = [&](mlir::Value p, mlir::Value q) {
          return mlir::arith::MulFOp::create(ib, loc, p, q).getResult();
        };
        auto add = [&](mlir::Value p, mlir::Value q) {
          return mlir::arith::AddFOp::create(ib, loc, p, q).getResult();
        };
        auto sub = [&](mlir::Value p, mlir::Value q) {
          return mlir::arith::SubFOp::create(ib, loc, p, q).getResult();
        };
        mlir::Value re = v[0];
        mlir::Value im = complex ? v[1] : nullptr;
        mlir::Value c = v[complex ? 2 : 1], sn = v[complex ? 3 : 2];
        mlir::Value accRe = v[complex ? 4 : 3], accIm = v[complex ? 5 : 4];
        // Forward: (re + i im)(cos - i sin); inverse: (re + i im)(cos + i
        // sin), the table already divided by n.
        mlir::Value outRe = mul(re, c), outIm = mul(re, sn);
        outIm = inverse ? outIm : mlir::arith::NegFOp::create(ib, loc, outIm);
        if (im) {
          outRe = inverse ? sub(outRe, mul(im, sn)) : add(outRe, mul(im, sn));
          outIm = add(outIm, mul(im, c));
        }
        mlir::linalg::YieldOp::create(
            ib, loc, mlir::ValueRange{add(accRe, outRe), add(accIm, outIm)});
      });

  // Real and imaginary parts side by side in the last dim.
  llvm::SmallVector<int64_t> outShape(sumShape);
  outShape.push_back(2);
  auto outType = mlir::RankedTensorType::get(outShape, element);
  llvm::SmallVector<mlir::Value> outDims(sumDims);
  outDims.push_back(indexConst(b, ctx.loc, 2));
  llvm::SmallVector<mlir::AffineExpr> leading;
  for (int64_t i = 0; i < rank - 1; ++i)
    leading.push_back(mlir::getAffineDimExpr(i, mctx));
  auto leadMap = mlir::AffineMap::get(rank, 0, leading, mctx);
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(rank, mctx);
  auto joined = mlir::linalg::GenericOp::create(
      b, ctx.loc, mlir::TypeRange{outType},
      mlir::ValueRange{sums.getResult(0), sums.getResult(1)},
      mlir::ValueRange{ctx.empty(outType, outDims)},
      llvm::SmallVector<mlir::AffineMap>{leadMap, leadMap, identity},
      parallelIterators(rank),
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value first = mlir::arith::CmpIOp::create(
            ib, loc, mlir::arith::CmpIPredicate::eq,
            mlir::linalg::IndexOp::create(ib, loc, rank - 1),
            indexConst(ib, loc, 0));
        mlir::linalg::YieldOp::create(
            ib, loc,
            mlir::ValueRange{
                mlir::arith::SelectOp::create(ib, loc, first, v[0], v[1])});
      });
  return joined.getResult(0);
}

/// The bins a transform of length `n` gives: all n, or n / 2 + 1 where
/// `onesided` (the rest mirror them for a real input).
mlir::Value binsOf(NodeContext &ctx, mlir::Value n, bool onesided) {
  if (!onesided)
    return n;
  return mlir::arith::AddIOp::create(
      ctx.b, ctx.loc,
      mlir::arith::DivUIOp::create(ctx.b, ctx.loc, n,
                                   indexConst(ctx.b, ctx.loc, 2)),
      indexConst(ctx.b, ctx.loc, 1));
}

/// Whether `x` is a float tensor of rank `minRank` or more whose last dim
/// is 1 or 2; an error naming `what` otherwise.
mlir::LogicalResult checkSignal(NodeContext &ctx, mlir::Value x,
                                int64_t minRank, llvm::StringRef what) {
  auto type = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t last = type.getRank() > 0 ? type.getDimSize(type.getRank() - 1) : 0;
  if (type.getRank() < minRank || (last != 1 && last != 2))
    return ctx.fail("takes " + what + " of rank " + llvm::Twine(minRank) +
                    " or more whose last dim is 1 (real) or 2 (complex), "
                    "not " +
                    typeText(type));
  if (!isFloatType(type.getElementType()))
    return ctx.fail("takes floats, not " + typeText(type));
  return mlir::success();
}

/// A transform length read from input `i` where given; null after an error.
mlir::Value lengthInput(NodeContext &ctx, int i, llvm::StringRef what) {
  mlir::Value n = scalarOperand(ctx, i, ctx.b.getIndexType(), what);
  if (!n)
    return nullptr;
  if (int64_t c = staticOf(n); c != mlir::ShapedType::kDynamic && c < 1) {
    (void)ctx.fail("its " + what + " " + llvm::Twine(c) + " is not positive");
    return nullptr;
  }
  // One read at run time below 1 is taken as 1: no division by zero.
  return mlir::arith::MaxSIOp::create(ctx.b, ctx.loc, n,
                                      indexConst(ctx.b, ctx.loc, 1));
}

/// DFT (opset 17: the axis an attribute, dft_length an optional input).
mlir::LogicalResult dftOp(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!x || !outType || failed(checkSignal(ctx, x, 2, "a signal")))
    return mlir::failure();
  int64_t rank = llvm::cast<mlir::RankedTensorType>(x.getType()).getRank();
  int64_t axis = ctx.intAttr("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank - 2)
    return ctx.fail("its axis " + llvm::Twine(ctx.intAttr("axis", 1)) +
                    " is not a dim of the signal but the last (rank " +
                    llvm::Twine(rank) + ")");
  bool inverse = ctx.intAttr("inverse", 0) != 0;
  bool onesided = ctx.intAttr("onesided", 0) != 0;
  if (inverse && onesided)
    return ctx.fail("an inverse transform cannot be onesided");
  mlir::Value n =
      ctx.hasInput(1) ? lengthInput(ctx, 1, "dft_length") : ctx.dim(x, axis);
  if (!n)
    return mlir::failure();
  mlir::Value y = dft(ctx, x, {axis, n, binsOf(ctx, n, onesided), inverse});
  ctx.setOutput(0, ctx.castedTo(ctx.b, y, outType, "the transform"));
  return mlir::success();
}

/// STFT: frames of frame_length every frame_step positions, each times
/// the window where given, each transformed.
mlir::LogicalResult stft(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!x || !outType || failed(checkSignal(ctx, x, 3, "a signal")))
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  if (xType.getRank() != 3)
    return ctx.fail("takes a signal of batch x length x 1 or 2, not " +
                    typeText(xType));
  mlir::OpBuilder &b = ctx.b;
  mlir::Value step = lengthInput(ctx, 1, "frame_step");
  if (!step)
    return mlir::failure();
  mlir::Value window = ctx.hasInput(2) ? ctx.input(2) : nullptr;
  if (ctx.hasInput(2) && !window)
    return mlir::failure();
  if (window) {
    auto wType = llvm::cast<mlir::RankedTensorType>(window.getType());
    if (wType.getRank() != 1)
      return ctx.fail("takes a window of rank 1, not " + typeText(wType));
    if (wType.getElementType() != xType.getElementType())
      return ctx.fail("takes a window of the signal's type " +
                      typeText(xType.getElementType()) + ", not " +
                      typeText(wType));
  }
  mlir::Value n;
  if (ctx.hasInput(3)) {
    n = lengthInput(ctx, 3, "frame_length");
    if (!n)
      return mlir::failure();
    if (window) {
      int64_t w =
          llvm::cast<mlir::RankedTensorType>(window.getType()).getDimSize(0);
      int64_t c = staticOf(n);
      if (w != mlir::ShapedType::kDynamic && c != mlir::ShapedType::kDynamic &&
          w != c)
        return ctx.fail("its window of " + llvm::Twine(w) +
                        " elements is not its frame_length " + llvm::Twine(c));
    }
  } else if (window) {
    n = ctx.dim(window, 0);
  } else {
    return ctx.fail("needs a window or a frame_length");
  }

  // frames = (length - n) / step + 1, none where the signal is shorter.
  mlir::Value length = ctx.dim(x, 1);
  mlir::Value zero = indexConst(b, ctx.loc, 0);
  mlir::Value room = mlir::arith::SubIOp::create(b, ctx.loc, length, n);
  mlir::Value frames = mlir::arith::SelectOp::create(
      b, ctx.loc,
      mlir::arith::CmpIOp::create(b, ctx.loc, mlir::arith::CmpIPredicate::slt,
                                  room, zero),
      zero,
      mlir::arith::AddIOp::create(
          b, ctx.loc, mlir::arith::DivUIOp::create(b, ctx.loc, room, step),
          indexConst(b, ctx.loc, 1)));
  if (staticOf(frames) == 0)
    return ctx.fail("its signal of " + llvm::Twine(xType.getDimSize(1)) +
                    " positions is shorter than a frame (" +
                    llvm::Twine(staticOf(n)) + ")");

  // framed[b, f, j, c] = x[b, f step + j, c] (times window[j]).
  int64_t parts = xType.getDimSize(2);
  auto framedType = mlir::RankedTensorType::get(
      {xType.getDimSize(0), staticOf(frames), staticOf(n), parts},
      xType.getElementType());
  mlir::MLIRContext *mctx = b.getContext();
  auto identity = mlir::AffineMap::getMultiDimIdentityMap(4, mctx);
  llvm::SmallVector<mlir::Value> ins;
  llvm::SmallVector<mlir::AffineMap> maps;
  if (window) {
    ins.push_back(window);
    maps.push_back(
        mlir::AffineMap::get(4, 0, {mlir::getAffineDimExpr(2, mctx)}, mctx));
  }
  maps.push_back(identity);
  auto framed = mlir::linalg::GenericOp::create(
      b, ctx.loc, mlir::TypeRange{framedType}, ins,
      mlir::ValueRange{ctx.empty(framedType, {ctx.dim(x, 0), frames, n,
                                              indexConst(b, ctx.loc, parts)})},
      maps, parallelIterators(4),
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange v) {
        auto index = [&](int64_t d) {
          return mlir::linalg::IndexOp::create(ib, loc, d).getResult();
        };
        mlir::Value at = mlir::arith::AddIOp::create(
            ib, loc, mlir::arith::MulIOp::create(ib, loc, index(1), step),
            index(2));
        mlir::Value e = mlir::tensor::ExtractOp::create(
            ib, loc, x, mlir::ValueRange{index(0), at, index(3)});
        if (window)
          e = mlir::arith::MulFOp::create(ib, loc, e, v[0]);
        mlir::linalg::YieldOp::create(ib, loc, e);
      });
  bool onesided = ctx.intAttr("onesided", 1) != 0;
  mlir::Value y =
      dft(ctx, framed.getResult(0), {2, n, binsOf(ctx, n, onesided), false});
  ctx.setOutput(0, ctx.castedTo(b, y, outType, "the transform"));
  return mlir::success();
}

/// MelWeightMatrix: for each DFT bin j and mel band i, the height at j of
/// the triangle over bins f(i) .. f(i + 2) whose top is at f(i + 1), with
/// f the edges of num_mel_bins + 2 bands equally wide in mels, in bins.
mlir::LogicalResult melWeightMatrix(NodeContext &ctx) {
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!outType)
    return mlir::failure();
  if (outType.getRank() != 2)
    return ctx.fail("makes a tensor of rank 2, not " + typeText(outType));
  mlir::OpBuilder &b = ctx.b;
  mlir::Type f64 = b.getF64Type();
  mlir::Value mels = scalarOperand(ctx, 0, b.getIndexType(), "num_mel_bins");
  mlir::Value length = scalarOperand(ctx, 1, b.getIndexType(), "dft_length");
  mlir::Value rate = scalarOperand(ctx, 2, f64, "sample_rate");
  mlir::Value lower = scalarOperand(ctx, 3, f64, "lower_edge_hertz");
  mlir::Value upper = scalarOperand(ctx, 4, f64, "upper_edge_hertz");
  if (!mels || !length || !rate || !lower || !upper)
    return mlir::failure();
  for (auto [v, what] :
       {std::pair{mels, "num_mel_bins"}, std::pair{length, "dft_length"}})
    if (int64_t c = staticOf(v); c != mlir::ShapedType::kDynamic && c < 1)
      return ctx.fail("its " + llvm::Twine(what) + " " + llvm::Twine(c) +
                      " is not positive");
  mlir::Value zero = indexConst(b, ctx.loc, 0);
  mels = mlir::arith::MaxSIOp::create(b, ctx.loc, mels, zero);
  length = mlir::arith::MaxSIOp::create(b, ctx.loc, length, zero);

  Scalars s{b, ctx.loc};
  auto toMel = [&](mlir::Value hz) {
    return s.mul(s.real(2595),
                 mlir::math::Log10Op::create(
                     b, ctx.loc, s.add(s.real(1), s.div(hz, s.real(700)))));
  };
  mlir::Value low = toMel(lower);
  mlir::Value melStep =
      s.div(s.sub(toMel(upper), low), s.add(s.realOf(mels), s.real(2)));
  mlir::Value scale = s.add(s.realOf(length), s.real(1));
  mlir::Type i64 = b.getI64Type();

  // The band edges in bins, num_mel_bins + 2 of them.
  mlir::Value edgeCount =
      mlir::arith::AddIOp::create(b, ctx.loc, mels, indexConst(b, ctx.loc, 2));
  auto edgesType = mlir::RankedTensorType::get({staticOf(edgeCount)}, i64);
  auto identity1 = mlir::AffineMap::getMultiDimIdentityMap(1, b.getContext());
  auto edges = mlir::linalg::GenericOp::create(
      b, ctx.loc, mlir::TypeRange{edgesType}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(edgesType, {edgeCount})},
      llvm::SmallVector<mlir::AffineMap>{identity1}, parallelIterators(1),
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange) {
        Scalars t{ib, loc};
        mlir::Value mel = t.add(
            t.mul(t.realOf(mlir::linalg::IndexOp::create(ib, loc, 0)), melStep),
            low);
        // 700 (10^(mel / 2595) - 1) hertz, in bins of the transform.
        mlir::Value hz = t.mul(
            t.real(700),
            t.sub(mlir::math::ExpOp::create(
                      ib, loc, t.mul(mel, t.real(std::numbers::ln10 / 2595))),
                  t.real(1)));
        mlir::Value bin =
            mlir::math::FloorOp::create(ib, loc, t.div(t.mul(scale, hz), rate));
        mlir::linalg::YieldOp::create(
            ib, loc,
            mlir::ValueRange{mlir::arith::FPToSIOp::create(ib, loc, i64, bin)});
      });
  mlir::Value edgeTensor = edges.getResult(0);

  mlir::Value bins = binsOf(ctx, length, true);
  mlir::Type element = outType.getElementType();
  auto identity2 = mlir::AffineMap::getMultiDimIdentityMap(2, b.getContext());
  auto matrix = mlir::linalg::GenericOp::create(
      b, ctx.loc, mlir::TypeRange{outType}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(outType, {bins, mels})},
      llvm::SmallVector<mlir::AffineMap>{identity2}, parallelIterators(2),
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange) {
        Scalars t{ib, loc};
        mlir::Value j = mlir::linalg::IndexOp::create(ib, loc, 0);
        mlir::Value i = mlir::linalg::IndexOp::create(ib, loc, 1);
        auto edge = [&](int64_t k) {
          mlir::Value at =
              mlir::arith::AddIOp::create(ib, loc, i, indexConst(ib, loc, k));
          return mlir::tensor::ExtractOp::create(ib, loc, edgeTensor,
                                                 mlir::ValueRange{at})
              .getResult();
        };
        mlir::Value left = edge(0), centre = edge(1), right = edge(2);
        mlir::Value jj = mlir::arith::IndexCastOp::create(ib, loc, i64, j);
        auto real = [&](mlir::Value v) {
          return mlir::arith::SIToFPOp::create(ib, loc, t.f64(), v).getResult();
        };
        auto minus = [&](mlir::Value p, mlir::Value q) {
          return real(mlir::arith::SubIOp::create(ib, loc, p, q));
        };
        using P = mlir::arith::CmpIPredicate;
        auto both = [&](mlir::Value p, mlir::Value q) {
          return mlir::arith::AndIOp::create(ib, loc, p, q).getResult();
        };
        // Rising from left to the centre (1 at a centre on the left edge).
        mlir::Value rising =
            both(t.cmp(P::sle, left, jj), t.cmp(P::sle, jj, centre));
        mlir::Value flat = t.cmp(P::eq, centre, left);
        mlir::Value up = t.select(
            flat, t.real(1),
            t.div(minus(jj, left),
                  real(t.select(
                      flat, mlir::arith::ConstantIntOp::create(ib, loc, i64, 1),
                      mlir::arith::SubIOp::create(ib, loc, centre, left)))));
        // Falling from the centre to right (right itself not included).
        mlir::Value falling =
            both(t.cmp(P::sle, centre, jj), t.cmp(P::slt, jj, right));
        mlir::Value down = t.div(
            minus(right, jj),
            real(mlir::arith::MaxSIOp::create(
                ib, loc, mlir::arith::SubIOp::create(ib, loc, right, centre),
                mlir::arith::ConstantIntOp::create(ib, loc, i64, 1))));
        mlir::Value y =
            t.select(falling, down, t.select(rising, up, t.real(0)));
        mlir::linalg::YieldOp::create(ib, loc,
                                      convertScalar(ib, loc, y, element));
      });
  ctx.setOutput(0, matrix.getResult(0));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> signalConverters() {
  return {{"HannWindow", hannWindow, {0}},
          {"HammingWindow", hammingWindow, {0}},
          {"BlackmanWindow", blackmanWindow, {0}},
          {"DFT", dftOp, {1}},
          {"STFT", stft, {1, 3}},
          {"MelWeightMatrix", melWeightMatrix, {0, 1, 2, 3, 4}}};
}

} // namespace aot::onnx_import
