//===- Attributes.h - the aot.* attributes passes hand each other ---------===//
//
// The passes of a pipeline talk to each other through discardable attributes
// on the IR: one pass marks an op, a later one reads the mark. Every such
// name is here, with the pass (or the compile) that sets it and those that
// read it, so that a change to either side finds the other. A pass's own
// marks that no other pass sees stay in its source file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"

namespace aot {

//===----------------------------------------------------------------------===//
// Both back ends
//===----------------------------------------------------------------------===//

/// On a function made by aot-form-dispatches (unit): one dispatch, called
/// from the function it was cut out of. Read through dispatchesOf
/// (Common/Dispatches.h) by the passes that handle dispatches and the
/// buffers handed to them.
inline constexpr llvm::StringLiteral kDispatchAttr = "aot.dispatch";

/// On a global that aot-weights-as-bytes made bytes: the constant's type.
/// Read by the weights' writers of the back ends (embedded and external).
inline constexpr llvm::StringLiteral kWeightTypeAttr = "aot.weight_type";
/// On every constant global of the LLVM dialect with bytes: where the
/// constant came from (weightName), kept for the steps of a staged compile,
/// whose later inputs are files of the compiler's own making. Set by
/// aot-weights-as-bytes, read by the external weights' writer.
inline constexpr llvm::StringLiteral kWeightNameAttr = "aot.weight_name";

//===----------------------------------------------------------------------===//
// The CPU back end
//===----------------------------------------------------------------------===//

/// On the module while a stage runs (i64): Pipeline::runThreads, the threads
/// the compiled code runs on. Set and removed by the compile around each
/// stage; read by aot-tile-and-vectorize and aot-parallelize-loops.
inline constexpr llvm::StringLiteral kThreadsAttr = "aot.threads";
/// On an scf.for whose iterations may run on threads of their own: set by
/// aot-tile-and-vectorize, read by aot-parallelize-loops. Its value (i64):
/// the fewest trips worth threads when the trip count is dynamic (0: any).
inline constexpr llvm::StringLiteral kParallelLoopAttr = "aot.parallel";
/// On an scf.for marked kParallelLoopAttr whose iterations each write their
/// own part of the buffers it shares with the code after it (results the
/// function keeps, not scratch), and on a linalg op whose results are such:
/// set by aot-winograd-convolutions on its loops and ops, copied by
/// aot-tile-and-vectorize from an op to the loop it marks parallel, read by
/// aot-parallelize-loops, which lets such a loop run on threads without
/// making those buffers each iteration's own.
inline constexpr llvm::StringLiteral kDisjointWritesAttr =
    "aot.disjoint_writes";
/// On an scf.for inside one marked kParallelLoopAttr whose trip count is
/// dynamic: runs on threads where that loop makes one trip (set by
/// aot-tile-and-vectorize, read by aot-parallelize-loops).
inline constexpr llvm::StringLiteral kParallelFallbackAttr =
    "aot.parallel_fallback";
/// On the scf.for along K of dot products computed several at a time: set
/// by aot-tile-and-vectorize, read by aot-prefetch-rows.
inline constexpr llvm::StringLiteral kPrefetchRowsAttr = "aot.prefetch_rows";
/// On the scf.for over K blocks of a cache-blocked matmul whose B (K x N) is
/// read where it lies: set by aot-tile-and-vectorize, read by
/// aot-prefetch-rows, which prefetches the next block while this one runs.
inline constexpr llvm::StringLiteral kPrefetchNextBlockAttr =
    "aot.prefetch_next_block";
/// On a vector.contract of 16 pairs of i16 into 16 i32 lanes (x86's
/// vpmaddwd plus an add): set by aot-tile-and-vectorize with x86-pair-dot,
/// lowered to the instruction by aot-x86-pair-dot.
inline constexpr llvm::StringLiteral kPairDotAttr = "aot.pair_dot";
/// On the scf.for along K of integer dot products whose accumulator takes
/// 32 values of K a step: set by aot-tile-and-vectorize with x86-pair-dot,
/// made pair dots into 16 lanes by aot-x86-pair-dot (pairDotProducts).
inline constexpr llvm::StringLiteral kPairDotProductsAttr =
    "aot.pair_dot_products";

//===----------------------------------------------------------------------===//
// The CUDA back end
//===----------------------------------------------------------------------===//

/// On a function (unit): its memref arguments are device memory. Set by
/// aot-gpu-mark-device-buffers; read by aot-gpu-device-memory and
/// aot-gpu-map-loops (Gpu/BufferPlacement.h).
inline constexpr llvm::StringLiteral kDeviceMemoryAttr = "aot.device_memory";
/// On a memref.alloc or alloca (unit): it holds tensor data, so device
/// memory. Set by aot-gpu-mark-device-buffers; read by aot-gpu-device-memory,
/// which makes it a gpu.alloc, and by isHostMemory.
inline constexpr llvm::StringLiteral kDeviceBufferAttr = "aot.device";
/// On a kernel (gpu.func) whose name is not the one its source gave it
/// (that name, a string): PTX identifiers take letters, digits, '_' and '$'
/// only, MLIR symbols anything. Set by aot-gpu-merge-modules; read by the
/// CUDA back end's kernel traces and dumps, which show the source's name.
inline constexpr llvm::StringLiteral kKernelSourceNameAttr = "aot.source_name";
/// On an llvm.mlir.global (unit): constant data only the host reads (a text
/// the runtime is handed), so aot-gpu-device-constants makes no device copy.
/// Set by the CUDA back end's kernel tracing.
inline constexpr llvm::StringLiteral kHostOnlyAttr = "aot.host_only";

} // namespace aot
