//===- Backend.cpp - what every back end and code generation share --------===//
#include "Backend/Backend.h"

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

CodegenContext::~CodegenContext() = default;

bool CodegenContext::runs(Stage stage) const {
  const Backend &backend = backendFor(target());
  int index = backend.indexOf(stage);
  return index >= 0 && backend.indexOf(pipeline().firstStage()) <= index &&
         index <= backend.indexOf(pipeline().lastStage());
}

bool CodegenContext::wants(Stage stage) const {
  return runs(stage) && pipeline().keepsText(stage);
}

} // namespace aot
