//===- Writers.h - file formats an artifact is written in -----------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Manifest.h"

#include <string>
#include <string_view>

namespace aot {

/// Writes `contents` to `path`; the error names the path.
Status writeFile(const std::string &path, std::string_view contents);

/// An `ar` archive holding one member, `<module>.o`, with a symbol table.
Status writeStaticLibrary(const std::string &path, const std::string &module,
                          const std::string &object);

/// A shared library linked by the system compiler driver, with the runtime
/// and libm added when the manifest says the code needs them.
Status writeSharedLibrary(const std::string &path, const std::string &object,
                          const Manifest &manifest);

/// The typed C++ header for the manifest's functions.
std::string generateHeader(const Manifest &manifest);

} // namespace aot
