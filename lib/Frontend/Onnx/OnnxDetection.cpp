//===- OnnxDetection.cpp - RoiAlign, MaxRoiPool, NonMaxSuppression -------===//
//
// The region ops of detection networks, as loops over their outputs (their
// work per element depends on the boxes' values, read at run time).
//
// RoiAlign averages, over each output bin, a grid of bilinear samples of
// the image: sampling_ratio per side, or ceil(roi size / bins) where it is
// 0; a sample more than a pixel outside the image counts as 0, one within
// a pixel of it is read at the edge (as onnxruntime and torchvision's
// roi_align compute it). MaxRoiPool takes the maximum over each bin of a
// box whose corners are rounded to pixels (Caffe's ROI pooling, as
// torchvision's roi_pool). NonMaxSuppression takes, for each batch and
// class, the boxes in order of score (ties to the lower index) whose score
// is above score_threshold and whose overlap (intersection over union)
// with every box already taken is at most iou_threshold, up to
// max_output_boxes_per_class; it writes them into a buffer of every
// possible row and returns the rows it wrote.
//
// Box, batch and class indices read from the inputs are clamped into their
// tensors, so no read leaves them whatever the values.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxScalar.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>
#include <limits>

namespace aot::onnx_import {

namespace {

// In a unity build a file before this one may declare an indexConst of its
// own in this anonymous namespace, which would hide the shared one.
using onnx_import::indexConst;

/// Scalar arithmetic on floats of one type, indices and conditions.
struct Arith : ScalarMath {
  /// A float, cut toward zero, as an index. Values past +-2^40 (and NaN)
  /// are clamped first: a conversion out of range would be undefined.
  mlir::Value indexOf(mlir::Value v) {
    v = min(max(v, real(-1099511627776.0)), real(1099511627776.0));
    return mlir::arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        mlir::arith::FPToSIOp::create(b, loc, b.getI64Type(), v));
  }
  /// An integer element as an index clamped into [0, size).
  mlir::Value clamped(mlir::Value v, mlir::Value size) {
    mlir::Value i =
        mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
    return min(max(i, index(0)), sub(size, index(1)));
  }
};

/// Whether `v` is a float tensor of rank `rank`; an error naming `what`
/// otherwise.
mlir::LogicalResult checkFloats(NodeContext &ctx, mlir::Value v, int64_t rank,
                                llvm::StringRef what) {
  auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
  if (t.getRank() != rank || !isFloatType(t.getElementType()))
    return ctx.fail("takes " + what + " as floats of rank " +
                    llvm::Twine(rank) + ", not " + typeText(t));
  return mlir::success();
}

/// The output of a region op, R x C x h x w, filled element by element by
/// `value` (position r, c, y, x) in loops.
mlir::Value
regionLoops(NodeContext &ctx, mlir::RankedTensorType outType,
            llvm::ArrayRef<mlir::Value> sizes,
            llvm::function_ref<mlir::Value(Arith &, mlir::ValueRange)> value) {
  mlir::Value out = ctx.empty(outType, sizes);
  return forEachPosition(
      ctx.b, ctx.loc, sizes, mlir::ValueRange{out},
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange p,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        Arith a{{b, loc, outType.getElementType()}};
        return {mlir::tensor::InsertOp::create(b, loc, value(a, p), acc[0], p)
                    .getResult()};
      })[0];
}

