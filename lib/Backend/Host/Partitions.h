//===- Partitions.h - LLVM's work on a module split among threads ---------===//
//
// A module with many dispatches is optimised and code-generated in
// partitions, each on a thread of its own with an LLVM context of its own,
// as LLVM's parallel code generation does for LTO. Which partition a
// function or global belongs to is recorded in the IR (`!aot.partition`
// metadata), decided from the module alone, so the output is the same for
// any thread count and a compile resumed from the optimised LLVM IR
// (--compile-from=asm) splits it the same way.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Target.h"

#include "Backend/Host/EmbeddedWeights.h"

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <string>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace aot {

/// Decides the partitions of `module` (before the -O pipeline) and records
/// them: dispatches (functions marked `noinline`) are spread over
/// partitions 1.. in order of appearance, by size; everything else,
/// weights included, stays in partition 0. Symbols used across partitions
/// get external linkage and hidden visibility. A module too small to gain
/// from threads stays whole (no metadata).
void assignPartitions(llvm::Module &module);

/// The number of partitions recorded in `module` (1 when none), or an error
/// naming a global whose `!aot.partition` is malformed.
Expected<unsigned> partitionCount(const llvm::Module &module);

/// How LLVM's work runs: `hostMachine` serves partition 0, whose module
/// keeps its context; every other partition gets a context and a target
/// machine of its own, for `target` at `optLevel`, on `pool`'s threads (on
/// the calling thread when null).
struct PartitionWork {
  llvm::TargetMachine &hostMachine;
  const Target &target;
  int optLevel;
  llvm::ThreadPoolInterface *pool;
  /// The weights the module declares, defined in partition 0's object.
  const EmbeddedWeights &weights;
};

/// Runs the -O pipeline on each partition of `module`, then links the
/// optimised partitions back into `module`.
Status optimizePartitions(llvm::Module &module, const PartitionWork &work);

/// Object code for `module` (left unchanged): one object per partition,
/// merged into one relocatable object in which the symbols shared between
/// partitions are local again.
Expected<std::string> emitPartitionedObject(const llvm::Module &module,
                                            const PartitionWork &work);
/// The same object written to the new file `path`, errors naming `shown`
/// (the file `path` will replace). Code generation and the merge write
/// into files, and the weights go from their bytes into `path`: the object
/// is never in memory.
Status writePartitionedObject(const llvm::Module &module,
                              const PartitionWork &work,
                              const std::string &path,
                              const std::string &shown);

} // namespace aot
