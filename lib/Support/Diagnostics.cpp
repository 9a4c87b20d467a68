//===- Diagnostics.cpp - rendering of diagnostics and errors --------------===//
#include "aot/Diagnostics.h"

namespace aot {

static const char *severityName(Severity s) {
  switch (s) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  case Severity::Remark:
    return "remark";
  }
  return "error";
}

std::string Diagnostic::str() const {
  std::string out;
  if (!file.empty()) {
    out = file;
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive)
    // on ":" + std::to_string(...).
    if (line) {
      out += ':';
      out += std::to_string(line);
      if (column) {
        out += ':';
        out += std::to_string(column);
      }
    }
    out += ": ";
  }
  return out + severityName(severity) + ": " + message;
}

Error Error::message(std::string text) {
  Diagnostic d;
  d.message = std::move(text);
  return Error({std::move(d)});
}

Error Error::at(std::string file, unsigned line, unsigned column,
                std::string text) {
  Diagnostic d;
  d.file = std::move(file);
  d.line = line;
  d.column = column;
  d.message = std::move(text);
  return Error({std::move(d)});
}

std::string Error::str() const {
  std::string out;
  for (const Diagnostic &d : diagnostics_) {
    if (!out.empty())
      out += "\n";
    out += d.str();
  }
  return out;
}

} // namespace aot
