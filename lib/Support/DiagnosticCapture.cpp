//===- DiagnosticCapture.cpp ----------------------------------------------===//
#include "Support/DiagnosticCapture.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

namespace aot {

void fillLocation(mlir::Location loc, Diagnostic &out) {
  mlir::FileLineColLoc found;
  loc->walk([&](mlir::Location l) {
    if (auto flc = llvm::dyn_cast<mlir::FileLineColLoc>(l)) {
      found = flc;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  if (found) {
    out.file = found.getFilename().str();
    out.line = found.getLine();
    out.column = found.getColumn();
    return;
  }
  // A name-only location still tells the user which op it is about.
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    out.file = name.getName().str();
}

static Severity convert(mlir::DiagnosticSeverity s) {
  switch (s) {
  case mlir::DiagnosticSeverity::Error: return Severity::Error;
  case mlir::DiagnosticSeverity::Warning: return Severity::Warning;
  case mlir::DiagnosticSeverity::Note: return Severity::Note;
  case mlir::DiagnosticSeverity::Remark: return Severity::Remark;
  }
  return Severity::Error;
}

static Diagnostic toDiagnostic(mlir::Diagnostic &d) {
  Diagnostic out;
  out.severity = convert(d.getSeverity());
  out.message = d.str();
  fillLocation(d.getLocation(), out);
  return out;
}

DiagnosticCapture::DiagnosticCapture(mlir::MLIRContext &context)
    : context_(context) {
  id_ = context.getDiagEngine().registerHandler([this](mlir::Diagnostic &d) {
    diags_.push_back(toDiagnostic(d));
    for (mlir::Diagnostic &note : d.getNotes())
      diags_.push_back(toDiagnostic(note));
    return mlir::success();
  });
}

DiagnosticCapture::~DiagnosticCapture() {
  context_.getDiagEngine().eraseHandler(id_);
}

bool DiagnosticCapture::hasErrors() const {
  for (const Diagnostic &d : diags_)
    if (d.severity == Severity::Error)
      return true;
  return false;
}

Error DiagnosticCapture::takeError(const std::string &fallback) {
  std::vector<Diagnostic> out;
  // Errors first: the first diagnostic of an Error is the error itself.
  for (const Diagnostic &d : diags_)
    if (d.severity == Severity::Error || !out.empty())
      out.push_back(d);
  diags_.clear();
  if (out.empty())
    return Error::message(fallback);
  return Error(std::move(out));
}

std::vector<Diagnostic> DiagnosticCapture::warnings() const {
  std::vector<Diagnostic> out;
  for (const Diagnostic &d : diags_)
    if (d.severity != Severity::Error)
      out.push_back(d);
  return out;
}

} // namespace aot
