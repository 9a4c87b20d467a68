//===- FewRowsBranch.h - dynamic row counts under a branch ----------------===//
//
// Part of aot-tile-and-vectorize, before tiling.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace aot {

/// Every matmul on tensors of `fn` with a dynamic M that has code for few
/// rows (B stored transposed with K innermost, or B stored K x N) becomes
/// an scf.if on M < kFewRows: where it holds, copies of the op with a
/// static M, so that few rows get the code of few static rows (a float B
/// stored K x N: on A and the init padded with zero rows to 1, 2, 4, 5, 6
/// or 7; otherwise 3 rows as one piece, other counts as pieces of 4, 2 and
/// 1 rows, one for each bit of M, on slices of A and of the result); the op
/// itself, for many rows, where it does not.
void branchOnFewRows(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn);

} // namespace aot
