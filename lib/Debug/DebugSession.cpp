//===- DebugSession.cpp - the debugging switches of one compile -----------===//
#include "Debug/DebugSession.h"

#include "Artifact/Writers.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace aot {

Status validateDebugOptions(const DebugOptions &options) {
  for (const std::string &spec : options.logActionsFilter)
    if (auto f = parseLocationFilter(spec); !f)
      return f.error();
  for (const std::string &spec : options.skipActions)
    if (auto c = parseSkipCounter(spec); !c)
      return c.error();
  if (!options.logActionsFilter.empty() && options.logActionsTo.empty())
    return Error::message("--log-actions-filter needs --log-actions-to=FILE");
  if (options.printIrAfterChange && options.printIrAfterAllDir.empty())
    return Error::message(
        "--print-ir-after-change needs --print-ir-after-all=DIR");
  return Status::ok();
}

DebugSession::DebugSession(mlir::MLIRContext &context,
                           const DebugOptions &options)
    : options_(options) {
  if (options.tracesActions()) {
    std::vector<LocationFilter> filters;
    for (const std::string &spec : options.logActionsFilter)
      filters.push_back(*parseLocationFilter(spec));
    std::vector<SkipCounter> counters;
    for (const std::string &spec : options.skipActions)
      counters.push_back(*parseSkipCounter(spec));
    tracer_ = std::make_unique<ActionTracer>(
        !options.logActionsTo.empty(), !options.profileActionsTo.empty(),
        std::move(filters), std::move(counters));
    tracer_->setControl(options.actionControl);
    tracer_->install(context);
  }
  if (!options.timingTo.empty()) {
    timing_ = std::make_unique<mlir::DefaultTimingManager>();
    timing_->setEnabled(true);
    rootScope_.emplace(timing_->getRootScope());
  }
}

DebugSession::~DebugSession() {
  // Scopes end before their manager, which must not print its report to
  // stderr when it goes (finish() wrote it, or the compile never got there).
  stageScope_.reset();
  rootScope_.reset();
  if (timing_) {
    timing_->clear();
    timing_->setEnabled(false);
  }
}

Status DebugSession::instrument(mlir::PassManager &pm, Stage stage,
                                const Target &target) {
  if (!options_.printIrAfterAllDir.empty()) {
    llvm::SmallString<256> dir(options_.printIrAfterAllDir);
    std::string stem = stageFileName(stage, /*bytecode=*/false, target);
    llvm::sys::path::append(dir, llvm::StringRef(stem).split('.').first);
    // MLIR's printer creates only the directories below this one, and
    // reports failures on stderr: make sure it cannot fail.
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return Error::at(dir.str().str(), 0, 0,
                       "cannot create directory: " + ec.message());
    pm.enableIRPrintingToFileTree(
        [](mlir::Pass *, mlir::Operation *) { return false; },
        [](mlir::Pass *, mlir::Operation *) { return true; },
        /*printModuleScope=*/true,
        /*printAfterOnlyOnChange=*/options_.printIrAfterChange,
        /*printAfterOnlyOnFailure=*/false, dir.str());
  }
  if (!options_.reproducerTo.empty())
    pm.enableCrashReproducerGeneration(options_.reproducerTo);
  beginStage(stage);
  if (timing_)
    pm.enableTiming(*stageScope_);
  return Status::ok();
}

void DebugSession::beginStage(Stage stage) {
  if (!timing_)
    return;
  stageScope_.reset();
  stageScope_.emplace(rootScope_->nest(std::string(stageName(stage))));
}

Status DebugSession::finish() {
  if (finished_)
    return Status::ok();
  finished_ = true;
  if (tracer_ && !options_.logActionsTo.empty())
    if (Status s = writeFile(options_.logActionsTo, tracer_->log()); !s)
      return s;
  if (tracer_ && !options_.profileActionsTo.empty())
    if (Status s = writeFile(options_.profileActionsTo, tracer_->chromeTrace());
        !s)
      return s;
  if (timing_) {
    stageScope_.reset();
    rootScope_.reset();
    std::string text;
    llvm::raw_string_ostream os(text);
    bool json = llvm::StringRef(options_.timingTo).ends_with(".json");
    timing_->setOutput(mlir::createOutputStrategy(
        json ? mlir::DefaultTimingManager::OutputFormat::Json
             : mlir::DefaultTimingManager::OutputFormat::Text,
        os));
    timing_->print();
    os.flush();
    if (Status s = writeFile(options_.timingTo, text); !s)
      return s;
  }
  return Status::ok();
}

} // namespace aot
