//===- ContractionForms.h - contractions in the form the tiles vectorize --===//
//
// Part of aot-tile-and-vectorize, before tiling, and
// aot-accumulate-half-in-f32.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_COMMON_CONTRACTIONFORMS_H
#define AOT_TRANSFORMS_COMMON_CONTRACTIONFORMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <optional>

namespace aot {

/// B of a matmul or batch matmul `op`, a contraction with one M, N and K
/// loop, at most one batch loop and one init: the input indexed (k, n), or
/// (n, k) when B is stored transposed, after the batch dim if there is one.
struct MatmulRhs {
  /// The input; an operand of the op it was found in (which tiling may
  /// replace). Null where `op` is no such matmul.
  mlir::OpOperand *operand = nullptr;
  unsigned kPos = 0, nPos = 0;   ///< Where K and N lie among B's dims.
  unsigned m = 0, n = 0, k = 0;  ///< The loops of `op` over M, N and K.
  std::optional<unsigned> batch; ///< Its batch loop, if any.
  bool transposed() const { return nPos < kPos; }
};
/// B of `op`, whatever its element types (see MatmulRhs).
MatmulRhs matmulRhs(mlir::linalg::LinalgOp op);

/// Rows of A from which B is worth a copy (a packed panel of B stored
/// transposed, f16 or bf16 converted to f32 once): with fewer, B is read as
/// it lies, each value about once.
constexpr int64_t kFewRows = 8;

/// Whether `op` has a static M (see MatmulRhs) of fewer than kFewRows rows.
bool hasFewRows(mlir::linalg::LinalgOp op, const MatmulRhs &rhs);

/// B of `op` where A and the result are f32 and B f16 or bf16: a matmul of
/// few rows whose B prepareContractions leaves narrow, converted to f32 as
/// its register tiles read it. No operand for any other op.
MatmulRhs halfRhs(mlir::linalg::LinalgOp op);

/// Whether the element type of every operand of `op` is one that `isKind`
/// (a predicate on mlir::Type) takes.
template <typename IsKind>
bool allElements(mlir::linalg::LinalgOp op, IsKind isKind) {
  return llvm::all_of(op->getOperandTypes(), [&](mlir::Type t) {
    return isKind(mlir::getElementTypeOrSelf(t));
  });
}

/// Rewrites the float contractions on tensors of `fn` (a linalg.generic
/// whose body is a multiply-add, its inputs extended to the accumulator's
/// type or not, or a named one that reads f16 or bf16) for the CPU's tiles:
/// - each becomes a linalg.contract with the same indexing maps, which
///   vectorizes to a vector.contract (outer products, FMAs); as a generic
///   its unit-K register tiles vectorize to products and adds of lanes;
/// - an f16 or bf16 input of one that accumulates in f32 is converted to
///   f32 once, by an elementwise linalg.generic of its own: its register
///   tiles would otherwise convert each value once per tile that reads it
///   (A's values scalar by scalar). B stays narrow where A has few rows
///   (hasFewRows): each of its values is then read about once, and a copy
///   of B in f32 would write and read twice the bytes that B is (a vector
///   times an f16 matrix is bound by memory).
void prepareContractions(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn);

/// Every integer matmul or batch matmul on tensors of `fn` whose B is
/// stored transposed (indexed N x K) and read by many rows of A (not
/// hasFewRows) gets B transposed once, whole, into a new K x N tensor (an
/// elementwise linalg.generic), and reads that instead: its register tiles
/// take two steps of K at a time from rows of B (pair dots), which a
/// transposed B turns into gathers at every step. (f32 ones are packed
/// instead, PackPanels.)
void transposeIntegerRhs(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn);

/// Every float multiply-add contraction on tensors of `fn` that accumulates
/// in f16 or bf16 accumulates in f32 instead (a linalg.contract reading the
/// same inputs), from its initial values converted to f32, and its result
/// is rounded to the half type once: computed in f32, as libraries do on
/// hardware without half arithmetic, where summing in the half type rounds
/// at every step (f16 holds no odd integer above 2048).
void accumulateHalfInF32(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn);

} // namespace aot

#endif // AOT_TRANSFORMS_COMMON_CONTRACTIONFORMS_H
