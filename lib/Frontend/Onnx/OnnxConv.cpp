//===- OnnxConv.cpp - Conv and pooling ------------------------------------===//
//
// ONNX lays images out NCHW and filters FCHW. A convolution with constant
// weights is done channels last (NHWC against HWCF), the layout the
// compiler tiles and vectorizes, and its result stays so: the elementwise
// ops after it and the next convolution or pool read it without a
// transpose; one is made only where an op reads the NCHW form. Padding
// becomes a tensor.pad (zeros for a convolution, the lowest value for a max
// pool), a bias an add after the convolution (it fuses with the activation
// that follows), and other groupings a convolution over a grouped NCHW view.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxConv.h"
#include "Frontend/Onnx/OnnxElementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstring>
#include <limits>
#include <optional>

namespace aot::onnx_import {

mlir::FailureOr<Window> readWindow(NodeContext &ctx,
                                   mlir::RankedTensorType input,
                                   std::vector<std::int64_t> kernel,
                                   mlir::RankedTensorType output) {
  const std::size_t n = std::max<int64_t>(input.getRank(), 2) - 2;
  Window w;
  w.kernel = std::move(kernel);
  w.strides = ctx.intsAttr("strides", std::vector<std::int64_t>(n, 1));
  w.dilations = ctx.intsAttr("dilations", std::vector<std::int64_t>(n, 1));
  std::vector<std::int64_t> pads =
      ctx.intsAttr("pads", std::vector<std::int64_t>(2 * n, 0));
  if (w.kernel.size() != n || w.strides.size() != n ||
      w.dilations.size() != n || pads.size() != 2 * n)
    return ctx.fail("takes a window of " + llvm::Twine(n) +
                    " dims (kernel_shape, strides, dilations of " +
                    llvm::Twine(n) + ", pads of " + llvm::Twine(2 * n) + ")");
  w.low.assign(pads.begin(), pads.begin() + n);
  w.high.assign(pads.begin() + n, pads.end());
  std::string autoPad = ctx.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (std::size_t d = 0; d < n; ++d) {
      int64_t in = input.getDimSize(2 + d), out = output.getDimSize(2 + d);
      if (mlir::ShapedType::isDynamic(in) || mlir::ShapedType::isDynamic(out))
        return ctx.fail("auto_pad " + autoPad + " needs static spatial sizes");
      int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
      int64_t total =
          std::max<int64_t>(0, (out - 1) * w.strides[d] + extent - in);
      int64_t small = total / 2, large = total - small;
      w.low[d] = autoPad == "SAME_UPPER" ? small : large;
      w.high[d] = autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (autoPad == "VALID") {
    w.low.assign(n, 0);
    w.high.assign(n, 0);
  } else if (autoPad != "NOTSET") {
    return ctx.fail("unknown auto_pad '" + autoPad + "'");
  }
  return w;
}

mlir::Value padSpatial(NodeContext &ctx, mlir::Value x, const Window &w,
                       mlir::Value value, int first) {
  if (llvm::all_of(w.low, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(w.high, [](int64_t p) { return p == 0; }))
    return x;
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  llvm::SmallVector<int64_t> shape(t.getShape());
  llvm::SmallVector<mlir::OpFoldResult> low(t.getRank(), ctx.b.getIndexAttr(0)),
      high(t.getRank(), ctx.b.getIndexAttr(0));
  for (std::size_t d = 0; d < w.low.size(); ++d) {
    low[first + d] = ctx.b.getIndexAttr(w.low[d]);
    high[first + d] = ctx.b.getIndexAttr(w.high[d]);
    if (!t.isDynamicDim(first + d))
      shape[first + d] += w.low[d] + w.high[d];
  }
  auto type = mlir::RankedTensorType::get(shape, t.getElementType());
  return mlir::tensor::PadOp::create(ctx.b, ctx.loc, type, x, low, high, value);
}

mlir::Value lowest(NodeContext &ctx, mlir::Type element) {
  if (auto f = llvm::dyn_cast<mlir::FloatType>(element))
    return mlir::arith::ConstantOp::create(
        ctx.b, ctx.loc,
        ctx.b.getFloatAttr(f, -std::numeric_limits<double>::infinity()));
  return mlir::arith::ConstantOp::create(
      ctx.b, ctx.loc,
      ctx.b.getIntegerAttr(element, llvm::APInt::getSignedMinValue(
                                        element.getIntOrFloatBitWidth())));
}

mlir::Value dividedBy(NodeContext &ctx, mlir::Value sum,
                      mlir::RankedTensorType type, double count) {
  return elementwise(
      ctx, {sum}, type,
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
          mlir::Type t) -> mlir::Value {
        return mlir::arith::DivFOp::create(
            b, loc, v[0],
            mlir::arith::ConstantOp::create(b, loc, b.getFloatAttr(t, count)));
      });
}

namespace {

/// A dim of `v` as a fold result: its size where static, else read.
mlir::OpFoldResult sizeOf(NodeContext &ctx, mlir::Value v, int64_t d) {
  auto type = llvm::cast<mlir::RankedTensorType>(v.getType());
  if (type.isDynamicDim(d))
    return ctx.dim(v, d);
  return ctx.b.getIndexAttr(type.getDimSize(d));
}

/// The output's dynamic sizes, in the order of `out` (NCHW): the batch
/// read from `x`, a spatial size by the window's equation from x's,
/// (in + pads - extent) floordiv stride + 1 (0 where the window does not
/// fit). `x` is the image in the layout whose first spatial dim is `first`
/// (2: NCHW, 1: NHWC), padded already unless `pad`.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
outputDims(NodeContext &ctx, mlir::Value x, mlir::RankedTensorType out,
           const Window &w, int first, bool padded = true) {
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  auto index = [&](int64_t v) -> mlir::Value {
    return mlir::arith::ConstantIndexOp::create(ctx.b, ctx.loc, v);
  };
  for (int64_t d = 0; d < out.getRank(); ++d) {
    if (!out.isDynamicDim(d))
      continue;
    if (d == 0) {
      dims[d] = ctx.dim(x, 0);
      continue;
    }
    if (d == 1)
      return ctx.fail("takes a static number of channels");
    const std::size_t s = std::size_t(d - 2);
    const int64_t extent = (w.kernel[s] - 1) * w.dilations[s] + 1;
    int64_t reach = -extent;
    if (!padded)
      reach += w.low[s] + w.high[s];
    mlir::Value in = ctx.dim(x, first + int64_t(s));
    mlir::Value room =
        mlir::arith::AddIOp::create(ctx.b, ctx.loc, in, index(reach));
    mlir::Value size = mlir::arith::AddIOp::create(
        ctx.b, ctx.loc,
        mlir::arith::FloorDivSIOp::create(ctx.b, ctx.loc, room,
                                          index(w.strides[s])),
        index(1));
    dims[d] = mlir::arith::MaxSIOp::create(ctx.b, ctx.loc, size, index(0));
  }
  return dims;
}

/// The bytes of a [d0, d1, d2, d3] constant of `size`-byte elements with
/// its dims reordered: result dim i is source dim perm[i].
std::string permutedBytes(const std::string &bytes,
                          llvm::ArrayRef<int64_t> dims,
                          llvm::ArrayRef<int64_t> perm, std::size_t size) {
  std::string out(bytes.size(), '\0');
  int64_t strides[4] = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3],
                        1};
  int64_t outDims[4] = {dims[perm[0]], dims[perm[1]], dims[perm[2]],
                        dims[perm[3]]};
  std::size_t at = 0;
  for (int64_t a = 0; a < outDims[0]; ++a)
    for (int64_t b = 0; b < outDims[1]; ++b)
      for (int64_t c = 0; c < outDims[2]; ++c)
        for (int64_t d = 0; d < outDims[3]; ++d, at += size) {
          int64_t from = a * strides[perm[0]] + b * strides[perm[1]] +
                         c * strides[perm[2]] + d * strides[perm[3]];
          std::memcpy(&out[at], &bytes[std::size_t(from) * size], size);
        }
  return out;
}

/// `y`, a convolution's NHWC result, plus the node's bias (input 2, [C])
/// where it has one; null after an error.
mlir::Value withBias(NodeContext &ctx, mlir::Value y) {
  if (!ctx.hasInput(2))
    return y;
  mlir::Value bias = ctx.input(2);
  if (!bias)
    return nullptr;
  // The bias [C] broadcasts along the last dim, as numpy aligns it.
  return elementwise(ctx, {y, bias},
                     llvm::cast<mlir::RankedTensorType>(y.getType()),
                     [](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v, mlir::Type) -> mlir::Value {
                       return mlir::arith::AddFOp::create(b, loc, v[0], v[1]);
                     });
}

/// A convolution of constant weights channels last: the input `xh`
/// (already padded) NHWC, the weights permuted at import (FCHW to HWCF, or
/// C1HW to HWC for depthwise), the result NHWC. `bytes` are the weights,
/// of `wType` (FCHW); `out` and `dims` are the result's NCHW type and
/// dynamic sizes. Null where the bytes do not fill the weights.
mlir::Value
convNhwc(NodeContext &ctx, mlir::Value xh, mlir::RankedTensorType wType,
         const std::optional<std::string> &bytes, bool depthwise,
         mlir::RankedTensorType out, llvm::ArrayRef<mlir::Value> dims,
         mlir::DenseIntElementsAttr strides,
         mlir::DenseIntElementsAttr dilations, bool addBias = true) {
  if (!bytes)
    return nullptr;
  mlir::Type element = out.getElementType();
  std::size_t size = element.getIntOrFloatBitWidth() / 8;
  if (size == 0 || bytes->size() != std::size_t(wType.getNumElements()) * size)
    return nullptr;
  llvm::ArrayRef<int64_t> w = wType.getShape();
  mlir::Value weights;
  if (depthwise) {
    // C x 1 x kh x kw -> kh x kw x C (through kh x kw x 1 x C).
    auto type = mlir::RankedTensorType::get({w[2], w[3], w[0]}, element);
    weights = ctx.constant(type, permutedBytes(*bytes, w, {2, 3, 1, 0}, size));
  } else {
    auto type = mlir::RankedTensorType::get({w[2], w[3], w[1], w[0]}, element);
    weights = ctx.constant(type, permutedBytes(*bytes, w, {2, 3, 1, 0}, size));
  }
  mlir::RankedTensorType outNhwc = permutedType(out, kToChannelsLast);
  llvm::SmallVector<mlir::Value> nhwcDims = {dims[0], dims[2], dims[3],
                                             dims[1]};
  // Accumulated from zeros, which the compiler makes inside each tile of
  // the convolution; the bias is added after, in the pass over the result
  // that the activation after it makes anyway (they fuse).
  mlir::Value zero = ctx.scalar(element, 0);
  // A dynamic batch is fine: the compiler tiles one image at a time.
  mlir::Value init = ctx.filled(outNhwc, zero, nhwcDims);
  mlir::Value y;
  if (depthwise)
    y = mlir::linalg::DepthwiseConv2DNhwcHwcOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{outNhwc},
            mlir::ValueRange{xh, weights}, mlir::ValueRange{init}, strides,
            dilations)
            .getResult(0);
  else
    y = mlir::linalg::Conv2DNhwcHwcfOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{outNhwc},
            mlir::ValueRange{xh, weights}, mlir::ValueRange{init}, strides,
            dilations)
            .getResult(0);
  return addBias ? withBias(ctx, y) : y;
}

} // namespace

