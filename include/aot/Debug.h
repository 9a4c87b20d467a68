//===- Debug.h - tracing and inspecting one compile -----------------------===//
//
// What a compiler engineer turns on to see inside a compile: a log and a
// profile of MLIR actions (pass runs, pattern applications), debug counters
// that skip some of them, pass timing, the IR after every pass, and a crash
// reproducer. Everything here belongs to one compile: no global state, so two
// compiles on two threads with different options never mix their output.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace aot {

/// Debugging switches of a compile (Pipeline::debug). Empty paths are off.
/// Files are written when the compile ends, failed or not.
struct DebugOptions {
  /// Log every MLIR action in order, nested, with the IR unit it touched
  /// (op name and location), one per line.
  std::string logActionsTo;
  /// Keep only log entries of actions touching IR whose location is
  /// FILE:LINE or FILE:LINE:COL (FILE matches a whole path or its last
  /// components). Repeatable; empty keeps all.
  std::vector<std::string> logActionsFilter;
  /// A Chrome trace (JSON, loadable in chrome://tracing or Perfetto): one
  /// begin/end event pair per action, nested, with the op and its location
  /// in the event's args.
  std::string profileActionsTo;
  /// Debug counters, TAG:SKIP:COUNT each: of the actions with tag TAG
  /// ("apply-pattern", "pass-execution", ...), skip the first SKIP, then run
  /// COUNT (-1: all the rest), then skip the rest.
  std::vector<std::string> skipActions;
  /// Pass timing per stage and pass: JSON if the path ends in ".json",
  /// otherwise a text table.
  std::string timingTo;
  /// Write the IR after every pass into a tree under this directory, one
  /// directory per stage (01-linalg/, ...), one file per pass.
  std::string printIrAfterAllDir;
  /// With printIrAfterAllDir: only after passes that changed the IR.
  bool printIrAfterChange = false;
  /// On a pass failure or a crash inside a pass, write an MLIR reproducer
  /// here that `mlir-opt --run-reproducer` replays; the error names it.
  std::string reproducerTo;

  /// True when any switch is on.
  bool any() const {
    return !logActionsTo.empty() || !profileActionsTo.empty() ||
           !skipActions.empty() || !timingTo.empty() ||
           !printIrAfterAllDir.empty() || !reproducerTo.empty();
  }
};

} // namespace aot
