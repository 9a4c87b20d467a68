//===- CompileContext.cpp - a back end's view of one compile --------------===//
#include "Pipeline/CompileContext.h"

#include "Artifact/ArtifactBuilder.h"
#include "Debug/DebugSession.h"
#include "Support/DiagnosticCapture.h"

namespace aot {

void CompileContext::begin(Stage stage) {
  if (debug_ && runs(stage))
    debug_->beginStage(stage);
}

void CompileContext::keep(Stage stage, std::string contents) {
  if (pipeline_.keepsText(stage))
    out_.snapshot(stage, std::move(contents));
  else
    out_.reached(stage);
}

void CompileContext::reached(Stage stage) { out_.reached(stage); }

Manifest &CompileContext::manifest() { return out_.manifest(); }

std::vector<Diagnostic> &CompileContext::warnings() { return out_.warnings(); }

Error CompileContext::withDiagnostics(const Error &error) {
  return diagnostics_.hasErrors() ? diagnostics_.takeError(error.str()) : error;
}

} // namespace aot
