//===- OnnxConv.h - what other converters take from Conv ------------------===//
//
// The window attributes and the NCHW convolution, for the integer
// convolutions (ConvInteger, QLinearConv), which convolve their inputs
// after taking the zero points off.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Frontend/Onnx/OnnxNode.h"

#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <vector>

namespace aot::onnx_import {

/// The spatial attributes of a convolution or pooling node.
struct Window {
  std::vector<std::int64_t> kernel, strides, dilations;
  /// Padding before and after each spatial dim.
  std::vector<std::int64_t> low, high;
};

/// Reads the window attributes of a node over `input` (N, C, then the
/// spatial dims) with the kernel `kernel`: one entry per spatial dim, two
/// pads; the output's spatial sizes decide SAME padding.
mlir::FailureOr<Window> readWindow(NodeContext &ctx,
                                   mlir::RankedTensorType input,
                                   std::vector<std::int64_t> kernel,
                                   mlir::RankedTensorType output);

/// `x` (N x C x H x W, not padded: padded here with zeros) convolved with
/// `weights` (F x C/group x kh x kw) over `window` in `group` groups,
/// accumulated onto `bias` ([F]) or onto zeros where it is null; the
/// result N x F x H' x W' of type `out`. Null after an error at the node.
mlir::Value convNchw(NodeContext &ctx, mlir::Value x, mlir::Value weights,
                     mlir::Value bias, const Window &window, int64_t group,
                     mlir::RankedTensorType out);

/// `x` padded in its spatial dims (one per entry of the window's pads,
/// from dim `first`: 2 in NCHW, 1 in NHWC) by `low`/`high` with `value`;
/// `x` itself where the window has no padding.
mlir::Value padSpatial(NodeContext &ctx, mlir::Value x, const Window &w,
                       mlir::Value value, int first = 2);

/// The lowest value of `element`: what a max pool pads with.
mlir::Value lowest(NodeContext &ctx, mlir::Type element);

/// `sum` (of `type`) divided by `count`: an average.
mlir::Value dividedBy(NodeContext &ctx, mlir::Value sum,
                      mlir::RankedTensorType type, double count);

/// Conv over 3-D images (N x C x D x H x W; OnnxVolume.cpp).
mlir::LogicalResult convVolume(NodeContext &ctx);
/// MaxPool (`max`) or AveragePool over 3-D images.
mlir::LogicalResult poolVolume(NodeContext &ctx, bool max);

} // namespace aot::onnx_import