mlir::LogicalResult roiAlign(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), rois = ctx.input(1), batch = ctx.input(2);
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!x || !rois || !batch || !outType)
    return mlir::failure();
  if (failed(checkFloats(ctx, x, 4, "the image")) ||
      failed(checkFloats(ctx, rois, 2, "the boxes")))
    return mlir::failure();
  auto batchType = llvm::cast<mlir::RankedTensorType>(batch.getType());
  if (batchType.getRank() != 1 ||
      !llvm::isa<mlir::IntegerType>(batchType.getElementType()))
    return ctx.fail("takes batch_indices as integers of rank 1, not " +
                    typeText(batchType));
  if (llvm::cast<mlir::RankedTensorType>(rois.getType()).getDimSize(1) != 4)
    return ctx.fail("takes boxes of 4 coordinates (x1, y1, x2, y2), not " +
                    typeText(rois.getType()));
  std::string mode = ctx.stringAttr("mode", "avg");
  if (mode != "avg")
    return ctx.fail("mode '" + mode + "' is not supported (only avg)");
  std::string transform =
      ctx.stringAttr("coordinate_transformation_mode", "half_pixel");
  if (transform != "half_pixel" && transform != "output_half_pixel")
    return ctx.fail("coordinate_transformation_mode '" + transform +
                    "' is not one of half_pixel, output_half_pixel");
  const bool halfPixel = transform == "half_pixel";
  const int64_t outH = ctx.intAttr("output_height", 1),
                outW = ctx.intAttr("output_width", 1),
                ratio = ctx.intAttr("sampling_ratio", 0);
  if (outH < 1 || outW < 1 || ratio < 0)
    return ctx.fail("takes output_height and output_width of 1 or more and "
                    "a sampling_ratio of 0 or more");
  const double scale = ctx.floatAttr("spatial_scale", 1.0);
  if (llvm::cast<mlir::RankedTensorType>(x.getType()).getElementType() !=
      outType.getElementType())
    return ctx.fail("makes " + typeText(outType) + " from " +
                    typeText(x.getType()));

  mlir::Value n = ctx.dim(x, 0), height = ctx.dim(x, 2), width = ctx.dim(x, 3);
  llvm::SmallVector<mlir::Value> sizes = {ctx.dim(rois, 0), ctx.dim(x, 1),
                                          indexConst(ctx.b, ctx.loc, outH),
                                          indexConst(ctx.b, ctx.loc, outW)};
  mlir::Value y =
      regionLoops(ctx, outType, sizes, [&](Arith &a, mlir::ValueRange p) {
        mlir::OpBuilder &b = a.b;
        mlir::Value r = p[0], c = p[1];
        mlir::Value image = a.clamped(a.at(batch, {r}), n);
        mlir::Value offset = a.real(halfPixel ? 0.5 : 0);
        auto corner = [&](int64_t k) {
          return a.sub(a.mul(a.at(rois, {r, a.index(k)}), a.real(scale)),
                       offset);
        };
        mlir::Value x1 = corner(0), y1 = corner(1);
        mlir::Value roiW = a.sub(corner(2), x1), roiH = a.sub(corner(3), y1);
        if (!halfPixel) {
          roiW = a.max(roiW, a.real(1));
          roiH = a.max(roiH, a.real(1));
        }
        mlir::Value binH = a.div(roiH, a.real(outH)),
                    binW = a.div(roiW, a.real(outW));
        // The samples per side: the ratio, or as many as the bin spans.
        auto grid = [&](mlir::Value bin) {
          if (ratio > 0)
            return a.index(ratio);
          return a.max(a.indexOf(mlir::math::CeilOp::create(b, a.loc, bin)),
                       a.index(0));
        };
        mlir::Value gridH = grid(binH), gridW = grid(binW);
        // An empty image has no pixels to read: no samples, the output 0.
        mlir::Value noImage = a.either(
            mlir::arith::CmpIOp::create(
                b, a.loc, mlir::arith::CmpIPredicate::eq, height, a.index(0)),
            mlir::arith::CmpIOp::create(
                b, a.loc, mlir::arith::CmpIPredicate::eq, width, a.index(0)));
        mlir::Value samplesH = a.select(noImage, a.index(0), gridH);
        mlir::Value count = a.realOf(a.max(a.mul(gridH, gridW), a.index(1)));
        mlir::Value startY = a.add(y1, a.mul(a.realOf(p[2]), binH));
        mlir::Value startX = a.add(x1, a.mul(a.realOf(p[3]), binW));
        mlir::Value stepY = a.div(binH, a.realOf(a.max(gridH, a.index(1))));
        mlir::Value stepX = a.div(binW, a.realOf(a.max(gridW, a.index(1))));
        mlir::Value fHeight = a.realOf(height), fWidth = a.realOf(width);

        // One coordinate's low and high pixels and the high one's weight.
        auto pixels = [&](Arith &s, mlir::Value v, mlir::Value size) {
          // Within [0, size - 1] before the pixels are read: a sample
          // outside counts as 0, but its reads must stay in the image.
          mlir::Value last = s.sub(size, s.index(1));
          v = s.min(s.max(v, s.real(0)), s.realOf(last));
          mlir::Value low = s.indexOf(v);
          mlir::Value atEdge = mlir::arith::CmpIOp::create(
              s.b, s.loc, mlir::arith::CmpIPredicate::sge, low, last);
          low = s.select(atEdge, last, low);
          mlir::Value high = s.select(atEdge, last, s.add(low, s.index(1)));
          v = s.select(atEdge, s.realOf(last), v);
          return std::array<mlir::Value, 3>{low, high, s.sub(v, s.realOf(low))};
        };
        auto outer =
            mlir::scf::ForOp::create(b, a.loc, a.index(0), samplesH, a.index(1),
                                     mlir::ValueRange{a.real(0)});
        {
          mlir::OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(outer.getBody());
          mlir::Value sy =
              a.add(startY,
                    a.mul(a.add(a.realOf(outer.getInductionVar()), a.real(0.5)),
                          stepY));
          auto inner =
              mlir::scf::ForOp::create(b, a.loc, a.index(0), gridW, a.index(1),
                                       outer.getRegionIterArgs());
          {
            mlir::OpBuilder::InsertionGuard g2(b);
            b.setInsertionPointToStart(inner.getBody());
            mlir::Value sx = a.add(
                startX,
                a.mul(a.add(a.realOf(inner.getInductionVar()), a.real(0.5)),
                      stepX));
            mlir::Value outside =
                a.either(a.either(a.lt(sy, a.real(-1)), a.gt(sy, fHeight)),
                         a.either(a.lt(sx, a.real(-1)), a.gt(sx, fWidth)));
            auto [yl, yh, ly] = pixels(a, sy, height);
            auto [xl, xh, lx] = pixels(a, sx, width);
            mlir::Value hy = a.sub(a.real(1), ly), hx = a.sub(a.real(1), lx);
            auto pixel = [&](mlir::Value py, mlir::Value px) {
              return a.at(x, {image, c, py, px});
            };
            mlir::Value v = a.add(a.add(a.mul(a.mul(hy, hx), pixel(yl, xl)),
                                        a.mul(a.mul(hy, lx), pixel(yl, xh))),
                                  a.add(a.mul(a.mul(ly, hx), pixel(yh, xl)),
                                        a.mul(a.mul(ly, lx), pixel(yh, xh))));
            v = a.select(outside, a.real(0), v);
            mlir::scf::YieldOp::create(
                b, a.loc,
                mlir::ValueRange{a.add(inner.getRegionIterArgs()[0], v)});
          }
          mlir::scf::YieldOp::create(b, a.loc, inner.getResults());
        }
        return a.div(outer.getResult(0), count);
      });
  ctx.setOutput(0, y);
  return mlir::success();
}

