//===- PackPanels.h - contiguous panels of a matmul's right operand -------===//
//
// Part of aot-tile-and-vectorize: the cache blocks of a large f32 matmul read
// their block of B from a packed copy made once per block.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_PACKPANELS_H
#define AOT_TRANSFORMS_CPU_PACKPANELS_H

#include "Transforms/Common/ContractionForms.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace aot {

/// B of `op` where `op` is an f32 or f64 matmul or batch matmul that
/// packRhsPanel takes (no conversion in its body), stored K x N or,
/// transposed, N x K
/// (without a panel, each register tile then gathers B's values one at a
/// time). No operand where `op` is no such matmul.
MatmulRhs packableRhs(mlir::linalg::LinalgOp op);

/// `block`, one cache block of an f32 matmul (or one matrix of a batch
/// matmul) inside the loop over row blocks `rowLoop`, with B indexed K x N
/// or, transposed, N x K: copies the block of B once, before `rowLoop`,
/// into a panel of strips `stripWidth` columns wide, each contiguous
/// (strip, k, column), and cuts `block` into one op per strip that reads
/// its strip of the panel (indexed K x N whatever B's layout). `maxK` and
/// `maxN` bound the block's K and N where they are dynamic. Returns the
/// strip op, or `block` unchanged where it is not such a block.
mlir::linalg::LinalgOp packRhsPanel(mlir::RewriterBase &rewriter,
                                    mlir::linalg::LinalgOp block,
                                    mlir::scf::ForOp rowLoop, int64_t maxK,
                                    int64_t maxN, int64_t stripWidth);

} // namespace aot

#endif // AOT_TRANSFORMS_CPU_PACKPANELS_H
