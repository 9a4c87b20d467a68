//===- Writers.h - file formats an artifact is written in -----------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Manifest.h"
#include "aot/WriteIf.h"

#include <string>
#include <string_view>

namespace aot {

/// Writes `contents` to `path` through the atomic writer (FileWriter.h):
/// the old file stays intact when the write fails. The error names the path.
Status writeFile(const std::string &path, std::string_view contents,
                 WriteIf when = WriteIf::Always);

/// An `ar` archive holding one member, `<module>.o`, with a symbol table.
Status writeStaticLibrary(const std::string &path, const std::string &module,
                          const std::string &object,
                          WriteIf when = WriteIf::Always);

/// A shared library linked by the system compiler driver, with the runtime
/// and libm added when the manifest says the code needs them.
Status writeSharedLibrary(const std::string &path, const std::string &object,
                          const Manifest &manifest,
                          WriteIf when = WriteIf::Always);
/// The same from the object in the file `objectPath`.
Status linkSharedLibrary(const std::string &path, const std::string &objectPath,
                         const Manifest &manifest,
                         WriteIf when = WriteIf::Always);

/// The typed C++ header for the manifest's functions.
std::string generateHeader(const Manifest &manifest);

} // namespace aot
