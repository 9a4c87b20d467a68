//===- Pipeline.cpp - the stage API, answered from the target's back end --===//
#include "aot/Pipeline.h"
#include "aot/CppNames.h"

#include "Backend/Backend.h"
#include "Debug/DebugSession.h"
#include "Debug/SourceView.h"

#include <algorithm>

namespace aot {

/// More threads than this is a mistake in the count, not a machine.
static constexpr unsigned kMaxThreads = 1024;

std::span<const StageInfo> stagesOf(const Target &target) {
  return backendFor(target).stages();
}

const StageInfo *findStage(Stage stage, const Target &target) {
  return backendFor(target).find(stage);
}

std::optional<Stage> parseStage(std::string_view name, const Target &target) {
  for (const StageInfo &i : stagesOf(target))
    if (i.stage.name() == name)
      return i.stage;
  return std::nullopt;
}

std::optional<Stage> parseAnyStage(std::string_view name) {
  for (const Backend *backend : allBackends())
    for (const StageInfo &i : backend->stages())
      if (i.stage.name() == name)
        return i.stage;
  return std::nullopt;
}

std::string stageFileName(Stage stage, bool bytecode, const Target &target) {
  const Backend &backend = backendFor(target);
  const StageInfo *info = backend.find(stage);
  if (!info)
    return std::string(stage.name());
  int index = backend.indexOf(stage);
  std::string name = index < 10 ? "0" : "";
  name += std::to_string(index) + "-" + std::string(stage.name());
  if (bytecode && info->form == StageForm::Mlir)
    return name + ".mlirbc";
  return name + std::string(info->extension);
}

std::string_view stageDescription(Stage stage, const Target &target) {
  const StageInfo *info = findStage(stage, target);
  return info ? info->description : std::string_view();
}

bool isMlirStage(Stage stage, const Target &target) {
  return backendFor(target).isMlirStage(stage);
}

std::string replaceableStageNames(const Target &target) {
  std::vector<std::string_view> names;
  for (const StageInfo &i : stagesOf(target))
    if (i.form == StageForm::Mlir && i.stage != Stage::Input)
      names.push_back(i.stage.name());
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += std::string(i == 0                  ? ""
                       : i + 1 == names.size() ? " and "
                                               : ", ") +
           std::string(names[i]);
  return out;
}

Pipeline &Pipeline::compileFrom(Stage stage) {
  first_ = stage;
  return *this;
}
Pipeline &Pipeline::compileTo(Stage stage) {
  last_ = stage;
  return *this;
}
Pipeline &Pipeline::setStagePasses(Stage stage, std::string passes) {
  replaced_[stage] = std::move(passes);
  return *this;
}
Pipeline &Pipeline::appendPasses(Stage stage, std::string passes) {
  std::string &list = appended_[stage];
  list += (list.empty() ? "" : ",") + passes;
  return *this;
}
Pipeline &Pipeline::optLevel(int level) {
  optLevel_ = level;
  return *this;
}

Pipeline &Pipeline::externalWeights(std::string file, std::uint64_t minBytes) {
  weightsFile_ = std::move(file);
  weightsMinBytes_ = minBytes;
  return *this;
}

Pipeline &Pipeline::objectFile(std::string path, WriteIf when) {
  objectFile_ = std::move(path);
  objectFileWhen_ = when;
  return *this;
}

Pipeline &Pipeline::moduleName(std::string name) {
  moduleName_ = std::move(name);
  return *this;
}

Pipeline &Pipeline::runThreads(unsigned count) {
  runThreads_ = count;
  return *this;
}

Pipeline &Pipeline::threads(unsigned count) {
  threads_ = count;
  return *this;
}

Pipeline &Pipeline::debug(DebugOptions options) {
  debug_ = std::move(options);
  return *this;
}

Pipeline &Pipeline::keepOnly(std::vector<Stage> text,
                             std::vector<Stage> bytecode) {
  keptText_ = std::move(text);
  keptBytecode_ = std::move(bytecode);
  return *this;
}

static bool listed(const std::optional<std::vector<Stage>> &kept, Stage stage) {
  return !kept || std::find(kept->begin(), kept->end(), stage) != kept->end();
}

bool Pipeline::keepsText(Stage stage) const { return listed(keptText_, stage); }

bool Pipeline::keepsBytecode(Stage stage) const {
  return listed(keptBytecode_, stage);
}

std::string Pipeline::stagePasses(Stage stage, const Target &target) const {
  auto it = replaced_.find(stage);
  return it != replaced_.end() ? it->second : defaultStagePasses(stage, target);
}

std::string Pipeline::appendedPasses(Stage stage) const {
  auto it = appended_.find(stage);
  return it != appended_.end() ? it->second : std::string();
}

std::string Pipeline::defaultStagePasses(Stage stage, const Target &target) {
  return backendFor(target).defaultPasses(stage, target);
}

Status Pipeline::validate(const Target &target) const {
  const Backend &backend = backendFor(target);
  auto known = [&](Stage stage, const char *flag) -> Status {
    if (backend.find(stage))
      return Status::ok();
    std::string names;
    for (const StageInfo &i : backend.stages())
      names += (names.empty() ? "" : ", ") + std::string(i.stage.name());
    return Error::message(std::string(flag) + std::string(stage.name()) +
                          ": target " + target.str() +
                          " has no such stage; "
                          "its stages are " +
                          names);
  };
  if (Status s = known(first_, "--compile-from="); !s)
    return s;
  if (Status s = known(last_, "--compile-to="); !s)
    return s;
  if (backend.indexOf(first_) > backend.indexOf(last_))
    return Error::message(
        "--compile-from=" + std::string(stageName(first_)) +
        " comes after --compile-to=" + std::string(stageName(last_)));
  if (optLevel_ < 0 || optLevel_ > 3)
    return Error::message("optimisation level " + std::to_string(optLevel_) +
                          " is not in 0..3");
  if (!weightsFile_.empty() && weightsMinBytes_ == 0)
    return Error::message("the smallest constant kept in external weights "
                          "must be at least 1 byte");
  // Constants leave the code on its way to LLVM IR: a compile that does
  // not translate to LLVM IR would ignore the request.
  int translation = backend.indexOf(Stage::LlvmIr);
  if (!weightsFile_.empty() &&
      (translation < 0 || backend.indexOf(first_) > translation ||
       backend.indexOf(last_) < translation))
    return Error::message(
        "external weights are written on the way to LLVM IR (stage "
        "'llvm-ir'), which a compile from '" +
        std::string(stageName(first_)) + "' to '" +
        std::string(stageName(last_)) + "' does not take");
  if (!objectFile_.empty() && last_ != Stage::Object)
    return Error::message("the object file '" + objectFile_ +
                          "' is written by stage 'object', which a compile "
                          "to '" +
                          std::string(stageName(last_)) + "' does not reach");
  // The kernel switches name a stage only GPU back ends have.
  const char *kernelSwitch =
      !debug_.dumpKernelsDir.empty()      ? "--dump-kernels"
      : !debug_.substituteKernels.empty() ? "--substitute-kernel"
      : !debug_.traceKernelsTo.empty()    ? "--trace-kernels-to"
                                          : nullptr;
  if (kernelSwitch && !backend.find(Stage("ptx")))
    return Error::message(std::string(kernelSwitch) + ": target " +
                          target.str() +
                          " has no GPU kernels (use --target=cuda:CHIP)");
  if (!moduleName_.empty() && cppIdentifier(moduleName_) != moduleName_)
    return Error::message("module name '" + moduleName_ +
                          "' is not a C identifier (letters, digits and '_', "
                          "not starting with a digit)");
  if (runThreads_ > kMaxThreads)
    return Error::message("run thread count " + std::to_string(runThreads_) +
                          " is more than " + std::to_string(kMaxThreads));
  if (threads_ > kMaxThreads)
    return Error::message("thread count " + std::to_string(threads_) +
                          " is more than " + std::to_string(kMaxThreads));
  for (const auto *map : {&replaced_, &appended_})
    for (const auto &[stage, passes] : *map)
      if (!backend.isMlirStage(stage) || stage == Stage::Input)
        return Error::message("stage '" + std::string(stageName(stage)) +
                              "' has no MLIR passes to replace; only " +
                              replaceableStageNames(target) + " do");
  if (Status s = validateSourceViewOptions(debug_, first_, last_, target); !s)
    return s;
  return validateDebugOptions(debug_);
}

} // namespace aot
