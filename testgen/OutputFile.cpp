//===- OutputFile.cpp - writing a generated file only when it changes -----===//
#include "OutputFile.h"

#include "Support/FileWriter.h"

namespace aot::testgen {

Status writeIfChanged(const std::string &path, const std::string &content) {
  std::error_code ec = writeFileAtomically(path, content, WriteIf::Changed);
  if (!ec)
    return Status::ok();
  if (path == "-")
    return Error::message("cannot write to standard output: " + ec.message());
  return Error::message("cannot write '" + path + "': " + ec.message());
}

} // namespace aot::testgen