mlir::Value convNchw(NodeContext &ctx, mlir::Value x, mlir::Value weights,
                     mlir::Value bias, const Window &window, int64_t group,
                     mlir::RankedTensorType out) {
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  auto wType = llvm::cast<mlir::RankedTensorType>(weights.getType());
  mlir::Type element = out.getElementType();
  int64_t channels = xType.getDimSize(1), filters = wType.getDimSize(0);
  bool depthwise =
      group == channels && filters == channels && wType.getDimSize(1) == 1;
  auto strides = ctx.b.getI64TensorAttr(window.strides);
  auto dilations = ctx.b.getI64TensorAttr(window.dilations);
  x = padSpatial(ctx, x, window, ctx.scalar(xType.getElementType(), 0));
  auto dims = outputDims(ctx, x, out, window, /*first=*/2);
  if (mlir::failed(dims))
    return nullptr;
  mlir::Value y;
  // The value accumulated onto in NCHW: the bias along the channels, or
  // zeros.
  mlir::Value init;
  if (bias) {
    init = mlir::linalg::BroadcastOp::create(ctx.b, ctx.loc, bias,
                                             ctx.empty(out, *dims),
                                             llvm::ArrayRef<int64_t>{0, 2, 3})
               .getResult()[0];
  } else {
    init = ctx.filled(out, ctx.scalar(element, 0), *dims);
  }
  if (group == 1) {
    y = mlir::linalg::Conv2DNchwFchwOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{x, weights},
            mlir::ValueRange{init}, strides, dilations)
            .getResult(0);
  } else if (depthwise) {
    // Depthwise: one filter per channel, weights C x 1 x kh x kw.
    auto flat = mlir::RankedTensorType::get(
        {filters, wType.getDimSize(2), wType.getDimSize(3)},
        wType.getElementType());
    mlir::Value w3 = mlir::tensor::CollapseShapeOp::create(
        ctx.b, ctx.loc, flat, weights,
        llvm::SmallVector<mlir::ReassociationIndices>{{0, 1}, {2}, {3}});
    y = mlir::linalg::DepthwiseConv2DNchwChwOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{x, w3},
            mlir::ValueRange{init}, strides, dilations)
            .getResult(0);
  } else {
    if (mlir::ShapedType::isDynamic(channels) || group < 1 ||
        channels % group || filters % group)
      return (void)ctx.fail("group " + llvm::Twine(group) +
                            " does not divide the channels and filters"),
             nullptr;
    // N x G x C/G x H x W against G x F/G x C/G x kh x kw.
    auto xt = llvm::cast<mlir::RankedTensorType>(x.getType());
    auto xg =
        mlir::RankedTensorType::get({xt.getDimSize(0), group, channels / group,
                                     xt.getDimSize(2), xt.getDimSize(3)},
                                    xt.getElementType());
    llvm::SmallVector<mlir::OpFoldResult> xSizes = {
        sizeOf(ctx, x, 0), ctx.b.getIndexAttr(group),
        ctx.b.getIndexAttr(channels / group), sizeOf(ctx, x, 2),
        sizeOf(ctx, x, 3)};
    mlir::Value x5 = mlir::tensor::ExpandShapeOp::create(
        ctx.b, ctx.loc, xg, x,
        llvm::SmallVector<mlir::ReassociationIndices>{{0}, {1, 2}, {3}, {4}},
        xSizes);
    auto wg = mlir::RankedTensorType::get(
        {group, filters / group, wType.getDimSize(1), wType.getDimSize(2),
         wType.getDimSize(3)},
        wType.getElementType());
    mlir::Value w5 = mlir::tensor::ExpandShapeOp::create(
        ctx.b, ctx.loc, wg, weights,
        llvm::SmallVector<mlir::ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    auto og =
        mlir::RankedTensorType::get({out.getDimSize(0), group, filters / group,
                                     out.getDimSize(2), out.getDimSize(3)},
                                    out.getElementType());
    auto outSize = [&](int64_t d) -> mlir::OpFoldResult {
      if (out.isDynamicDim(d))
        return (*dims)[d];
      return ctx.b.getIndexAttr(out.getDimSize(d));
    };
    llvm::SmallVector<mlir::OpFoldResult> oSizes = {
        outSize(0), ctx.b.getIndexAttr(group),
        ctx.b.getIndexAttr(filters / group), outSize(2), outSize(3)};
    mlir::Value init5 = mlir::tensor::ExpandShapeOp::create(
        ctx.b, ctx.loc, og, init,
        llvm::SmallVector<mlir::ReassociationIndices>{{0}, {1, 2}, {3}, {4}},
        oSizes);
    mlir::Value y5 =
        mlir::linalg::Conv2DNgchwGfchwOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{og}, mlir::ValueRange{x5, w5},
            mlir::ValueRange{init5}, strides, dilations)
            .getResult(0);
    y = mlir::tensor::CollapseShapeOp::create(
        ctx.b, ctx.loc, out, y5,
        llvm::SmallVector<mlir::ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  }
  return y;
}