mlir::LogicalResult maxRoiPool(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), rois = ctx.input(1);
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!x || !rois || !outType)
    return mlir::failure();
  if (failed(checkFloats(ctx, x, 4, "the image")) ||
      failed(checkFloats(ctx, rois, 2, "the boxes")))
    return mlir::failure();
  if (llvm::cast<mlir::RankedTensorType>(rois.getType()).getDimSize(1) != 5)
    return ctx.fail("takes boxes of 5 values (batch, x1, y1, x2, y2), not " +
                    typeText(rois.getType()));
  std::vector<int64_t> pooled = ctx.intsAttr("pooled_shape");
  if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1)
    return ctx.fail("takes a pooled_shape of two sizes of 1 or more");
  const double scale = ctx.floatAttr("spatial_scale", 1.0);
  mlir::Value n = ctx.dim(x, 0), height = ctx.dim(x, 2), width = ctx.dim(x, 3);
  llvm::SmallVector<mlir::Value> sizes = {
      ctx.dim(rois, 0), ctx.dim(x, 1), indexConst(ctx.b, ctx.loc, pooled[0]),
      indexConst(ctx.b, ctx.loc, pooled[1])};
  mlir::Value y =
      regionLoops(ctx, outType, sizes, [&](Arith &a, mlir::ValueRange p) {
        mlir::OpBuilder &b = a.b;
        mlir::Value r = p[0], c = p[1];
        auto value = [&](int64_t k) { return a.at(rois, {r, a.index(k)}); };
        mlir::Value image = a.indexOf(
            a.min(a.max(value(0), a.real(0)), a.sub(a.realOf(n), a.real(1))));
        // Corners rounded to pixels (half away from zero).
        auto corner = [&](int64_t k) {
          return a.indexOf(mlir::math::RoundOp::create(
              b, a.loc, a.mul(value(k), a.real(scale))));
        };
        mlir::Value x1 = corner(1), y1 = corner(2), x2 = corner(3),
                    y2 = corner(4);
        mlir::Value roiW = a.max(a.add(a.sub(x2, x1), a.index(1)), a.index(1));
        mlir::Value roiH = a.max(a.add(a.sub(y2, y1), a.index(1)), a.index(1));
        mlir::Value binH = a.div(a.realOf(roiH), a.real(pooled[0]));
        mlir::Value binW = a.div(a.realOf(roiW), a.real(pooled[1]));
        // Bin [start, end) along one side, within the image.
        auto span = [&](mlir::Value i, mlir::Value bin, mlir::Value origin,
                        mlir::Value size) {
          mlir::Value start = a.add(a.indexOf(mlir::math::FloorOp::create(
                                        b, a.loc, a.mul(a.realOf(i), bin))),
                                    origin);
          mlir::Value end =
              a.add(a.indexOf(mlir::math::CeilOp::create(
                        b, a.loc, a.mul(a.add(a.realOf(i), a.real(1)), bin))),
                    origin);
          auto clamp = [&](mlir::Value v) {
            return a.min(a.max(v, a.index(0)), size);
          };
          return std::pair{clamp(start), clamp(end)};
        };
        auto [h0, h1] = span(p[2], binH, y1, height);
        auto [w0, w1] = span(p[3], binW, x1, width);
        mlir::Value empty =
            a.either(mlir::arith::CmpIOp::create(
                         b, a.loc, mlir::arith::CmpIPredicate::sle, h1, h0),
                     mlir::arith::CmpIOp::create(
                         b, a.loc, mlir::arith::CmpIPredicate::sle, w1, w0));
        mlir::Value lowest = a.real(-std::numeric_limits<double>::infinity());
        auto rows = mlir::scf::ForOp::create(b, a.loc, h0, h1, a.index(1),
                                             mlir::ValueRange{lowest});
        {
          mlir::OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(rows.getBody());
          auto cols = mlir::scf::ForOp::create(b, a.loc, w0, w1, a.index(1),
                                               rows.getRegionIterArgs());
          {
            mlir::OpBuilder::InsertionGuard g2(b);
            b.setInsertionPointToStart(cols.getBody());
            mlir::Value v = a.at(
                x, {image, c, rows.getInductionVar(), cols.getInductionVar()});
            mlir::scf::YieldOp::create(
                b, a.loc,
                mlir::ValueRange{mlir::arith::MaximumFOp::create(
                    b, a.loc, cols.getRegionIterArgs()[0], v)});
          }
          mlir::scf::YieldOp::create(b, a.loc, cols.getResults());
        }
        return a.select(empty, a.real(0), rows.getResult(0));
      });
  ctx.setOutput(0, y);
  return mlir::success();
}

