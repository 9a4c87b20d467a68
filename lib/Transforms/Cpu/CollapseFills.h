//===- CollapseFills.h - fills of contiguous tensors as one dim -----------===//
//
// Part of aot-tile-and-vectorize, before tiling.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_COLLAPSEFILLS_H
#define AOT_TRANSFORMS_CPU_COLLAPSEFILLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace aot {

/// Rewrites each linalg.fill of a static shape of rank 2 or more in `fn`
/// whose tensor lies contiguous once bufferized (a tensor.empty, or an
/// argument of `fn`) as a fill of its elements collapsed into one dim,
/// expanded back to its shape after.
void collapseFills(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn);

} // namespace aot

#endif // AOT_TRANSFORMS_CPU_COLLAPSEFILLS_H
