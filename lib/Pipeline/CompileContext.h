//===- CompileContext.h - a back end's view of one compile ----------------===//
#pragma once

#include "Backend/Backend.h"

namespace aot {

class DebugSession;
class DiagnosticCapture;
struct ArtifactBuilder;

/// The code-generation context of one compile: stage outputs go into the
/// artifact it fills, stage starts to its debugging session (when it has
/// one), errors take the diagnostics MLIR reported.
class CompileContext final : public CodegenContext {
public:
  CompileContext(const Target &target, const Pipeline &pipeline,
                 ArtifactBuilder &out, DiagnosticCapture &diagnostics,
                 DebugSession *debug = nullptr,
                 llvm::ThreadPoolInterface *pool = nullptr)
      : target_(target), pipeline_(pipeline), out_(out),
        diagnostics_(diagnostics), debug_(debug), pool_(pool) {}

  const Target &target() const override { return target_; }
  llvm::ThreadPoolInterface *pool() const override { return pool_; }
  const Pipeline &pipeline() const override { return pipeline_; }
  void begin(Stage stage) override;
  void keep(Stage stage, std::string contents) override;
  void reached(Stage stage) override;
  Manifest &manifest() override;
  std::vector<Diagnostic> &warnings() override;
  Error withDiagnostics(const Error &error) override;

private:
  const Target &target_;
  const Pipeline &pipeline_;
  ArtifactBuilder &out_;
  DiagnosticCapture &diagnostics_;
  DebugSession *debug_;
  llvm::ThreadPoolInterface *pool_;
};

} // namespace aot