/// A scalar input of NonMaxSuppression (optional; `otherwise` where not
/// given) as a value of `type`.
mlir::Value optionalScalar(NodeContext &ctx, int i, mlir::Type type,
                           double otherwise) {
  if (!ctx.hasInput(i))
    return ctx.scalar(type, otherwise);
  return scalarOperand(ctx, i, type, "input " + std::to_string(i));
}

mlir::LogicalResult nonMaxSuppression(NodeContext &ctx) {
  mlir::Value boxes = ctx.input(0), scores = ctx.input(1);
  mlir::RankedTensorType outType = ctx.outputType(0);
  if (!boxes || !scores || !outType)
    return mlir::failure();
  if (failed(checkFloats(ctx, boxes, 3, "the boxes")) ||
      failed(checkFloats(ctx, scores, 3, "the scores")))
    return mlir::failure();
  auto boxType = llvm::cast<mlir::RankedTensorType>(boxes.getType());
  mlir::Type f = boxType.getElementType();
  if (boxType.getDimSize(2) != 4)
    return ctx.fail("takes boxes of 4 coordinates, not " + typeText(boxType));
  if (llvm::cast<mlir::RankedTensorType>(scores.getType()).getElementType() !=
      f)
    return ctx.fail("takes scores of the boxes' type");
  if (outType.getRank() != 2 || !outType.getElementType().isInteger(64))
    return ctx.fail("makes selected indices of i64 N x 3, not " +
                    typeText(outType));
  const bool centred = ctx.intAttr("center_point_box", 0) != 0;
  mlir::OpBuilder &b = ctx.b;
  mlir::Value maxOut = optionalScalar(ctx, 2, b.getI64Type(), 0);
  mlir::Value iouLimit = optionalScalar(ctx, 3, f, 0);
  mlir::Value scoreLimit =
      optionalScalar(ctx, 4, f, -std::numeric_limits<double>::infinity());
  if (!maxOut || !iouLimit || !scoreLimit)
    return mlir::failure();

  Arith a{{b, ctx.loc, f}};
  mlir::Value batches = ctx.dim(boxes, 0), classes = ctx.dim(scores, 1),
              count = ctx.dim(boxes, 1);
  mlir::Value perClass = a.min(a.max(mlir::arith::IndexCastOp::create(
                                         b, ctx.loc, b.getIndexType(), maxOut),
                                     a.index(0)),
                               count);

  // Each box's rank among its class's by score (ties to the lower index),
  // and the boxes in that order: order[b, c, rank] = box.
  mlir::MLIRContext *mctx = b.getContext();
  auto d = [&](int64_t i) { return mlir::getAffineDimExpr(i, mctx); };
  auto indexType = mlir::RankedTensorType::get(
      {boxType.getDimSize(0),
       llvm::cast<mlir::RankedTensorType>(scores.getType()).getDimSize(1),
       boxType.getDimSize(1)},
      b.getIndexType());
  llvm::SmallVector<mlir::Value> orderDims = {batches, classes, count};
  auto ranks = mlir::linalg::GenericOp::create(
      b, ctx.loc, mlir::TypeRange{indexType}, mlir::ValueRange{scores, scores},
      mlir::ValueRange{
          ctx.filled(indexType, indexConst(b, ctx.loc, 0), orderDims)},
      llvm::SmallVector<mlir::AffineMap>{
          mlir::AffineMap::get(4, 0, {d(0), d(1), d(2)}, mctx),
          mlir::AffineMap::get(4, 0, {d(0), d(1), d(3)}, mctx),
          mlir::AffineMap::get(4, 0, {d(0), d(1), d(2)}, mctx)},
      llvm::SmallVector<mlir::utils::IteratorType>{
          mlir::utils::IteratorType::parallel,
          mlir::utils::IteratorType::parallel,
          mlir::utils::IteratorType::parallel,
          mlir::utils::IteratorType::reduction},
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange v) {
        Arith s{{ib, loc, f}};
        mlir::Value mine = mlir::linalg::IndexOp::create(ib, loc, 2);
        mlir::Value other = mlir::linalg::IndexOp::create(ib, loc, 3);
        mlir::Value ahead = s.either(
            s.gt(v[1], v[0]),
            s.both(mlir::arith::CmpFOp::create(
                       ib, loc, mlir::arith::CmpFPredicate::OEQ, v[1], v[0]),
                   s.lt(other, mine)));
        mlir::linalg::YieldOp::create(
            ib, loc,
            mlir::ValueRange{s.select(ahead, s.add(v[2], s.index(1)), v[2])});
      });
  mlir::Value order = forEachPosition(
      b, ctx.loc, orderDims, mlir::ValueRange{ctx.empty(indexType, orderDims)},
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange p,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value rank =
            mlir::tensor::ExtractOp::create(ib, loc, ranks.getResult(0), p);
        return {mlir::tensor::InsertOp::create(
                    ib, loc, p[2], acc[0], mlir::ValueRange{p[0], p[1], rank})
                    .getResult()};
      })[0];

  // The corners of a box: (y1, x1, y2, x2), each pair in order.
  auto cornersOf = [&](Arith &s, mlir::Value batch, mlir::Value box) {
    std::array<mlir::Value, 4> v;
    for (int64_t k = 0; k < 4; ++k)
      v[k] = s.at(boxes, {batch, box, s.index(k)});
    if (centred) {
      // (x centre, y centre, width, height).
      mlir::Value hw = s.mul(v[2], s.real(0.5)), hh = s.mul(v[3], s.real(0.5));
      return std::array<mlir::Value, 4>{s.sub(v[1], hh), s.sub(v[0], hw),
                                        s.add(v[1], hh), s.add(v[0], hw)};
    }
    return std::array<mlir::Value, 4>{s.min(v[0], v[2]), s.min(v[1], v[3]),
                                      s.max(v[0], v[2]), s.max(v[1], v[3])};
  };
  // Whether two boxes overlap by more than the limit.
  auto overlaps = [&](Arith &s, std::array<mlir::Value, 4> p,
                      std::array<mlir::Value, 4> q) {
    mlir::Value areaP = s.mul(s.sub(p[2], p[0]), s.sub(p[3], p[1]));
    mlir::Value areaQ = s.mul(s.sub(q[2], q[0]), s.sub(q[3], q[1]));
    mlir::Value ih =
        s.max(s.sub(s.min(p[2], q[2]), s.max(p[0], q[0])), s.real(0));
    mlir::Value iw =
        s.max(s.sub(s.min(p[3], q[3]), s.max(p[1], q[1])), s.real(0));
    mlir::Value inter = s.mul(ih, iw);
    mlir::Value iou = s.div(inter, s.sub(s.add(areaP, areaQ), inter));
    mlir::Value empty = s.either(
        mlir::arith::CmpFOp::create(s.b, s.loc, mlir::arith::CmpFPredicate::OLE,
                                    areaP, s.real(0)),
        mlir::arith::CmpFOp::create(s.b, s.loc, mlir::arith::CmpFPredicate::OLE,
                                    areaQ, s.real(0)));
    return s.both(mlir::arith::XOrIOp::create(
                      s.b, s.loc, empty,
                      mlir::arith::ConstantIntOp::create(s.b, s.loc, 1, 1)),
                  s.gt(iou, iouLimit));
  };

  // Every row there could be; rows [0, written) are the result.
  mlir::Value capacity = a.mul(a.mul(batches, classes), perClass);
  auto bufferType = mlir::RankedTensorType::get({mlir::ShapedType::kDynamic, 3},
                                                b.getI64Type());
  mlir::Value buffer = ctx.empty(bufferType, {capacity, nullptr});
  llvm::SmallVector<mlir::Value> outer = forEachPosition(
      b, ctx.loc, {batches, classes}, mlir::ValueRange{buffer, a.index(0)},
      [&](mlir::OpBuilder &ib, mlir::Location loc, mlir::ValueRange bc,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        Arith s{{ib, loc, f}};
        mlir::Value first = acc[1];
        // Through the boxes best first, carrying the rows and their count.
        auto walk = mlir::scf::ForOp::create(ib, loc, s.index(0), count,
                                             s.index(1), acc);
        mlir::OpBuilder::InsertionGuard g(ib);
        ib.setInsertionPointToStart(walk.getBody());
        mlir::Value rows = walk.getRegionIterArgs()[0],
                    written = walk.getRegionIterArgs()[1];
        mlir::Value box = s.at(order, {bc[0], bc[1], walk.getInductionVar()});
        mlir::Value score = s.at(scores, {bc[0], bc[1], box});
        mlir::Value taken = s.sub(written, first);
        mlir::Value wanted =
            s.both(s.gt(score, scoreLimit), s.lt(taken, perClass));
        auto consider = mlir::scf::IfOp::create(
            ib, loc, wanted,
            [&](mlir::OpBuilder &t, mlir::Location l) {
              Arith u{{t, l, f}};
              std::array<mlir::Value, 4> mine = cornersOf(u, bc[0], box);
              // Whether a box taken before overlaps this one too much.
              auto check = mlir::scf::ForOp::create(
                  t, l, first, written, u.index(1),
                  mlir::ValueRange{
                      mlir::arith::ConstantIntOp::create(t, l, 0, 1)});
              {
                mlir::OpBuilder::InsertionGuard g2(t);
                t.setInsertionPointToStart(check.getBody());
                mlir::Value other = mlir::arith::IndexCastOp::create(
                    t, l, t.getIndexType(),
                    u.at(rows, {check.getInductionVar(), u.index(2)}));
                mlir::Value hit =
                    u.either(check.getRegionIterArgs()[0],
                             overlaps(u, mine, cornersOf(u, bc[0], other)));
                mlir::scf::YieldOp::create(t, l, mlir::ValueRange{hit});
              }
              auto keep = mlir::scf::IfOp::create(
                  t, l, check.getResult(0),
                  [&](mlir::OpBuilder &e, mlir::Location el) {
                    mlir::scf::YieldOp::create(e, el,
                                               mlir::ValueRange{rows, written});
                  },
                  [&](mlir::OpBuilder &w, mlir::Location wl) {
                    Arith v{{w, wl, f}};
                    mlir::Value r = rows;
                    for (auto [k, value] : llvm::enumerate(
                             llvm::SmallVector<mlir::Value>{bc[0], bc[1], box}))
                      r = mlir::tensor::InsertOp::create(
                          w, wl,
                          mlir::arith::IndexCastOp::create(
                              w, wl, w.getI64Type(), value),
                          r, mlir::ValueRange{written, v.index(k)});
                    mlir::scf::YieldOp::create(
                        w, wl, mlir::ValueRange{r, v.add(written, v.index(1))});
                  });
              mlir::scf::YieldOp::create(t, l, keep.getResults());
            },
            [&](mlir::OpBuilder &e, mlir::Location l) {
              mlir::scf::YieldOp::create(e, l, mlir::ValueRange{rows, written});
            });
        mlir::scf::YieldOp::create(ib, loc, consider.getResults());
        return llvm::SmallVector<mlir::Value>(walk.getResults());
      });
  mlir::Value selected = mlir::tensor::ExtractSliceOp::create(
      b, ctx.loc, outer[0],
      llvm::SmallVector<mlir::OpFoldResult>{b.getIndexAttr(0),
                                            b.getIndexAttr(0)},
      llvm::SmallVector<mlir::OpFoldResult>{outer[1], b.getIndexAttr(3)},
      llvm::SmallVector<mlir::OpFoldResult>{b.getIndexAttr(1),
                                            b.getIndexAttr(1)});
  ctx.setOutput(0, ctx.castedTo(b, selected, outType, "the selected boxes"));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> detectionConverters() {
  return {{"RoiAlign", roiAlign},
          {"MaxRoiPool", maxRoiPool},
          {"NonMaxSuppression", nonMaxSuppression}};
}

} // namespace aot::onnx_import
