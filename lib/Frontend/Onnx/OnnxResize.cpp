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

/// How one resized dim maps an output position to an input coordinate.
struct ResizedDim {
  int64_t dim, in, out;
  double scale;
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

  // The scale of each dim: given, or the ratio of the sizes given.
  std::vector<double> scales;
  if (ctx.hasInput(2)) {
    auto given = ctx.constantFloats(2);
    if (!given)
      return ctx.fail("takes constant scales");
    scales = *given;
  }
  if (scales.empty()) {
    // Partly known: exporters compute the sizes from the input's own shape,
    // so an element known only at run time is a dynamic dim kept as it is.
    auto sizes = ctx.hasInput(3) ? ctx.knownInts(3) : std::nullopt;
    if (!sizes)
      return ctx.fail("takes constant scales or sizes");
    if (int64_t(sizes->size()) != rank)
      return ctx.fail("has " + llvm::Twine(sizes->size()) +
                      " sizes for an input of rank " + llvm::Twine(rank));
    for (int64_t d = 0; d < rank; ++d) {
      int64_t in = xType.getDimSize(d);
      if ((*sizes)[d] == in ||
          (xType.isDynamicDim(d) && (*sizes)[d] == kUnknownElement)) {
        scales.push_back(1);
        continue;
      }
      if (xType.isDynamicDim(d) || in == 0)
        return ctx.fail("resizes dim " + llvm::Twine(d) +
                        ", whose size is dynamic");
      scales.push_back(double((*sizes)[d]) / double(in));
    }
  }
  if (int64_t(scales.size()) != rank)
    return ctx.fail("has " + llvm::Twine(scales.size()) +
                    " scales for an input of rank " + llvm::Twine(rank));
  std::vector<ResizedDim> resized;
  llvm::SmallVector<mlir::Value> dims(rank);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t in = xType.getDimSize(d), o = out.getDimSize(d);
    if (scales[d] == 1 && (in == o || xType.isDynamicDim(d))) {
      if (out.isDynamicDim(d))
        dims[d] = ctx.dim(x, d);
      continue;
    }
    if (xType.isDynamicDim(d) || out.isDynamicDim(d))
      return ctx.fail("resizes dim " + llvm::Twine(d) +
                      ", whose size is dynamic");
    if (!(scales[d] > 0))
      return ctx.fail("takes positive scales");
    resized.push_back({d, in, o, scales[d]});
  }

  // Coordinates and weights in f32, or f64 for f64 tensors.
  mlir::Type f32 = element.isF64() ? mlir::Type(ctx.b.getF64Type())
                                   : mlir::Type(ctx.b.getF32Type());
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
        auto clamp = [&](mlir::Value v, double hi) -> mlir::Value {
          v = mlir::arith::MaximumFOp::create(b, loc, v, real(0));
          return mlir::arith::MinimumFOp::create(b, loc, v, real(hi));
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
            c = r.out == 1 ? real(0)
                           : mlir::Value(mlir::arith::MulFOp::create(
                                 b, loc, o,
                                 real(double(r.in - 1) / double(r.out - 1))));
          } else if (transform == "asymmetric") {
            c = mlir::arith::DivFOp::create(b, loc, o, real(r.scale));
          } else {
            c = mlir::arith::DivFOp::create(
                b, loc, mlir::arith::AddFOp::create(b, loc, o, real(0.5)),
                real(r.scale));
            if (transform != "tf_half_pixel_for_nn")
              c = mlir::arith::SubFOp::create(b, loc, c, real(0.5));
            if (transform == "pytorch_half_pixel" && r.out == 1)
              c = real(0);
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
            at[resized[k].dim] = toIndex(clamp(c, double(resized[k].in - 1)));
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
            double last = double(resized[k].in - 1);
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
                    mlir::arith::CmpFOp::create(b, loc,
                                                mlir::arith::CmpFPredicate::OLE,
                                                p, real(last)));
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
            double last = double(resized[k].in - 1);
            mlir::Value c = clamp(coords[k], last);
            mlir::Value floor = mlir::math::FloorOp::create(b, loc, c);
            weight.push_back(mlir::arith::SubFOp::create(b, loc, c, floor));
            lo.push_back(toIndex(floor));
            hi.push_back(toIndex(mlir::arith::MinimumFOp::create(
                b, loc, mlir::arith::AddFOp::create(b, loc, floor, real(1)),
                real(last))));
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