namespace {

mlir::LogicalResult conv(NodeContext &ctx) {
  mlir::RankedTensorType xType = ctx.inputType(0), wType = ctx.inputType(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!xType || !wType || !out)
    return mlir::failure();
  if (xType.getRank() == 5)
    return convVolume(ctx);
  if (xType.getRank() != 4 || wType.getRank() != 4)
    return ctx.fail("only 1-D, 2-D and 3-D convolutions (3-D, 4-D or 5-D "
                    "input and weights) are supported");
  if (!wType.hasStaticShape())
    return ctx.fail("takes weights of a static shape");
  auto window = readWindow(
      ctx, xType,
      ctx.intsAttr("kernel_shape", {wType.getDimSize(2), wType.getDimSize(3)}),
      out);
  if (mlir::failed(window))
    return mlir::failure();
  mlir::Type element = out.getElementType();
  auto strides = ctx.b.getI64TensorAttr(window->strides);
  auto dilations = ctx.b.getI64TensorAttr(window->dilations);
  int64_t group = ctx.intAttr("group", 1);
  int64_t channels = xType.getDimSize(1), filters = wType.getDimSize(0);
  bool depthwise =
      group == channels && filters == channels && wType.getDimSize(1) == 1;
  std::optional<std::string> bytes;
  if ((group == 1 || depthwise) && llvm::isa<mlir::FloatType>(element))
    bytes = ctx.constantBytes(1);
  if (bytes) {
    // Channels last, read so where the producer left it so. The weights
    // are read as bytes only: no constant of their FCHW form is made.
    mlir::Value xh = ctx.channelsLastInput(0);
    if (!xh) {
      mlir::Value x = ctx.input(0);
      if (!x)
        return mlir::failure();
      xh = transposed(ctx.b, ctx.loc, x, kToChannelsLast);
    }
    xh = padSpatial(ctx, xh, *window, ctx.scalar(element, 0), /*first=*/1);
    auto dims = outputDims(ctx, xh, out, *window, /*first=*/1);
    if (mlir::failed(dims))
      return mlir::failure();
    if (mlir::Value y = convNhwc(ctx, xh, wType, bytes, depthwise, out, *dims,
                                 strides, dilations)) {
      ctx.setChannelsLastOutput(0, y);
      return mlir::success();
    }
  }
  mlir::Value x = ctx.input(0), weights = ctx.input(1);
  if (!x || !weights)
    return mlir::failure();
  mlir::Value bias;
  if (ctx.hasInput(2) && !(bias = ctx.input(2)))
    return mlir::failure();
  mlir::Value y = convNchw(ctx, x, weights, bias, *window, group, out);
  if (!y)
    return mlir::failure();
  ctx.setOutput(0, y);
  return mlir::success();
}

/// ConvTranspose as the convolution it is the gradient of: the input
/// spread out by the strides (zeros between), padded by the kernel's
/// extent less the pads (plus output_padding at the end), convolved at
/// stride 1 with the weights flipped in space and their two channel dims
/// swapped (made at import; they must be constant). Groups other than one
/// per channel are a convolution per group, concatenated. An output_shape
/// (or auto_pad SAME_*) sets the pads as ONNX's equations do.
mlir::LogicalResult convTranspose(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType wType = ctx.inputType(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !wType || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Type element = out.getElementType();
  if (xType.getRank() != 4 || wType.getRank() != 4)
    return ctx.fail("only 2-D transposed convolutions (4-D input and "
                    "weights) are supported");
  if (!wType.hasStaticShape() || xType.isDynamicDim(1) ||
      xType.isDynamicDim(2) || xType.isDynamicDim(3))
    return ctx.fail("takes weights of a static shape and an input static "
                    "but for the batch");
  if (!llvm::isa<mlir::FloatType>(element))
    return ctx.fail("takes float tensors");
  std::string autoPad = ctx.stringAttr("auto_pad", "NOTSET");
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (autoPad != "NOTSET" && autoPad != "VALID" && !same)
    return ctx.fail("auto_pad " + autoPad +
                    " is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER");
  std::optional<std::string> bytes = ctx.constantBytes(1);
  if (!bytes)
    return ctx.fail("takes constant weights");
  int64_t group = ctx.intAttr("group", 1);
  int64_t channels = xType.getDimSize(1);
  llvm::ArrayRef<int64_t> w = wType.getShape();
  bool depthwise = group == channels && w[1] == 1 && group > 1;
  if (group < 1 || channels % group)
    return ctx.fail("group " + llvm::Twine(group) + " does not divide the " +
                    llvm::Twine(channels) + " input channels");
  if (w[0] != channels)
    return ctx.fail("the weights have " + llvm::Twine(w[0]) +
                    " input channels, the input " + llvm::Twine(channels));
  std::vector<int64_t> kernel = ctx.intsAttr("kernel_shape", {w[2], w[3]});
  std::vector<int64_t> strides = ctx.intsAttr("strides", {1, 1});
  std::vector<int64_t> dilations = ctx.intsAttr("dilations", {1, 1});
  std::vector<int64_t> pads = ctx.intsAttr("pads", {0, 0, 0, 0});
  std::vector<int64_t> extra = ctx.intsAttr("output_padding", {0, 0});
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2 ||
      pads.size() != 4 || extra.size() != 2 || kernel[0] != w[2] ||
      kernel[1] != w[3])
    return ctx.fail("only 2-D windows are supported (kernel_shape, strides, "
                    "dilations, output_padding of 2, pads of 4)");
  if (autoPad == "VALID")
    pads = {0, 0, 0, 0};
  if (llvm::any_of(strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(dilations, [](int64_t v) { return v < 1; }))
    return ctx.fail("takes strides and dilations of 1 or more");
  if (ctx.hasAttr("output_shape") || same) {
    std::vector<int64_t> shape = ctx.intsAttr("output_shape", {});
    if (shape.empty())
      shape = {xType.getDimSize(2) * strides[0],
               xType.getDimSize(3) * strides[1]};
    if (shape.size() != 2)
      return ctx.fail("takes an output_shape of the 2 spatial dims");
    for (int d = 0; d < 2; ++d) {
      int64_t total = strides[d] * (xType.getDimSize(2 + d) - 1) + extra[d] +
                      (kernel[d] - 1) * dilations[d] + 1 - shape[d];
      bool upper = autoPad == "SAME_UPPER";
      pads[d] = upper ? total / 2 : total - total / 2;
      pads[2 + d] = upper ? total - total / 2 : total / 2;
    }
  }

  // Weights C x M/G x kh x kw to each group's M/G x C/G x kh x kw,
  // flipped (depthwise: C x 1 x kh x kw, flipped).
  std::size_t size = element.getIntOrFloatBitWidth() / 8;
  if (size == 0 || bytes->size() != std::size_t(wType.getNumElements()) * size)
    return ctx.fail("has weights whose size does not match their shape");
  const int64_t kh = w[2], kw = w[3];
  const int64_t filters = depthwise ? 1 : w[1];
  const int64_t perFilter = depthwise ? 1 : channels / group;
  const int64_t groups = depthwise ? 1 : group;
  auto flippedOf = [&](int64_t g) {
    int64_t count = depthwise ? channels : filters;
    std::string flipped(std::size_t(count * perFilter * kh * kw) * size, '\0');
    for (int64_t m = 0; m < count; ++m)
      for (int64_t c = 0; c < perFilter; ++c)
        for (int64_t a = 0; a < kh; ++a)
          for (int64_t b = 0; b < kw; ++b) {
            int64_t to = ((m * perFilter + c) * kh + a) * kw + b;
            int64_t from =
                depthwise
                    ? (m * kh + (kh - 1 - a)) * kw + (kw - 1 - b)
                    : (((g * perFilter + c) * w[1] + m) * kh + (kh - 1 - a)) *
                              kw +
                          (kw - 1 - b);
            std::memcpy(&flipped[std::size_t(to) * size],
                        &(*bytes)[std::size_t(from) * size], size);
          }
    return std::optional<std::string>(std::move(flipped));
  };
  auto convType = mlir::RankedTensorType::get(
      {depthwise ? channels : filters, perFilter, kh, kw}, element);

  mlir::Value zero = ctx.scalar(element, 0);
  if (strides[0] > 1 || strides[1] > 1) {
    llvm::SmallVector<int64_t> shape(xType.getShape());
    shape[2] = (shape[2] - 1) * strides[0] + 1;
    shape[3] = (shape[3] - 1) * strides[1] + 1;
    auto spread = mlir::RankedTensorType::get(shape, element);
    llvm::SmallVector<mlir::Value> dims(4);
    if (xType.isDynamicDim(0))
      dims[0] = ctx.dim(x, 0);
    llvm::SmallVector<mlir::OpFoldResult> offsets(4, ctx.b.getIndexAttr(0)),
        sizes,
        steps = {ctx.b.getIndexAttr(1), ctx.b.getIndexAttr(1),
                 ctx.b.getIndexAttr(strides[0]),
                 ctx.b.getIndexAttr(strides[1])};
    for (int64_t d = 0; d < 4; ++d)
      sizes.push_back(xType.isDynamicDim(d)
                          ? mlir::OpFoldResult(dims[d])
                          : ctx.b.getIndexAttr(xType.getDimSize(d)));
    x = mlir::tensor::InsertSliceOp::create(ctx.b, ctx.loc, x,
                                            ctx.filled(spread, zero, dims),
                                            offsets, sizes, steps);
  }
  Window window;
  window.kernel = kernel;
  window.strides = {1, 1};
  window.dilations = dilations;
  for (int d = 0; d < 2; ++d) {
    int64_t extent = dilations[d] * (kernel[d] - 1);
    window.low.push_back(extent - pads[d]);
    window.high.push_back(extent - pads[2 + d] + extra[d]);
    if (window.low.back() < 0 || window.high.back() < 0)
      return ctx.fail("pads larger than the kernel's extent are not "
                      "supported");
  }
  x = padSpatial(ctx, x, window, zero);
  auto dims = outputDims(ctx, x, out, window, /*first=*/2);
  if (mlir::failed(dims))
    return mlir::failure();
  mlir::Value xh = transposed(ctx.b, ctx.loc, x, kToChannelsLast);
  auto one = ctx.b.getI64TensorAttr({1, 1});
  auto dilation = ctx.b.getI64TensorAttr(dilations);
  mlir::Value y;
  if (groups == 1) {
    y = convNhwc(ctx, xh, convType, flippedOf(0), depthwise, out, *dims, one,
                 dilation);
  } else {
    // Each group's channels of the input, convolved with its weights.
    auto xhType = llvm::cast<mlir::RankedTensorType>(xh.getType());
    llvm::SmallVector<int64_t> groupOutShape(out.getShape());
    groupOutShape[1] = filters;
    auto groupOut = mlir::RankedTensorType::get(groupOutShape, element);
    llvm::SmallVector<mlir::Value> parts;
    for (int64_t g = 0; g < groups; ++g) {
      llvm::SmallVector<mlir::OpFoldResult> offsets = {
          ctx.b.getIndexAttr(0), ctx.b.getIndexAttr(0), ctx.b.getIndexAttr(0),
          ctx.b.getIndexAttr(g * perFilter)};
      llvm::SmallVector<mlir::OpFoldResult> sizes;
      for (int64_t d = 0; d < 3; ++d)
        sizes.push_back(xhType.isDynamicDim(d)
                            ? mlir::OpFoldResult(ctx.dim(xh, d))
                            : ctx.b.getIndexAttr(xhType.getDimSize(d)));
      sizes.push_back(ctx.b.getIndexAttr(perFilter));
      llvm::SmallVector<mlir::OpFoldResult> steps(4, ctx.b.getIndexAttr(1));
      mlir::Value part = mlir::tensor::ExtractSliceOp::create(
          ctx.b, ctx.loc, xh, offsets, sizes, steps);
      parts.push_back(convNhwc(ctx, part, convType, flippedOf(g),
                               /*depthwise=*/false, groupOut, *dims, one,
                               dilation, /*addBias=*/false));
      if (!parts.back())
        return mlir::failure();
    }
    y = withBias(ctx, mlir::tensor::ConcatOp::create(ctx.b, ctx.loc,
                                                     /*dim=*/3, parts));
  }
  if (!y)
    return mlir::failure();
  ctx.setChannelsLastOutput(0, y);
  return mlir::success();
}

/// Pads the high side further where ceil_mode makes the output larger than
/// the padded input gives with floor division.
void ceilPadding(Window &w, mlir::RankedTensorType in,
                 mlir::RankedTensorType out) {
  for (int d = 0; d < 2; ++d) {
    int64_t size = in.getDimSize(2 + d), o = out.getDimSize(2 + d);
    if (mlir::ShapedType::isDynamic(size) || mlir::ShapedType::isDynamic(o))
      continue;
    int64_t extent = (w.kernel[d] - 1) * w.dilations[d] + 1;
    int64_t need = (o - 1) * w.strides[d] + extent;
    int64_t have = size + w.low[d] + w.high[d];
    if (need > have)
      w.high[d] += need - have;
  }
}

/// Success where the spatial sizes of `in` are static, as ceil_mode needs
/// (its last window's padding is made at import); else an error.
mlir::LogicalResult staticForCeilMode(NodeContext &ctx,
                                      mlir::RankedTensorType in) {
  for (int64_t d = 2; d < in.getRank(); ++d)
    if (in.isDynamicDim(d))
      return ctx.fail("ceil_mode takes static spatial sizes (dim " +
                      llvm::Twine(d) + " is dynamic)");
  return mlir::success();
}

/// An image input of a pooling node: channels last where its producer left
/// it so (then `last` is set), else NCHW.
mlir::Value poolInput(NodeContext &ctx, bool &last) {
  mlir::Value x = ctx.channelsLastInput(0);
  last = x != nullptr;
  return last ? x : ctx.input(0);
}

/// `x` (padded already; NHWC where `last`, else NCHW) pooled over the
/// window by the linalg op of that layout into `init`.
template <typename NchwOp, typename NhwcOp>
mlir::Value windowPool(NodeContext &ctx, mlir::Value x, const Window &w,
                       mlir::Value init, bool last) {
  mlir::Type element =
      llvm::cast<mlir::ShapedType>(x.getType()).getElementType();
  mlir::Value shape =
      mlir::tensor::EmptyOp::create(ctx.b, ctx.loc, w.kernel, element);
  llvm::SmallVector<mlir::Value> ins = {x, shape}, outs = {init};
  auto strides = ctx.b.getI64TensorAttr(w.strides);
  auto dilations = ctx.b.getI64TensorAttr(w.dilations);
  if (last)
    return NhwcOp::create(ctx.b, ctx.loc, mlir::TypeRange{init.getType()}, ins,
                          outs, strides, dilations)
        .getResult(0);
  return NchwOp::create(ctx.b, ctx.loc, mlir::TypeRange{init.getType()}, ins,
                        outs, strides, dilations)
      .getResult(0);
}

/// The output type and dynamic sizes of a pooling node in its layout.
std::pair<mlir::RankedTensorType, llvm::SmallVector<mlir::Value>>
inLayout(mlir::RankedTensorType out, llvm::ArrayRef<mlir::Value> dims,
         bool last) {
  if (!last)
    return {out, llvm::SmallVector<mlir::Value>(dims)};
  return {permutedType(out, kToChannelsLast),
          {dims[0], dims[2], dims[3], dims[1]}};
}

/// Sets a pooling node's output, made in its input's layout.
void setPoolOutput(NodeContext &ctx, mlir::Value y, bool last) {
  if (last)
    ctx.setChannelsLastOutput(0, y);
  else
    ctx.setOutput(0, y);
}

/// The window of a 2-D pooling node that takes ceil_mode (its extra
/// padding included), and its input `x` (channels last where `last`);
/// failure after an error at the node.
mlir::FailureOr<Window> poolWindow(NodeContext &ctx,
                                   mlir::RankedTensorType xType,
                                   mlir::RankedTensorType out, mlir::Value &x,
                                   bool &last) {
  if (xType.getRank() != 4)
    return ctx.fail("only 2-D pooling (a 4-D input) is supported");
  auto window = readWindow(ctx, xType, ctx.intsAttr("kernel_shape"), out);
  if (mlir::failed(window))
    return mlir::failure();
  if (ctx.intAttr("ceil_mode", 0)) {
    if (mlir::failed(staticForCeilMode(ctx, xType)))
      return mlir::failure();
    ceilPadding(*window, xType, out);
  }
  if (!(x = poolInput(ctx, last)))
    return mlir::failure();
  return window;
}

mlir::LogicalResult maxPool(NodeContext &ctx) {
  mlir::RankedTensorType xType = ctx.inputType(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!xType || !out)
    return mlir::failure();
  if (xType.getRank() == 5)
    return poolVolume(ctx, /*max=*/true);
  if (ctx.numOutputs() > 1 && !ctx.node().output(1).empty())
    return ctx.fail("the Indices output is not supported");
  bool last;
  mlir::Value x;
  auto window = poolWindow(ctx, xType, out, x, last);
  if (mlir::failed(window))
    return mlir::failure();
  mlir::Type element = out.getElementType();
  // Unsigned integers pool channels last, the one layout linalg has an
  // unsigned max pool in, and pad with 0, their lowest value.
  const bool isUnsigned = ctx.isUnsigned(0);
  if (isUnsigned && !last) {
    x = transposed(ctx.b, ctx.loc, x, kToChannelsLast);
    last = true;
  }
  mlir::Value low = isUnsigned ? ctx.scalar(element, 0) : lowest(ctx, element);
  x = padSpatial(ctx, x, *window, low, last ? 1 : 2);
  auto dims = outputDims(ctx, x, out, *window, last ? 1 : 2);
  if (mlir::failed(dims))
    return mlir::failure();
  auto [type, sizes] = inLayout(out, *dims, last);
  mlir::Value init = ctx.filled(type, low, sizes);
  setPoolOutput(ctx,
                isUnsigned ? windowPool<mlir::linalg::PoolingNhwcMaxUnsignedOp,
                                        mlir::linalg::PoolingNhwcMaxUnsignedOp>(
                                 ctx, x, *window, init, last)
                           : windowPool<mlir::linalg::PoolingNchwMaxOp,
                                        mlir::linalg::PoolingNhwcMaxOp>(
                                 ctx, x, *window, init, last),
                last);
  return mlir::success();
}

/// Sums `x` over the window into `type`, both in one layout.
mlir::Value sumPool(NodeContext &ctx, mlir::Value x, const Window &w,
                    mlir::RankedTensorType type,
                    llvm::ArrayRef<mlir::Value> dims, bool last) {
  mlir::Type element = type.getElementType();
  mlir::Value padded =
      padSpatial(ctx, x, w, ctx.scalar(element, 0), last ? 1 : 2);
  mlir::Value init = ctx.filled(type, ctx.scalar(element, 0), dims);
  return windowPool<mlir::linalg::PoolingNchwSumOp,
                    mlir::linalg::PoolingNhwcSumOp>(ctx, padded, w, init, last);
}

mlir::LogicalResult averagePool(NodeContext &ctx) {
  mlir::RankedTensorType xType = ctx.inputType(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!xType || !out)
    return mlir::failure();
  if (xType.getRank() == 5)
    return poolVolume(ctx, /*max=*/false);
  if (xType.getRank() != 4)
    return ctx.fail("only 2-D pooling (a 4-D input) is supported");
  auto window = readWindow(ctx, xType, ctx.intsAttr("kernel_shape"), out);
  if (mlir::failed(window))
    return mlir::failure();
  bool padded = llvm::any_of(window->low, [](int64_t p) { return p; }) ||
                llvm::any_of(window->high, [](int64_t p) { return p; });
  bool countPads = ctx.intAttr("count_include_pad", 0) != 0;
  if (ctx.intAttr("ceil_mode", 0)) {
    if (mlir::failed(staticForCeilMode(ctx, xType)))
      return mlir::failure();
    Window before = *window;
    ceilPadding(*window, xType, out);
    if (window->high != before.high)
      return ctx.fail("ceil_mode with a partial last window is not "
                      "supported");
  }
  if (padded && !countPads && !xType.hasStaticShape())
    return ctx.fail("count_include_pad=0 with padding needs a static shape");
  bool last;
  mlir::Value x = poolInput(ctx, last);
  if (!x)
    return mlir::failure();
  auto dims = outputDims(ctx, x, out, *window, last ? 1 : 2,
                         /*padded=*/false);
  if (mlir::failed(dims))
    return mlir::failure();
  auto [type, sizes] = inLayout(out, *dims, last);
  mlir::Value sum = sumPool(ctx, x, *window, type, sizes, last);
  mlir::Type element = out.getElementType();
  if (!padded || countPads) {
    double count = double(window->kernel[0] * window->kernel[1]);
    setPoolOutput(ctx, dividedBy(ctx, sum, type, count), last);
    return mlir::success();
  }
  // Divide by the elements each window covers inside the image: the same
  // pooling over ones, padded with zeros.
  mlir::Value ones =
      ctx.filled(last ? permutedType(xType, kToChannelsLast) : xType,
                 ctx.scalar(element, 1));
  mlir::Value counts = sumPool(ctx, ones, *window, type, sizes, last);
  setPoolOutput(ctx,
                elementwise(ctx, {sum, counts}, type,
                            [](mlir::OpBuilder &b, mlir::Location loc,
                               mlir::ValueRange v, mlir::Type) -> mlir::Value {
                              return mlir::arith::DivFOp::create(b, loc, v[0],
                                                                 v[1]);
                            }),
                last);
  return mlir::success();
}

/// |v|^p of a float, by multiplication where p is 1 or 2.
mlir::Value lpPower(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                    int64_t p) {
  mlir::Value a = mlir::math::AbsFOp::create(b, loc, v);
  if (p == 1)
    return a;
  if (p == 2)
    return mlir::arith::MulFOp::create(b, loc, v, v);
  return mlir::math::PowFOp::create(b, loc, a,
                                    floatConst(b, loc, v.getType(), double(p)));
}

/// The p-th root of a sum of |v|^p.
mlir::Value lpRoot(mlir::OpBuilder &b, mlir::Location loc, mlir::Value sum,
                   int64_t p) {
  if (p == 1)
    return sum;
  if (p == 2)
    return mlir::math::SqrtOp::create(b, loc, sum);
  return mlir::math::PowFOp::create(
      b, loc, sum, floatConst(b, loc, sum.getType(), 1.0 / double(p)));
}

/// The node's p (LpPool, GlobalLpPool), or nullopt after an error.
std::optional<int64_t> lpOrder(NodeContext &ctx, mlir::Type element) {
  if (!isFloatType(element))
    return (void)ctx.fail("takes a float tensor"), std::nullopt;
  int64_t p = ctx.intAttr("p", 2);
  if (p < 1)
    return (void)ctx.fail("takes p of 1 or more, not " + llvm::Twine(p)),
           std::nullopt;
  return p;
}

/// LpPool: (sum over the window of |x|^p)^(1/p), padding counting zero.
mlir::LogicalResult lpPool(NodeContext &ctx) {
  mlir::RankedTensorType xType = ctx.inputType(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!xType || !out)
    return mlir::failure();
  auto p = lpOrder(ctx, out.getElementType());
  if (!p)
    return mlir::failure();
  bool last;
  mlir::Value x;
  auto window = poolWindow(ctx, xType, out, x, last);
  if (mlir::failed(window))
    return mlir::failure();
  auto dims = outputDims(ctx, x, out, *window, last ? 1 : 2,
                         /*padded=*/false);
  if (mlir::failed(dims))
    return mlir::failure();
  auto [type, sizes] = inLayout(out, *dims, last);
  const int64_t order = *p;
  mlir::Value powered = elementwise(
      ctx, {x}, llvm::cast<mlir::RankedTensorType>(x.getType()),
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v,
          mlir::Type) { return lpPower(b, loc, v[0], order); });
  if (!powered)
    return mlir::failure();
  mlir::Value sum = sumPool(ctx, powered, *window, type, sizes, last);
  setPoolOutput(ctx,
                elementwise(ctx, {sum}, type,
                            [=](mlir::OpBuilder &b, mlir::Location loc,
                                mlir::ValueRange v, mlir::Type) {
                              return lpRoot(b, loc, v[0], order);
                            }),
                last);
  return mlir::success();
}

/// What a global pool makes of the elements of each channel.
enum class Global { Average, Max, Lp };

/// GlobalAveragePool / GlobalMaxPool / GlobalLpPool: over every spatial
/// dim, to N x C x 1 x ... x 1; from a channels-last image, to both forms
/// of the result (reshapes of one N x C reduction).
template <Global kind> mlir::LogicalResult globalPool(NodeContext &ctx) {
  constexpr bool isMax = kind == Global::Max;
  bool last;
  mlir::Value x = poolInput(ctx, last);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  int64_t order = 0;
  if (kind == Global::Lp) {
    auto p = lpOrder(ctx, out.getElementType());
    if (!p)
      return mlir::failure();
    order = *p;
  }
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  if (rank < 3)
    return ctx.fail("takes an input of rank 3 or more");
  int64_t channel = last ? rank - 1 : 1;
  mlir::MLIRContext *mctx = ctx.b.getContext();
  mlir::Type element = out.getElementType();
  auto reduced = mlir::RankedTensorType::get(
      {xType.getDimSize(0), xType.getDimSize(channel)}, element);
  llvm::SmallVector<mlir::Value> dims = {ctx.dim(x, 0), ctx.dim(x, channel)};
  mlir::Value init = ctx.filled(
      reduced, isMax ? lowest(ctx, element) : ctx.scalar(element, 0), dims);
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      rank, mlir::utils::IteratorType::reduction);
  iterators[0] = iterators[channel] = mlir::utils::IteratorType::parallel;
  llvm::SmallVector<mlir::AffineMap> maps = {
      mlir::AffineMap::getMultiDimIdentityMap(rank, mctx),
      mlir::AffineMap::get(rank, 0,
                           {mlir::getAffineDimExpr(0, mctx),
                            mlir::getAffineDimExpr(channel, mctx)},
                           mctx)};
  mlir::Value r =
      mlir::linalg::GenericOp::create(
          ctx.b, ctx.loc, mlir::TypeRange{reduced}, mlir::ValueRange{x},
          mlir::ValueRange{init}, maps, iterators,
          [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
            mlir::Value acc;
            if (isMax)
              acc = mlir::arith::MaximumFOp::create(b, loc, v[0], v[1]);
            else if (kind == Global::Lp)
              acc = mlir::arith::AddFOp::create(
                  b, loc, lpPower(b, loc, v[0], order), v[1]);
            else
              acc = mlir::arith::AddFOp::create(b, loc, v[0], v[1]);
            mlir::linalg::YieldOp::create(b, loc, acc);
          })
          .getResult(0);
  if (kind == Global::Lp)
    r = elementwise(ctx, {r}, reduced,
                    [=](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v,
                        mlir::Type) { return lpRoot(b, loc, v[0], order); });
  if (kind == Global::Average) {
    double count = 1;
    mlir::Value dynamicCount;
    for (int64_t d = 1; d < rank; ++d) {
      if (d == channel)
        continue;
      if (!xType.isDynamicDim(d)) {
        count *= double(xType.getDimSize(d));
        continue;
      }
      mlir::Value size = ctx.dim(x, d);
      dynamicCount =
          dynamicCount
              ? mlir::arith::MulIOp::create(ctx.b, ctx.loc, dynamicCount, size)
              : size;
    }
    if (!dynamicCount) {
      r = dividedBy(ctx, r, reduced, count);
    } else {
      // The elements of a dynamic image, counted at run time.
      mlir::Type element = reduced.getElementType();
      mlir::Value n = mlir::arith::UIToFPOp::create(
          ctx.b, ctx.loc, element,
          mlir::arith::IndexCastUIOp::create(ctx.b, ctx.loc, ctx.b.getI64Type(),
                                             dynamicCount));
      n = mlir::arith::MulFOp::create(
          ctx.b, ctx.loc, n, floatConst(ctx.b, ctx.loc, element, count));
      r = elementwise(ctx, {r}, reduced,
                      [=](mlir::OpBuilder &b, mlir::Location loc,
                          mlir::ValueRange v, mlir::Type) -> mlir::Value {
                        return mlir::arith::DivFOp::create(b, loc, v[0], n);
                      });
    }
  }
  // N x C to N x C x 1 ... (and N x 1 x 1 x C).
  auto expanded = [&](mlir::RankedTensorType type, bool channelLast) {
    llvm::SmallVector<mlir::ReassociationIndices> groups = {{0}, {}};
    llvm::SmallVector<mlir::OpFoldResult> sizes;
    for (int64_t d = 0; d < rank; ++d) {
      bool isChannel = d == (channelLast ? rank - 1 : 1);
      if (d > 0)
        groups.back().push_back(d);
      mlir::Value size = d == 0 ? dims[0] : isChannel ? dims[1] : nullptr;
      if (!size)
        sizes.push_back(ctx.b.getIndexAttr(1));
      else if (type.isDynamicDim(d))
        sizes.push_back(size);
      else
        sizes.push_back(ctx.b.getIndexAttr(type.getDimSize(d)));
    }
    return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, type, r, groups,
                                               sizes)
        .getResult();
  };
  mlir::Value nchw = expanded(out, false);
  if (last)
    ctx.setChannelsLastOutput(
        0, expanded(permutedType(out, kToChannelsLast), true), nchw);
  else
    ctx.setOutput(0, nchw);
  return mlir::success();
}

} // namespace

std::vector<OpConverter> convolutionConverters() {
  std::vector<OpConverter> converters = {
      {"Conv", conv},
      {"ConvTranspose", convTranspose},
      {"MaxPool", maxPool, {}, false, /*readsUnsigned=*/true},
      {"AveragePool", averagePool},
      {"LpPool", lpPool},
      {"GlobalAveragePool", globalPool<Global::Average>},
      {"GlobalMaxPool", globalPool<Global::Max>},
      {"GlobalLpPool", globalPool<Global::Lp>}};
  for (OpConverter &c : converters)
    c.takesOneD = true;
  return converters;
}

} // namespace aot::onnx_import
