//===- DebugSession.h - the debugging switches of one compile -------------===//
//
// Turns DebugOptions into instrumentation of one compile's context and pass
// managers, and writes the logs, traces and timings when the compile ends.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Debug/ActionTracer.h"

#include "aot/Debug.h"
#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"

#include <memory>
#include <optional>

namespace aot {

/// Checks the option values (filters, counters) without compiling.
Status validateDebugOptions(const DebugOptions &options);

class DebugSession {
public:
  /// Installs the action handler on `context` when actions are logged,
  /// profiled or skipped. `options` must be valid (validateDebugOptions).
  DebugSession(mlir::MLIRContext &context, const DebugOptions &options);
  ~DebugSession();

  /// Adds IR printing, the crash reproducer and timing to the pass manager
  /// of an MLIR stage. The timing scope lives until the next call or finish().
  /// Fails when the IR directory cannot be created.
  Status instrument(mlir::PassManager &pm, Stage stage, const Target &target);
  /// Starts the timing scope of a stage without a pass manager (code
  /// generation), ending the previous stage's, so the report charges each
  /// stage its own time.
  void beginStage(Stage stage);

  /// Ends timing and writes every requested file; the first write error.
  Status finish();

  ActionTracer *tracer() { return tracer_.get(); }

private:
  const DebugOptions &options_;
  std::unique_ptr<ActionTracer> tracer_;
  std::unique_ptr<mlir::DefaultTimingManager> timing_;
  std::optional<mlir::TimingScope> rootScope_;
  std::optional<mlir::TimingScope> stageScope_;
  bool finished_ = false;
};

} // namespace aot
