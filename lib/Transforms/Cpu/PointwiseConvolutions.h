//===- PointwiseConvolutions.h - 1 x 1 convolutions as matmuls ------------===//
//
// Part of aot-tile-and-vectorize: a convolution with a 1 x 1 window and unit
// strides is a matmul of its pixels by its filter, and is tiled as one.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_POINTWISECONVOLUTIONS_H
#define AOT_TRANSFORMS_CPU_POINTWISECONVOLUTIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/PatternMatch.h"

namespace aot {

/// Replaces `op`, where it is a linalg.conv_2d_nhwc_hwcf with a 1 x 1
/// window, unit strides and static dims but the batch, by a linalg.matmul
/// of its pixels (N*H*W x C) by its filter (C x F), the operands and the
/// result reshaped without a copy. Whether it did.
bool pointwiseAsMatmul(mlir::RewriterBase &rewriter, mlir::Operation *op);

} // namespace aot

#endif // AOT_TRANSFORMS_CPU_POINTWISECONVOLUTIONS_H
