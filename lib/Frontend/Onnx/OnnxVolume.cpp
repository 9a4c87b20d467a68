//===- OnnxVolume.cpp - Conv and pooling over 3-D images ------------------===//
//
// Video and volumetric models (N x C x D x H x W): a convolution is
// linalg's NCDHW one as ONNX lays it out (depthwise where each channel has
// its own filter), a pool linalg's NDHWC one between two transposes. These
// are the plain named ops, without the channels-last chaining and packed
// filters of the 2-D converters.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxConv.h"
#include "Frontend/Onnx/OnnxElementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

namespace {

/// NCDHW to NDHWC and back.
constexpr std::int64_t kVolumeToLast[5] = {0, 2, 3, 4, 1};
constexpr std::int64_t kVolumeToFirst[5] = {0, 4, 1, 2, 3};

/// The window of a 3-D node (readWindow's), checked: sizes, strides and
/// dilations of 1 or more, pads of 0 or more, and dynamic sizes in the
/// batch dim only. Failure after an error at the node.
mlir::FailureOr<Window> volumeWindow(NodeContext &ctx,
                                     mlir::RankedTensorType input,
                                     std::vector<std::int64_t> kernel,
                                     mlir::RankedTensorType output) {
  auto w = readWindow(ctx, input, std::move(kernel), output);
  if (mlir::failed(w))
    return mlir::failure();
  for (int d = 0; d < 3; ++d)
    if (w->kernel[d] < 1 || w->strides[d] < 1 || w->dilations[d] < 1 ||
        w->low[d] < 0 || w->high[d] < 0)
      return ctx.fail("takes kernel sizes, strides and dilations of 1 or "
                      "more and pads of 0 or more");
  for (int64_t d = 1; d < 5; ++d)
    if (input.isDynamicDim(d) || output.isDynamicDim(d))
      return ctx.fail("takes dynamic sizes in the batch dim only");
  return w;
}

/// The dynamic sizes of `type` (the batch dim only) read from `x`.
llvm::SmallVector<mlir::Value> batchDims(NodeContext &ctx, mlir::Value x,
                                         mlir::RankedTensorType type) {
  llvm::SmallVector<mlir::Value> dims(type.getRank());
  if (type.isDynamicDim(0))
    dims[0] = ctx.dim(x, 0);
  return dims;
}

} // namespace

mlir::LogicalResult convVolume(NodeContext &ctx) {
  mlir::Value x = ctx.input(0), weights = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !weights || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  auto wType = llvm::cast<mlir::RankedTensorType>(weights.getType());
  mlir::Type element = out.getElementType();
  if (!isFloatType(element))
    return ctx.fail("takes float tensors");
  if (wType.getRank() != 5 || !wType.hasStaticShape() || xType.isDynamicDim(1))
    return ctx.fail("takes weights of a static shape and a static channel "
                    "count");
  int64_t group = ctx.intAttr("group", 1);
  int64_t channels = xType.getDimSize(1), filters = wType.getDimSize(0);
  if (group < 1 || wType.getDimSize(1) * group != channels || filters % group)
    return ctx.fail("group " + llvm::Twine(group) + " does not fit " +
                    llvm::Twine(channels) + " channels and weights " +
                    typeText(wType));
  bool depthwise = group == channels && filters == channels;
  if (group != 1 && !depthwise)
    return ctx.fail("3-D convolutions in groups other than one per channel "
                    "are not supported");
  auto window = volumeWindow(
      ctx, xType,
      ctx.intsAttr("kernel_shape", {wType.getDimSize(2), wType.getDimSize(3),
                                    wType.getDimSize(4)}),
      out);
  if (mlir::failed(window))
    return mlir::failure();
  for (int d = 0; d < 3; ++d)
    if (window->kernel[d] != wType.getDimSize(2 + d))
      return ctx.fail("kernel_shape does not match the weights " +
                      typeText(wType));
  x = padSpatial(ctx, x, *window, ctx.scalar(element, 0), 2);
  llvm::SmallVector<mlir::Value> dims = batchDims(ctx, x, out);
  mlir::Value init;
  if (ctx.hasInput(2)) {
    mlir::Value bias = ctx.input(2);
    if (!bias)
      return mlir::failure();
    auto biasType = llvm::cast<mlir::RankedTensorType>(bias.getType());
    if (biasType.getRank() != 1 || biasType.getDimSize(0) != filters)
      return ctx.fail("takes a bias of one value per filter, not " +
                      typeText(biasType));
    init = mlir::linalg::BroadcastOp::create(
               ctx.b, ctx.loc, bias, ctx.empty(out, dims),
               llvm::ArrayRef<int64_t>{0, 2, 3, 4})
               .getResult()[0];
  } else {
    init = ctx.filled(out, ctx.scalar(element, 0), dims);
  }
  auto strides = ctx.b.getI64TensorAttr(window->strides);
  auto dilations = ctx.b.getI64TensorAttr(window->dilations);
  mlir::Value y;
  if (depthwise && group > 1) {
    auto flat =
        mlir::RankedTensorType::get({filters, wType.getDimSize(2),
                                     wType.getDimSize(3), wType.getDimSize(4)},
                                    wType.getElementType());
    mlir::Value w4 = mlir::tensor::CollapseShapeOp::create(
        ctx.b, ctx.loc, flat, weights,
        llvm::SmallVector<mlir::ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
    y = mlir::linalg::DepthwiseConv3DNcdhwCdhwOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{x, w4},
            mlir::ValueRange{init}, strides, dilations)
            .getResult(0);
  } else {
    y = mlir::linalg::Conv3DNcdhwFcdhwOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{x, weights},
            mlir::ValueRange{init}, strides, dilations)
            .getResult(0);
  }
  ctx.setOutput(0, y);
  return mlir::success();
}

