//===- Debug.h - tracing and inspecting one compile -----------------------===//
//
// What a compiler engineer turns on to see inside a compile: a log and a
// profile of MLIR actions (pass runs, pattern applications), debug counters
// that skip some of them, pass timing, the IR after every pass, a crash
// reproducer, and debug info for a source view of the compiled code.
// Everything here belongs to one compile: no global state, so two
// compiles on two threads with different options never mix their output.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Stage.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aot {

/// How much DWARF the object code carries (`aot-compile -g`).
enum class DebugInfo {
  None,       ///< no debug info
  LineTables, ///< line tables and function names only
  Full,       ///< everything MLIR's translation describes
};

/// One MLIR action as DebugOptions::actionControl sees it.
struct ActionInfo {
  /// 1-based position among all actions of the compile.
  std::int64_t index = 0;
  /// "pass-execution", "apply-pattern", ...
  std::string tag;
  /// MLIR's one-line rendering ("`apply-pattern pattern: NAME", ...).
  std::string description;
  /// The op of the IR unit the action touches ("" if none).
  std::string op;
  /// That op's file location, FILE:LINE:COL ("" if it has none).
  std::string location;
  /// The index of the innermost pass-execution action around this one (0:
  /// none), and this action's 0-based position among the actions with the
  /// same tag inside it. Stable between compiles as long as nothing before
  /// the action ran differently.
  std::int64_t passExecution = 0;
  std::int64_t ordinalInPass = 0;
};

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
  /// Called before every action; returning true skips it (the action's
  /// transformation does not happen). Runs on the compiling thread.
  std::function<bool(const ActionInfo &)> actionControl;
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
  /// Verify the IR after every pass, as mlir-opt does, instead of once at
  /// the end of each stage: a pass that makes invalid IR is then named.
  /// Verifying after every pass doubles the time of the MLIR stages; it is
  /// on whenever IR is printed after every pass or a reproducer is asked for.
  bool verifyEachPass = false;
  /// DWARF line tables that point at the ops' file locations, so a debugger
  /// breaks at `model.mlir:LINE` and a profiler shows the source. MLIR text
  /// that the compile writes then keeps its locations (`loc(...)`), so a
  /// later compile of it (--compile-from) still has them.
  DebugInfo debugInfo = DebugInfo::None;
  /// Rewrites every op's location to its line in this MLIR stage's output,
  /// written to locationSnapshotTo: a source view for input whose locations
  /// are only names or unknown (importers), which give no line info.
  std::optional<Stage> locationSnapshot;
  /// The file the location snapshot is written to, and that line tables
  /// name: an absolute path lets a debugger find it from any directory.
  std::string locationSnapshotTo;
  /// GPU targets: writes each kernel into this directory as NAME.mlir (the
  /// outlined gpu.func), NAME.ll and NAME.opt.ll (its LLVM IR before and
  /// after optimization), NAME.ptx, NAME.cubin (when ptxas is found) and
  /// NAME.json (where it came from, its launches' grid and block sizes and
  /// shared memory, and what ptxas reports of its registers).
  std::string dumpKernelsDir;
  /// GPU targets: kernel name -> a .ptx or .cubin file the artifact uses
  /// for that kernel instead of the compiled one. The file must define the
  /// kernel with the same parameters; the compile notes each substitution.
  std::vector<std::pair<std::string, std::string>> substituteKernels;
  /// GPU targets: the compiled code writes, after each kernel launch, the
  /// buffers the kernel wrote to DIR/NNNN-KERNEL.npz (NNNN: the launch's
  /// number in the process) and a line to DIR/launches.jsonl with the
  /// kernel's source location. AOT_TRACE_KERNELS_TO overrides DIR when the
  /// code runs.
  std::string traceKernelsTo;
  /// The version of every MLIR bytecode the compile makes (stage dumps,
  /// .mlirbc output), for readers of older MLIR; unset: the newest (6).
  std::optional<int> bytecodeVersion;

  /// True when actions are logged, profiled, skipped or controlled.
  bool tracesActions() const {
    return !logActionsTo.empty() || !profileActionsTo.empty() ||
           !skipActions.empty() || actionControl;
  }
  /// True when a switch watches the passes one at a time (actions, IR after
  /// every pass, reproducers): the compile then runs on one thread.
  bool needsOneThread() const {
    return tracesActions() || !printIrAfterAllDir.empty() ||
           !reproducerTo.empty();
  }
  /// True when the IR is verified after every pass rather than per stage.
  bool verifiesEachPass() const {
    return verifyEachPass || !printIrAfterAllDir.empty() ||
           !reproducerTo.empty();
  }
  /// True when any switch is on.
  bool any() const {
    return needsOneThread() || !timingTo.empty() || !dumpKernelsDir.empty() ||
           !substituteKernels.empty() || !traceKernelsTo.empty() ||
           debugInfo != DebugInfo::None || locationSnapshot.has_value();
  }
};

} // namespace aot
