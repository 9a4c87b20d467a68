//===- Stages.h - running the MLIR stages of a pipeline -------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace aot {

/// Adds the passes of an MLIR stage of `target`'s back end (its replacement
/// or default list, then anything appended) to `pm`, which is anchored on
/// builtin.module.
Status buildStage(mlir::OpPassManager &pm, Stage stage,
                  const Pipeline &pipeline, const Target &target);

class DebugSession;

/// Runs one MLIR stage on `module`; diagnostics go to the context's handlers.
/// `debug` (optional) instruments the stage's pass manager.
Status runStage(mlir::ModuleOp module, Stage stage, const Pipeline &pipeline,
                const Target &target, DebugSession *debug = nullptr);

} // namespace aot
