//===- Stages.cpp ---------------------------------------------------------===//
#include "Pipeline/Stages.h"

#include "Debug/DebugSession.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

#include <mutex>

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

namespace {
/// Remembers the first pass that failed (or left invalid IR behind, when
/// the IR is verified after every pass).
class FailedPass : public mlir::PassInstrumentation {
public:
  explicit FailedPass(std::string &name) : name_(name) {}
  void runAfterPassFailed(mlir::Pass *pass, mlir::Operation *) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (name_.empty())
      name_ = pass->getArgument().str();
  }

private:
  std::string &name_;
  std::mutex mutex_;
};

/// A note at the module, after the errors that say what went wrong.
void note(mlir::ModuleOp module, const std::string &text) {
  module->getContext()->getDiagEngine().emit(
      module.getLoc(), mlir::DiagnosticSeverity::Note)
      << text;
}
} // namespace

Status runStage(mlir::ModuleOp module, Stage stage, const Pipeline &pipeline,
                const Target &target, DebugSession *debug) {
  mlir::PassManager pm(module.getContext());
  // MLIR verifies after every pass by default, which costs as much as the
  // passes themselves; once per stage catches what a stage broke before the
  // next one reads it.
  bool eachPass = pipeline.debug().verifiesEachPass();
  pm.enableVerifier(eachPass);
  if (Status s = buildStage(pm, stage, pipeline, target); !s)
    return s;
  if (debug)
    if (Status s = debug->instrument(pm, stage, target); !s)
      return s;
  std::string failedPass;
  pm.addInstrumentation(std::make_unique<FailedPass>(failedPass));
  const std::string name(stageName(stage));
  if (mlir::failed(pm.run(module))) {
    if (!failedPass.empty())
      note(module, "in pass '" + failedPass + "' of stage '" + name + "'");
    return Error::message("stage '" + name + "' failed");
  }
  if (!eachPass && mlir::failed(mlir::verify(module))) {
    note(module, "internal error: stage '" + name +
                     "' made invalid IR; --verify-each names the pass");
    return Error::message("internal error: stage '" + name +
                          "' made invalid IR");
  }
  return Status::ok();
}

} // namespace aot
