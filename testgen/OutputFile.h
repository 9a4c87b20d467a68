//===- OutputFile.h - writing a generated file only when it changes -------===//
#pragma once

#include "aot/Diagnostics.h"

#include <string>

namespace aot::testgen {

/// Writes `content` to `path` ("-": standard output) unless the file already
/// holds exactly that, so that its time stamp, and whatever a build derives
/// from it, stays put when nothing changed. The new content replaces the old
/// through the atomic writer (Support/FileWriter.h): a reader never sees half
/// a file, and a failed write leaves the old one. The error names `path`.
Status writeIfChanged(const std::string &path, const std::string &content);

} // namespace aot::testgen
