//===- BytecodeGuard.h - reading untrusted bytecode in a child process ----===//
//
// MLIR 22's bytecode reader can crash (SIGSEGV, abort on a corrupt heap or a
// failed allocation) or loop for minutes on corrupted input (llvm-project
// issue 99626), and some corrupt inputs overrun the heap without crashing
// at once: a parse that fails cleanly can still leave the process to die
// later. The compiler runs inside its user's process, so the reader never
// sees untrusted bytes there: a forked child with a time and memory limit
// parses and verifies them, and sends back either its diagnostics or the
// module written anew as bytecode by MLIR's writer, which the caller's
// process then reads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <memory>
#include <string>

namespace aot {

/// The alignment of buffers that may hold bytecode. The reader refuses a
/// buffer less aligned than a section asks, and a section of resources asks
/// for its blobs' alignment (64 bytes is common); a page covers any of them.
inline constexpr llvm::Align kBytecodeBufferAlignment =
    llvm::Align::Constant<4096>();

/// How long the child may take by default. A module of a few MiB parses in
/// well under a second; a reader stuck on a corrupt length or offset runs for
/// minutes, so 10 s separates the two with room for a loaded machine.
inline constexpr std::chrono::seconds kDefaultBytecodeParseTimeLimit{10};
/// And for each 256 MiB of input, 10 s more: parsing and sending back the
/// weights of a large model takes seconds of its own (1 GiB: up to 20 s on
/// a loaded 2-core machine).
inline constexpr std::chrono::seconds kBytecodeParseTimePer256MiB{10};

/// The child's time limit for `inputSize` bytes: the environment variable
/// AOT_BYTECODE_PARSE_TIMEOUT (seconds, fractions allowed) when it holds a
/// positive number of seconds up to a day, else the defaults above.
std::chrono::milliseconds bytecodeParseTimeLimit(std::size_t inputSize);

/// Parses and verifies a module from a buffer it takes over; reports problems
/// to the context's diagnostic handlers and returns null on failure.
using ModuleParser = llvm::function_ref<mlir::OwningOpRef<mlir::ModuleOp>(
    std::unique_ptr<llvm::MemoryBuffer>, mlir::MLIRContext &)>;

/// Runs `parse` on `input` in a forked, single-threaded child process with a
/// fresh context holding `context`'s dialect registry, and returns:
/// - when the child parsed and verified: the module, read by `parse` in
///   `context` from the bytecode the child wrote for it;
/// - when the input is invalid: null, with the child's diagnostics
///   re-emitted in `context` (their file, line and column kept);
/// - when the child crashed, hit an LLVM fatal error, ran out of its memory
///   budget, or did not finish within bytecodeParseTimeLimit() (and was
///   killed), or when no child could be started: null, with `refusal` set to
///   a sentence saying so about "this input".
///
/// Nothing of this process changes: no signal handler, no descriptor is left
/// open, the child is always reaped (unless the host reaps its children
/// itself).
mlir::OwningOpRef<mlir::ModuleOp>
parseUntrustedBytecode(const llvm::MemoryBuffer &input,
                       mlir::MLIRContext &context, ModuleParser parse,
                       std::string &refusal);

} // namespace aot
