//===- DiagnosticCapture.h - collect MLIR diagnostics as aot::Diagnostics -===//
#pragma once

#include "aot/Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <vector>

namespace aot {

/// Converts one MLIR location to file/line/column (the first file location
/// found inside names, call sites and fused locations).
void fillLocation(mlir::Location loc, Diagnostic &out);

/// While alive, every diagnostic emitted in `context` is recorded here
/// (with its notes) instead of being printed, so the library never writes to
/// stderr and the caller gets located errors back.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext &context);
  ~DiagnosticCapture();

  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  bool hasErrors() const;
  /// All captured diagnostics as an Error, or `fallback` if none was an error.
  Error takeError(const std::string &fallback);
  /// Non-error diagnostics (warnings, remarks) kept for the artifact.
  std::vector<Diagnostic> warnings() const;

private:
  mlir::MLIRContext &context_;
  mlir::DiagnosticEngine::HandlerID id_;
  std::vector<Diagnostic> diags_;
};

} // namespace aot
