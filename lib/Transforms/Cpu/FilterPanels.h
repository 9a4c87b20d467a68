//===- FilterPanels.h - contiguous panels of a convolution's filter -------===//
//
// Part of aot-tile-and-vectorize: a 2-D convolution whose filter outweighs
// its image runs a block of output channels at a time, each block reading
// its slice of the filter from a contiguous copy.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_FILTERPANELS_H
#define AOT_TRANSFORMS_CPU_FILTERPANELS_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"

namespace aot {

/// `block`, a linalg.conv_2d_nhwc_hwcf over one block of output channels
/// whose filter operand is a static slice (KH x KW x C x width) of a larger
/// filter: makes it read a copy of that slice instead, made just before it
/// into a panel of its own, so that its register blocks read the filter
/// front to back. Whether it did (false: `block` is no such op).
bool readFilterFromPanel(mlir::RewriterBase &rewriter,
                         mlir::linalg::LinalgOp block);

} // namespace aot

#endif // AOT_TRANSFORMS_CPU_FILTERPANELS_H
