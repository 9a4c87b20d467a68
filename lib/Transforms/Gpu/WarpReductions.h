//===- WarpReductions.h - a warp per output of a row reduction ------------===//
#pragma once

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace aot {

/// The threads of a warp along the reduction of one output element.
inline constexpr int64_t kWarpSize = 32;

/// If `loop` (an scf.parallel of one or two dimensions) reduces along the
/// innermost dimension of what it reads, in one scf.for accumulating into
/// one output element per iteration with an associative, commutative 32-bit
/// op (add, mul, min, max, and, or, xor), replaces it with a loop of one
/// more dimension, the `kWarpSize` lanes of a warp: each lane combines the
/// elements `kWarpSize` apart, a butterfly of shuffles combines the lanes,
/// and the first lane combines the result into the output element. Returns
/// the new loop, to be tiled with the lanes along thread x (a block's x
/// size must be exactly `kWarpSize`), or null where `loop` is not such a
/// reduction or its reduction is shorter than a warp or not static.
mlir::scf::ParallelOp spreadRowReduction(mlir::scf::ParallelOp loop);

} // namespace aot
