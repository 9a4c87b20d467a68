//===- OnnxGridSample.cpp - GridSample: an image read at given points -----===//
//
// One linalg.generic over the output N x C x Ho x Wo: each element takes
// its point (x, y) from the grid, in [-1, 1] across the image, maps it to
// pixel coordinates (align_corners says whether -1 and 1 are the centres
// or the outer edges of the corner pixels), applies the padding mode to
// points outside (border clamps them, reflection mirrors them at the
// edges), and reads the nearest pixel or the four around it weighted by
// distance. The image is read with a border of zeros around it, where any
// position outside the image reads (what padding "zeros" means).
// PyTorch's grid_sample computes the same.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxScalar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

namespace {

/// Scalar arithmetic in the coordinate type inside the generic's body.
struct Coords : ScalarMath {
  /// `v` within [0, hi]; NaN as 0 (maxnumf takes the number), so that a
  /// position made from it is always in range.
  mlir::Value clamp(mlir::Value v, mlir::Value hi) {
    return mlir::arith::MinNumFOp::create(
        b, loc, mlir::arith::MaxNumFOp::create(b, loc, v, real(0)), hi);
  }

  /// A grid value (-1 to 1) as a coordinate along a dim of `size` pixels.
  mlir::Value unnormalized(mlir::Value g, mlir::Value size, bool corners) {
    mlir::Value g1 = add(g, real(1));
    if (corners)
      return mul(mul(g1, real(0.5)), sub(size, real(1)));
    return mul(sub(mul(g1, size), real(1)), real(0.5));
  }

  /// `v` mirrored at the edges of [low, high] until it lies inside.
  mlir::Value reflected(mlir::Value v, mlir::Value low, mlir::Value high) {
    mlir::Value span = sub(high, low);
    mlir::Value d = mlir::math::AbsFOp::create(b, loc, sub(v, low));
    mlir::Value extra = mlir::arith::RemFOp::create(b, loc, d, span);
    mlir::Value flips = mlir::math::FloorOp::create(
        b, loc, mlir::arith::DivFOp::create(b, loc, d, span));
    mlir::Value even = mlir::arith::CmpFOp::create(
        b, loc, mlir::arith::CmpFPredicate::OEQ,
        mlir::arith::RemFOp::create(b, loc, flips, real(2)), real(0));
    mlir::Value r = mlir::arith::SelectOp::create(b, loc, even, add(extra, low),
                                                  sub(high, extra));
    // An image one pixel wide reflects everything onto its pixel.
    mlir::Value empty = mlir::arith::CmpFOp::create(
        b, loc, mlir::arith::CmpFPredicate::OLE, span, real(0));
    return mlir::arith::SelectOp::create(b, loc, empty, real(0), r);
  }

  /// The coordinate of grid value `g` along a dim of `size` pixels after
  /// the padding mode.
  mlir::Value coordinate(mlir::Value g, mlir::Value size, bool corners,
                         llvm::StringRef padding) {
    mlir::Value c = unnormalized(g, size, corners);
    mlir::Value last = sub(size, real(1));
    if (padding == "border")
      return clamp(c, last);
    if (padding == "reflection") {
      c = corners ? reflected(c, real(0), last)
                  : reflected(c, real(-0.5), sub(size, real(0.5)));
      return clamp(c, last);
    }
    return c;
  }
};

mlir::LogicalResult gridSample(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), grid = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !grid || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  auto gridType = llvm::cast<mlir::RankedTensorType>(grid.getType());
  if (xType.getRank() != 4 || gridType.getRank() != 4 || out.getRank() != 4)
    return ctx.fail("takes a 4-D image and a 4-D grid (2-D sampling)");
  if (gridType.getDimSize(3) != 2)
    return ctx.fail("takes a grid of (x, y) points: its last dim must be 2");
  mlir::Type element = out.getElementType();
  if (!isFloatType(element) || gridType.getElementType() != element)
    return ctx.fail("takes a float image and a grid of the same type");
  std::string mode = ctx.stringAttr("mode", "bilinear");
  if (mode != "bilinear" && mode != "nearest")
    return ctx.fail("mode '" + mode + "' is not supported (bilinear, nearest)");
  std::string padding = ctx.stringAttr("padding_mode", "zeros");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    return ctx.fail("padding_mode '" + padding +
                    "' is not one of zeros, border, reflection");
  const bool corners = ctx.intAttr("align_corners", 0) != 0;

