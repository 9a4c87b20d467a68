//===- PrivateBuffers.h - scratch buffers of a loop made per iteration ----===//
//
// Part of aot-parallelize-loops: a buffer that bufferization placed before a
// tile loop (its tensor.empty was loop-invariant, so it was hoisted) is
// shared by every iteration; run on threads, they would race on it.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_PRIVATEBUFFERS_H
#define AOT_TRANSFORMS_CPU_PRIVATEBUFFERS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace aot {

/// Gives each iteration of `loop` its own copy of the buffers allocated
/// before it that its iterations write and that nothing after it reads (a
/// stack buffer in a memref.alloca_scope of the body, so that the copies
/// are freed as each iteration ends), and returns true: the iterations
/// share no written memory but their slices of the outputs. Returns false,
/// changing nothing, where such a buffer is also used outside the loop, is
/// dynamically sized or larger than a stack buffer should be: the loop must
/// stay sequential. A loop marked kDisjointWritesAttr keeps the buffers that
/// the code after it uses shared: its iterations write their own parts.
bool privatizeScratchBuffers(mlir::scf::ForOp loop);

} // namespace aot

#endif // AOT_TRANSFORMS_CPU_PRIVATEBUFFERS_H
