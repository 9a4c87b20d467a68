//===- Backend.cpp - the back-end registry and the code-generation context ===//
#include "Backend/Backend.h"

#include "Artifact/ArtifactBuilder.h"
#include "Backend/Cpu/CpuBackend.h"
#include "Backend/Cuda/CudaBackend.h"
#include "Debug/DebugSession.h"
#include "Support/DiagnosticCapture.h"

namespace aot {

Backend::~Backend() = default;

const StageInfo *Backend::find(Stage stage) const {
  for (const StageInfo &info : stages())
    if (info.stage == stage)
      return &info;
  return nullptr;
}

int Backend::indexOf(Stage stage) const {
  std::span<const StageInfo> table = stages();
  for (size_t i = 0; i < table.size(); ++i)
    if (table[i].stage == stage)
      return int(i);
  return -1;
}

Status Backend::afterStage(Stage, mlir::ModuleOp, CodegenContext &) const {
  return Status::ok();
}

bool Backend::isMlirStage(Stage stage) const {
  const StageInfo *info = find(stage);
  return info && info->form == StageForm::Mlir;
}

std::span<const Backend *const> allBackends() {
  // Built in, in the order of Target::Kind; made on first use, so nothing
  // runs at load time.
  static const Backend *const backends[] = {&cpuBackend(), &cudaBackend()};
  return backends;
}

const Backend &backendFor(Target::Kind kind) {
  for (const Backend *backend : allBackends())
    if (backend->kind() == kind)
      return *backend;
  return cpuBackend(); // unreachable: every kind has a back end
}

const Backend *backendNamed(std::string_view name) {
  for (const Backend *backend : allBackends())
    if (backend->name() == name)
      return backend;
  return nullptr;
}

CodegenContext::CodegenContext(const Target &target, const Pipeline &pipeline,
                               ArtifactBuilder &out,
                               DiagnosticCapture &diagnostics,
                               DebugSession *debug,
                               llvm::ThreadPoolInterface *pool)
    : target_(target), pipeline_(pipeline), out_(out),
      diagnostics_(diagnostics), debug_(debug), pool_(pool) {}

void CodegenContext::begin(Stage stage) {
  if (debug_ && runs(stage))
    debug_->beginStage(stage);
}

bool CodegenContext::runs(Stage stage) const {
  const Backend &backend = backendFor(target_);
  int index = backend.indexOf(stage);
  return index >= 0 && backend.indexOf(pipeline_.firstStage()) <= index &&
         index <= backend.indexOf(pipeline_.lastStage());
}

bool CodegenContext::wants(Stage stage) const {
  return runs(stage) && pipeline_.keepsText(stage);
}

void CodegenContext::keep(Stage stage, std::string contents) {
  if (pipeline_.keepsText(stage))
    out_.snapshot(stage, std::move(contents));
  else
    out_.reached(stage);
}

void CodegenContext::reached(Stage stage) { out_.reached(stage); }

Manifest &CodegenContext::manifest() { return out_.manifest(); }

std::vector<Diagnostic> &CodegenContext::warnings() { return out_.warnings(); }

Error CodegenContext::withDiagnostics(const Error &error) {
  return diagnostics_.hasErrors() ? diagnostics_.takeError(error.str()) : error;
}

} // namespace aot
