//===- BatchDims.h - a contraction's batch dims as one -------------------===//
//
// Part of aot-tile-and-vectorize: a batched matmul over several batch dims
// (attention's batch x heads) is tiled as a batch matmul of one.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_BATCHDIMS_H
#define AOT_TRANSFORMS_CPU_BATCHDIMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace aot {

/// Replaces each linalg.generic of `fn` that is a contraction of tensors
/// with one M, N and K dim and two or more batch dims, consecutive loops
/// that lie side by side, in order, in every operand, by the same
/// contraction over one batch dim, the operands and the result reshaped
/// without a copy.
void collapseBatchDims(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn);

} // namespace aot

#endif // AOT_TRANSFORMS_CPU_BATCHDIMS_H
