//===- Chain.h - the upstream tools as a chain of processes --------------===//
//
// The comparison for compile-time figures: the same default pass lists,
// less the project's own passes (aot-*), run by
//
//   mlir-opt-22 --pass-pipeline='builtin.module(PASSES)' MODEL
//     | mlir-translate-22 --mlir-to-llvmir
//     | llc-22 -O3 -filetype=obj -relocation-model=pic -mcpu=native -o OBJ
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace aot::bench {

/// The chain of separate tools, as one shell pipeline.
struct Chain {
  std::string command;               ///< what /bin/sh -c runs
  std::string objectPath, errorPath; ///< its output and its stderr
  std::vector<std::string> dropped;  ///< aot-* passes left out
  std::string skipReason;            ///< non-empty: the chain cannot run
};

/// The shortest upstream route from the input contract to the LLVM
/// dialect: one-shot bufferization, loops, deallocation, lowering; no
/// fusion, tiling or vectorization.
extern const char *const kLoweringPasses;

/// Builds the chain's command for `model`, writing into `dir`. Its mlir-opt
/// runs `passes`, or by default the default pass lists of the stages
/// linalg, tiled, bufferized and llvm less the project's own passes.
Chain makeChain(const std::string &model, const std::string &dir,
                const std::string &passes = "");

/// Why the chain's last run is not a valid compile of the model, or "" when
/// it is: it must exit 0 and leave an object file that defines `symbol`
/// (a failed mlir-opt still lets llc write an empty object and exit 0).
std::string checkChainRun(const Chain &chain, int status,
                          const std::string &symbol);

/// Runs `command` with popen (that is, /bin/sh -c) and waits for it.
/// Returns its exit status, or -1 when it could not start or was killed.
int runShell(const std::string &command);

/// The whole contents of a file ("" if it cannot be read).
std::string readFile(const std::string &path);

} // namespace aot::bench
