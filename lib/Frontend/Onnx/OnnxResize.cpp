//===- OnnxResize.cpp - Resize: nearest, n-linear and n-cubic ------------===//
//
// One linalg.generic over the output: each element maps its position back
// to the input by the node's coordinate transformation and reads the
// nearest input element, or the 2^k neighbours of the k resized dims
// weighted by distance, or their 4^k neighbours weighted by the cubic
// convolution kernel (neighbours beyond the edge read the edge). Dims
// whose size does not change are read where they are (a dynamic batch
// among them).
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxFold.h"
#include "Frontend/Onnx/OnnxNode.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>

namespace aot::onnx_import {

namespace {

/// How one resized dim maps an output position to an input coordinate:
/// by its sizes and scale where known at import, else by values computed
/// before the resize (in the coordinates' float type).
struct ResizedDim {
  int64_t dim, in, out;
  double scale;
  mlir::Value inValue, outValue, scaleValue;
  /// Resized by scales given, not by sizes.
  bool byScale;
};

mlir::LogicalResult resize(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  std::string mode = ctx.stringAttr("mode", "nearest");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return ctx.fail("mode '" + mode + "' is not one of nearest, linear, cubic");
  std::string transform =
      ctx.stringAttr("coordinate_transformation_mode", "half_pixel");
  if (transform != "half_pixel" && transform != "pytorch_half_pixel" &&
      transform != "align_corners" && transform != "asymmetric" &&
      transform != "tf_half_pixel_for_nn")
    return ctx.fail("coordinate_transformation_mode '" + transform +
                    "' is not supported");
  std::string rounding = ctx.stringAttr("nearest_mode", "round_prefer_floor");
  if (rounding != "round_prefer_floor" && rounding != "round_prefer_ceil" &&
      rounding != "floor" && rounding != "ceil")
    return ctx.fail("nearest_mode '" + rounding + "' is not supported");
  if (ctx.intAttr("antialias", 0))
    return ctx.fail("antialias is not supported");
  mlir::Type element = out.getElementType();
  if (mode != "nearest" && !llvm::isa<mlir::FloatType>(element))
    return ctx.fail(mode + " mode takes float tensors");
  const double cubicA = ctx.floatAttr("cubic_coeff_a", -0.75f);
  const bool excludeOutside = ctx.intAttr("exclude_outside", 0) != 0;

  // Coordinates and weights in f32, or f64 for f64 tensors.
  mlir::Type f32 = element.isF64() ? mlir::Type(ctx.b.getF64Type())
                                   : mlir::Type(ctx.b.getF32Type());
  auto asReal = [&](mlir::Value index) -> mlir::Value {
    return mlir::arith::SIToFPOp::create(
        ctx.b, ctx.loc, f32,
        mlir::arith::IndexCastOp::create(ctx.b, ctx.loc, ctx.b.getI64Type(),
                                         index));
  };
  // `v`, or `c` as a constant where `v` is null (known at import).
  auto orConstant = [&](mlir::Value v, double c) -> mlir::Value {
    return v ? v : floatConst(ctx.b, ctx.loc, f32, c);
  };
  // Element d of a run-time scales or sizes input, as a float.
  auto element1d = [&](mlir::Value v, int64_t d) -> mlir::Value {
    mlir::Value at = mlir::arith::ConstantIndexOp::create(ctx.b, ctx.loc, d);
    mlir::Value e = mlir::tensor::ExtractOp::create(ctx.b, ctx.loc, v, at);
    if (llvm::isa<mlir::IntegerType>(e.getType()))
      return mlir::arith::SIToFPOp::create(ctx.b, ctx.loc, f32, e);
    if (e.getType() != f32)
      return mlir::arith::ExtFOp::create(ctx.b, ctx.loc, f32, e);
    return e;
  };

  // Each dim: read where it is (its size unchanged), or resized by a scale
  // given, or by the ratio of the size given to the input's. What is not
  // known at import is read at run time: the scales or sizes themselves,
  // or the input's dynamic sizes.
  std::vector<ResizedDim> resized;
  llvm::SmallVector<mlir::Value> dims(rank);
  std::optional<std::vector<double>> scales;
  mlir::Value runtimeScales, runtimeSizes;
  std::optional<std::vector<int64_t>> sizes;
  if (ctx.hasInput(2)) {
    mlir::RankedTensorType type = ctx.inputType(2);
    if (!type)
      return mlir::failure();
    if (!type.hasStaticShape() || type.getNumElements() != 0) {
      scales = ctx.constantFloats(2);
      if (!scales && !(runtimeScales = ctx.input(2)))
        return mlir::failure();
    }
  }
  if (!scales && !runtimeScales) {
    if (!ctx.hasInput(3))
      return ctx.fail("takes scales or sizes");
    mlir::RankedTensorType type = ctx.inputType(3);
    if (!type)
      return mlir::failure();
    sizes = ctx.knownInts(3);
    if (!sizes) {
      if (type.getRank() != 1 || type.isDynamicDim(0))
        return ctx.fail("takes sizes of a static length");
      sizes = std::vector<int64_t>(type.getDimSize(0), kUnknownElement);
    }
    if (llvm::any_of(*sizes, [](int64_t v) { return v == kUnknownElement; }) &&
        !(runtimeSizes = ctx.input(3)))
      return mlir::failure();
  }
  if (runtimeScales) {
    auto type = llvm::cast<mlir::RankedTensorType>(runtimeScales.getType());
    if (type.getRank() != 1 || type.isDynamicDim(0))
      return ctx.fail("takes scales of a static length");
  }
  const std::size_t given =
      scales  ? scales->size()
      : sizes ? sizes->size()
              : std::size_t(
                    llvm::cast<mlir::RankedTensorType>(runtimeScales.getType())
                        .getDimSize(0));
  if (int64_t(given) != rank)
    return ctx.fail("has " + llvm::Twine(given) +
                    (sizes ? " sizes" : " scales") + " for an input of rank " +
                    llvm::Twine(rank));
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t in = xType.getDimSize(d), o = out.getDimSize(d);
    ResizedDim r{d,       in,      o,       1.0,
                 nullptr, nullptr, nullptr, scales || runtimeScales};
    const bool dynamicIn = xType.isDynamicDim(d);
    if (scales) {
      r.scale = (*scales)[d];
      if (!(r.scale > 0))
        return ctx.fail("takes positive scales");
      if (r.scale == 1 && (in == o || dynamicIn)) {
        if (out.isDynamicDim(d))
          dims[d] = ctx.dim(x, d);
        continue;
      }
    } else if (sizes && (*sizes)[d] != kUnknownElement) {
      const int64_t size = (*sizes)[d];
      if (size == in)
        continue;
      if (size < 1)
        return ctx.fail("takes sizes of 1 or more");
      if (!dynamicIn) {
        if (in == 0)
          return ctx.fail("resizes dim " + llvm::Twine(d) + ", of size 0");
        r.scale = double(size) / double(in);
      }
      r.out = size;
    } else if (sizes && dynamicIn && d < 2 && rank > 2) {
      // The batch or channels of an image, of a size known only at run
      // time: exporters take both from the input's own shape (PyTorch's
      // interpolate resizes the spatial dims only).
      if (out.isDynamicDim(d))
        dims[d] = ctx.dim(x, d);
      continue;
    }
    if (dynamicIn)
      r.inValue = asReal(ctx.dim(x, d));
    if (runtimeScales) {
      r.scaleValue = element1d(runtimeScales, d);
    } else if (runtimeSizes && (!sizes || (*sizes)[d] == kUnknownElement)) {
      r.outValue = element1d(runtimeSizes, d);
      r.out = o;
    }
    // The output's size: known, or floor(in * scale) as ONNX defines it,
    // or the size given at run time.
    if (mlir::ShapedType::isDynamic(r.out) && !r.outValue) {
      r.outValue = mlir::math::FloorOp::create(
          ctx.b, ctx.loc,
          mlir::arith::MulFOp::create(ctx.b, ctx.loc,
                                      orConstant(r.inValue, double(in)),
                                      orConstant(r.scaleValue, r.scale)));
    }
    if (r.outValue && out.isDynamicDim(d))
      dims[d] = mlir::arith::IndexCastOp::create(
          ctx.b, ctx.loc, ctx.b.getIndexType(),
          mlir::arith::FPToSIOp::create(ctx.b, ctx.loc, ctx.b.getI64Type(),
                                        r.outValue));
    else if (out.isDynamicDim(d))
      return ctx.fail("resizes dim " + llvm::Twine(d) +
                      " to a size it cannot tell");
    // The scale of sizes given: their ratio to the input's.
    if (!scales && !runtimeScales && (r.inValue || r.outValue)) {
      r.scaleValue = mlir::arith::DivFOp::create(
          ctx.b, ctx.loc, orConstant(r.outValue, double(r.out)),
          orConstant(r.inValue, double(in)));
    }
    resized.push_back(r);
  }

  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{},
      mlir::ValueRange{ctx.empty(out, dims)},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::getMultiDimIdentityMap(rank, ctx.b.getContext())},
      llvm::SmallVector<mlir::utils::IteratorType>(
          rank, mlir::utils::IteratorType::parallel),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange) {
        auto real = [&](double v) -> mlir::Value {
          return mlir::arith::ConstantOp::create(b, loc, f32,
                                                 b.getFloatAttr(f32, v));
        };
        auto toIndex = [&](mlir::Value v) -> mlir::Value {
          return mlir::arith::IndexCastOp::create(
              b, loc, b.getIndexType(),
              mlir::arith::FPToSIOp::create(b, loc, b.getI64Type(), v));
        };
        auto clamp = [&](mlir::Value v, mlir::Value hi) -> mlir::Value {
          v = mlir::arith::MaximumFOp::create(b, loc, v, real(0));
          return mlir::arith::MinimumFOp::create(b, loc, v, hi);
        };
        // The last position of a resized dim's input.
        auto lastOf = [&](const ResizedDim &r) -> mlir::Value {
          if (!r.inValue)
            return real(double(r.in - 1));
          return mlir::arith::SubFOp::create(b, loc, r.inValue, real(1));
        };
        auto scaleOf = [&](const ResizedDim &r) -> mlir::Value {
          return r.scaleValue ? r.scaleValue : real(r.scale);
        };
        // `c`, or 0 where the output has one element along r.
        auto zeroWhereOne = [&](const ResizedDim &r, mlir::Value c) {
          if (!r.outValue)
            return r.out == 1 ? real(0) : c;
          mlir::Value one = mlir::arith::CmpFOp::create(
              b, loc, mlir::arith::CmpFPredicate::OEQ, r.outValue, real(1));
          return mlir::Value(
              mlir::arith::SelectOp::create(b, loc, one, real(0), c));
        };
        llvm::SmallVector<mlir::Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(mlir::linalg::IndexOp::create(b, loc, d));
        // Each resized dim: its input coordinate.
        llvm::SmallVector<mlir::Value> coords;
        for (const ResizedDim &r : resized) {
          mlir::Value o = mlir::arith::SIToFPOp::create(
              b, loc, f32,
              mlir::arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                               at[r.dim]));
          mlir::Value c;
          if (transform == "align_corners") {
            // (in - 1) / (length - 1), 0 where the length is 1: the length
            // resized to is in * scale where scales are given (unrounded,
            // as ONNX's reference takes it), else the size given.
            mlir::Value ratio;
            if (!r.inValue && !r.outValue && !r.scaleValue) {
              double length =
                  r.byScale ? double(r.in) * r.scale : double(r.out);
              ratio =
                  length == 1 ? real(0) : real(double(r.in - 1) / (length - 1));
            } else {
              mlir::Value length =
                  r.byScale
                      ? mlir::Value(mlir::arith::MulFOp::create(
                            b, loc, r.inValue ? r.inValue : real(double(r.in)),
                            scaleOf(r)))
                  : r.outValue ? r.outValue
                               : real(double(r.out));
              mlir::Value one = mlir::arith::CmpFOp::create(
                  b, loc, mlir::arith::CmpFPredicate::OEQ, length, real(1));
              ratio = mlir::arith::SelectOp::create(
                  b, loc, one, real(0),
                  mlir::arith::DivFOp::create(
                      b, loc, lastOf(r),
                      mlir::arith::SubFOp::create(b, loc, length, real(1))));
            }
            c = mlir::arith::MulFOp::create(b, loc, o, ratio);
          } else if (transform == "asymmetric") {
            c = mlir::arith::DivFOp::create(b, loc, o, scaleOf(r));
          } else {
            c = mlir::arith::DivFOp::create(
                b, loc, mlir::arith::AddFOp::create(b, loc, o, real(0.5)),
                scaleOf(r));
            if (transform != "tf_half_pixel_for_nn")
              c = mlir::arith::SubFOp::create(b, loc, c, real(0.5));
            if (transform == "pytorch_half_pixel")
              c = zeroWhereOne(r, c);
          }
          coords.push_back(c);
        }
        mlir::Value y;
        if (mode == "nearest") {
          for (size_t k = 0; k < resized.size(); ++k) {
            mlir::Value c = coords[k];
            if (rounding == "round_prefer_floor")
              c = mlir::math::CeilOp::create(
                  b, loc, mlir::arith::SubFOp::create(b, loc, c, real(0.5)));
            else if (rounding == "round_prefer_ceil")
              c = mlir::math::FloorOp::create(
                  b, loc, mlir::arith::AddFOp::create(b, loc, c, real(0.5)));
            else if (rounding == "floor")
              c = mlir::math::FloorOp::create(b, loc, c);
            else
              c = mlir::math::CeilOp::create(b, loc, c);
            at[resized[k].dim] = toIndex(clamp(c, lastOf(resized[k])));
          }
          y = mlir::tensor::ExtractOp::create(b, loc, x, at);
        } else if (mode == "cubic") {
          // Each coordinate's four neighbours (floor - 1 to floor + 2, read
          // at the edge beyond it) and their cubic convolution weights.
          llvm::SmallVector<std::array<mlir::Value, 4>> index, weight;
          auto add = [&](mlir::Value p, mlir::Value q) -> mlir::Value {
            return mlir::arith::AddFOp::create(b, loc, p, q);
          };
          auto mul = [&](mlir::Value p, mlir::Value q) -> mlir::Value {
            return mlir::arith::MulFOp::create(b, loc, p, q);
          };
          // The kernel at distance d: within 1 and between 1 and 2.
          const double a = cubicA;
          auto near = [&](mlir::Value d) {
            // ((a + 2) d - (a + 3)) d^2 + 1
            return add(mul(mul(add(mul(real(a + 2), d), real(-(a + 3))), d), d),
                       real(1));
          };
          auto far = [&](mlir::Value d) {
            // ((a d - 5a) d + 8a) d - 4a
            return add(mul(add(mul(add(mul(real(a), d), real(-5 * a)), d),
                               real(8 * a)),
                           d),
                       real(-4 * a));
          };
          for (size_t k = 0; k < resized.size(); ++k) {
            mlir::Value last = lastOf(resized[k]);
            mlir::Value floor = mlir::math::FloorOp::create(b, loc, coords[k]);
            mlir::Value t =
                mlir::arith::SubFOp::create(b, loc, coords[k], floor);
            mlir::Value u = mlir::arith::SubFOp::create(b, loc, real(1), t);
            std::array<mlir::Value, 4> w = {far(add(t, real(1))), near(t),
                                            near(u), far(add(u, real(1)))};
            std::array<mlir::Value, 4> i;
            mlir::Value sum;
            for (int n = 0; n < 4; ++n) {
              mlir::Value p = add(floor, real(n - 1));
              i[n] = toIndex(clamp(p, last));
              if (excludeOutside) {
                // Neighbours beyond the edge weigh nothing; the others are
                // scaled to sum to one.
                mlir::Value inside = mlir::arith::AndIOp::create(
                    b, loc,
                    mlir::arith::CmpFOp::create(
                        b, loc, mlir::arith::CmpFPredicate::OGE, p, real(0)),
                    mlir::arith::CmpFOp::create(
                        b, loc, mlir::arith::CmpFPredicate::OLE, p, last));
                w[n] = mlir::arith::SelectOp::create(b, loc, inside, w[n],
                                                     real(0));
                sum = sum ? add(sum, w[n]) : w[n];
              }
            }
            if (excludeOutside)
              for (int n = 0; n < 4; ++n)
                w[n] = mlir::arith::DivFOp::create(b, loc, w[n], sum);
            index.push_back(i);
            weight.push_back(w);
          }
          unsigned corners = 1u << (2 * resized.size());
          for (unsigned corner = 0; corner < corners; ++corner) {
            mlir::Value w = real(1);
            for (size_t k = 0; k < resized.size(); ++k) {
              unsigned n = (corner >> (2 * k)) & 3u;
              at[resized[k].dim] = index[k][n];
              w = mul(w, weight[k][n]);
            }
            mlir::Value v = mlir::tensor::ExtractOp::create(b, loc, x, at);
            if (element != f32)
              v = mlir::arith::ExtFOp::create(b, loc, f32, v);
            y = y ? add(y, mul(v, w)) : mul(v, w);
          }
          if (element != f32)
            y = mlir::arith::TruncFOp::create(b, loc, element, y);
        } else {
          // The two neighbours of each coordinate and the weight of the
          // upper one; then the 2^k corners, each weighted by the product.
          llvm::SmallVector<mlir::Value> lo, hi, weight;
          for (size_t k = 0; k < resized.size(); ++k) {
            mlir::Value last = lastOf(resized[k]);
            mlir::Value c = clamp(coords[k], last);
            mlir::Value floor = mlir::math::FloorOp::create(b, loc, c);
            weight.push_back(mlir::arith::SubFOp::create(b, loc, c, floor));
            lo.push_back(toIndex(floor));
            hi.push_back(toIndex(mlir::arith::MinimumFOp::create(
                b, loc, mlir::arith::AddFOp::create(b, loc, floor, real(1)),
                last)));
          }
          mlir::Value one = real(1);
          for (unsigned corner = 0; corner < (1u << resized.size()); ++corner) {
            mlir::Value w = one;
            for (size_t k = 0; k < resized.size(); ++k) {
              bool upper = corner & (1u << k);
              at[resized[k].dim] = upper ? hi[k] : lo[k];
              w = mlir::arith::MulFOp::create(
                  b, loc, w,
                  upper ? weight[k]
                        : mlir::Value(mlir::arith::SubFOp::create(b, loc, one,
                                                                  weight[k])));
            }
            mlir::Value v = mlir::tensor::ExtractOp::create(b, loc, x, at);
            if (element != f32)
              v = mlir::arith::ExtFOp::create(b, loc, f32, v);
            mlir::Value term = mlir::arith::MulFOp::create(b, loc, v, w);
            y = y ? mlir::Value(mlir::arith::AddFOp::create(b, loc, y, term))
                  : term;
          }
          if (element != f32)
            y = mlir::arith::TruncFOp::create(b, loc, element, y);
        }
        mlir::linalg::YieldOp::create(b, loc, y);
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> resizeConverters() {
  // roi (input 1) matters only to tf_crop_and_resize, which is refused.
  return {{"Resize", resize, {1, 2, 3}}};
}

} // namespace aot::onnx_import