  // Coordinates in f32, or f64 for f64 images.
  mlir::Type f = element.isF64() ? mlir::Type(ctx.b.getF64Type())
                                 : mlir::Type(ctx.b.getF32Type());
  auto sizeOf = [&](int64_t d) -> mlir::Value {
    mlir::Value i = mlir::arith::IndexCastOp::create(
        ctx.b, ctx.loc, ctx.b.getI64Type(), ctx.dim(x, d));
    return mlir::arith::SIToFPOp::create(ctx.b, ctx.loc, f, i);
  };
  mlir::Value height = sizeOf(2), width = sizeOf(3);
  llvm::SmallVector<mlir::Value> dims = {ctx.dim(x, 0), ctx.dim(x, 1),
                                         ctx.dim(grid, 1), ctx.dim(grid, 2)};
  for (int64_t d = 0; d < 4; ++d)
    if (!out.isDynamicDim(d))
      dims[d] = nullptr;
  // A pixel of zeros around the image: what "zeros" padding reads, and
  // what every read beyond the image lands on.
  llvm::SmallVector<int64_t> paddedShape(xType.getShape());
  for (int64_t d = 2; d < 4; ++d)
    if (!xType.isDynamicDim(d))
      paddedShape[d] += 2;
  llvm::SmallVector<mlir::OpFoldResult> low(4, ctx.b.getIndexAttr(0));
  low[2] = low[3] = ctx.b.getIndexAttr(1);
  mlir::Value padded = mlir::tensor::PadOp::create(
      ctx.b, ctx.loc, mlir::RankedTensorType::get(paddedShape, element), x, low,
      low, ctx.scalar(element, 0));

  mlir::MLIRContext *mctx = ctx.b.getContext();
  auto point = [&](int64_t k) {
    return mlir::AffineMap::get(
        4, 0,
        {mlir::getAffineDimExpr(0, mctx), mlir::getAffineDimExpr(2, mctx),
         mlir::getAffineDimExpr(3, mctx), mlir::getAffineConstantExpr(k, mctx)},
        mctx);
  };
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{grid, grid},
      mlir::ValueRange{ctx.empty(out, dims)},
      llvm::SmallVector<mlir::AffineMap>{
          point(0), point(1), mlir::AffineMap::getMultiDimIdentityMap(4, mctx)},
      parallelIterators(4),
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        Coords c{{b, loc, f}};
        auto widened = [&](mlir::Value g) -> mlir::Value {
          return g.getType() == f ? g
                                  : mlir::arith::ExtFOp::create(b, loc, f, g);
        };
        mlir::Value px = c.coordinate(widened(v[0]), width, corners, padding);
        mlir::Value py = c.coordinate(widened(v[1]), height, corners, padding);
        mlir::Value n = mlir::linalg::IndexOp::create(b, loc, 0);
        mlir::Value ch = mlir::linalg::IndexOp::create(b, loc, 1);
        // The pixel at integer-valued (col, row): beyond the image (by
        // any distance, NaN included) the padding's zeros.
        auto pixel = [&](mlir::Value col, mlir::Value row) -> mlir::Value {
          auto at = [&](mlir::Value p, mlir::Value size) -> mlir::Value {
            mlir::Value inPadded =
                c.add(mlir::arith::MinNumFOp::create(
                          b, loc,
                          mlir::arith::MaxNumFOp::create(b, loc, p, c.real(-1)),
                          size),
                      c.real(1));
            return mlir::arith::IndexCastOp::create(
                b, loc, b.getIndexType(),
                mlir::arith::FPToSIOp::create(b, loc, b.getI64Type(),
                                              inPadded));
          };
          return mlir::tensor::ExtractOp::create(
              b, loc, padded,
              mlir::ValueRange{n, ch, at(row, height), at(col, width)});
        };
        mlir::Value y;
        if (mode == "nearest") {
          // Halves round to even, as PyTorch's nearbyint does.
          y = pixel(mlir::math::RoundEvenOp::create(b, loc, px),
                    mlir::math::RoundEvenOp::create(b, loc, py));
        } else {
          mlir::Value x0 = mlir::math::FloorOp::create(b, loc, px);
          mlir::Value y0 = mlir::math::FloorOp::create(b, loc, py);
          mlir::Value x1 = c.add(x0, c.real(1)), y1 = c.add(y0, c.real(1));
          mlir::Value wx = c.sub(px, x0), wy = c.sub(py, y0);
          mlir::Value ux = c.sub(c.real(1), wx), uy = c.sub(c.real(1), wy);
          auto term = [&](mlir::Value col, mlir::Value row, mlir::Value w) {
            mlir::Value p = pixel(col, row);
            if (p.getType() != f)
              p = mlir::arith::ExtFOp::create(b, loc, f, p);
            return c.mul(p, w);
          };
          y = c.add(
              c.add(term(x0, y0, c.mul(ux, uy)), term(x1, y0, c.mul(wx, uy))),
              c.add(term(x0, y1, c.mul(ux, wy)), term(x1, y1, c.mul(wx, wy))));
          if (element != f)
            y = mlir::arith::TruncFOp::create(b, loc, element, y);
        }
        mlir::linalg::YieldOp::create(b, loc, y);
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> gridSampleConverters() {
  return {{"GridSample", gridSample}};
}

} // namespace aot::onnx_import
