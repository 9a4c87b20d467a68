//===- Stages.cpp ---------------------------------------------------------===//
#include "Pipeline/Stages.h"

#include "Debug/DebugSession.h"

#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

namespace aot {

static Status addPassList(mlir::OpPassManager &pm, Stage stage,
                          std::string passes, const char *what) {
  // A list written as a whole mlir-opt pipeline, `builtin.module(...)`,
  // would nest inside the module-anchored manager and run nothing: unwrap it.
  const std::string anchor = "builtin.module(";
  if (passes.rfind(anchor, 0) == 0 && !passes.empty() && passes.back() == ')')
    passes = passes.substr(anchor.size(), passes.size() - anchor.size() - 1);
  if (passes.empty())
    return Status::ok();
  std::string message;
  llvm::raw_string_ostream os(message);
  // The list is parsed into the module-anchored manager without its own
  // builtin.module(...) wrapper: with one, MLIR nests it and runs nothing.
  if (mlir::failed(mlir::parsePassPipeline(passes, pm, os)))
    return Error::message("cannot parse the " + std::string(what) +
                          " of stage '" + std::string(stageName(stage)) +
                          "' (\"" + passes + "\"): " + os.str());
  return Status::ok();
}

Status buildStage(mlir::OpPassManager &pm, Stage stage,
                  const Pipeline &pipeline, const Target &target) {
  if (Status s = addPassList(pm, stage, pipeline.stagePasses(stage, target),
                             "pass list");
      !s)
    return s;
  return addPassList(pm, stage, pipeline.appendedPasses(stage),
                     "appended passes");
}

Status runStage(mlir::ModuleOp module, Stage stage, const Pipeline &pipeline,
                const Target &target, DebugSession *debug) {
  mlir::PassManager pm(module.getContext());
  if (Status s = buildStage(pm, stage, pipeline, target); !s)
    return s;
  if (debug)
    if (Status s = debug->instrument(pm, stage, target); !s)
      return s;
  if (mlir::failed(pm.run(module)))
    return Error::message("stage '" + std::string(stageName(stage)) +
                          "' failed");
  return Status::ok();
}

} // namespace aot