mlir::LogicalResult poolVolume(NodeContext &ctx, bool max) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  if (ctx.numOutputs() > 1 && !ctx.node().output(1).empty())
    return ctx.fail("the Indices output is not supported");
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Type element = out.getElementType();
  if (!isFloatType(element))
    return ctx.fail("takes float tensors");
  if (ctx.intAttr("ceil_mode", 0))
    return ctx.fail("ceil_mode is not supported over 3-D images");
  auto window = volumeWindow(ctx, xType, ctx.intsAttr("kernel_shape"), out);
  if (mlir::failed(window))
    return mlir::failure();
  if (!max && llvm::any_of(window->dilations, [](int64_t d) { return d != 1; }))
    return ctx.fail("takes dilations of 1");
  bool padded = llvm::any_of(window->low, [](int64_t p) { return p; }) ||
                llvm::any_of(window->high, [](int64_t p) { return p; });
  if (!max && padded && !ctx.intAttr("count_include_pad", 0))
    return ctx.fail("count_include_pad=0 with padding is not supported over "
                    "3-D images");
  mlir::Value low = max ? lowest(ctx, element) : ctx.scalar(element, 0);
  mlir::Value last = transposed(ctx.b, ctx.loc, x, kVolumeToLast);
  last = padSpatial(ctx, last, *window, low, 1);
  mlir::RankedTensorType lastType = permutedType(out, kVolumeToLast);
  mlir::Value init = ctx.filled(lastType, low, batchDims(ctx, x, lastType));
  mlir::Value shape =
      mlir::tensor::EmptyOp::create(ctx.b, ctx.loc, window->kernel, element);
  auto strides = ctx.b.getI64TensorAttr(window->strides);
  auto dilations = ctx.b.getI64TensorAttr(window->dilations);
  llvm::SmallVector<mlir::Value> ins = {last, shape};
  mlir::Value y = max ? mlir::linalg::PoolingNdhwcMaxOp::create(
                            ctx.b, ctx.loc, mlir::TypeRange{lastType}, ins,
                            mlir::ValueRange{init}, strides, dilations)
                            .getResult(0)
                      : mlir::linalg::PoolingNdhwcSumOp::create(
                            ctx.b, ctx.loc, mlir::TypeRange{lastType}, ins,
                            mlir::ValueRange{init}, strides, dilations)
                            .getResult(0);
  if (!max)
    y = dividedBy(
        ctx, y, lastType,
        double(window->kernel[0] * window->kernel[1] * window->kernel[2]));
  ctx.setOutput(0, transposed(ctx.b, ctx.loc, y, kVolumeToFirst));
  return mlir::success();
}

} // namespace aot::onnx_import
