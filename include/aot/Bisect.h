//===- Bisect.h - finding the action that breaks a model ------------------===//
//
// Given a module whose compiled functions disagree with a reference .npz,
// finds the first pattern application (an `apply-pattern` action) without
// which the results match again, by recompiling with actions skipped.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Compiler.h"
#include "aot/Debug.h"
#include "aot/abi/Compare.h"

#include <string>

namespace aot {

/// What bisectActions() found.
struct BisectResult {
  /// False when the code already matches the reference (nothing to find)
  /// or when no single pass's pattern applications explain the mismatch.
  bool found = false;
  /// The culprit and the pass execution it ran in.
  ActionInfo action;
  ActionInfo pass;
  /// How the unmodified compile disagrees with the reference.
  std::string baseline;
  /// What the search concluded, one line (also when nothing was found).
  std::string summary;
  /// How many compiles the search took, the first included.
  int compiles = 0;
};

/// Compiles `source` and checks every function against `referencePath`
/// (keys FUNC/argN and FUNC/resultN). When a result differs, searches the
/// pass executions in order for one whose pattern applications, skipped
/// together, make every result match, then bisects those applications down
/// to the first one that does it alone. Errors: the source does not compile,
/// or the reference cannot be read or does not fit the signatures.
Expected<BisectResult> bisectActions(const Compiler &compiler,
                                     const Source &source,
                                     const Pipeline &pipeline,
                                     const Target &target,
                                     const std::string &referencePath,
                                     const abi::Tolerance &tolerance = {});

} // namespace aot
