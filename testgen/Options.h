//===- Options.h - aot-testgen's command line -----------------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/abi/Compare.h"

#include <string>
#include <vector>

namespace aot::testgen {

/// Everything the command line asked for.
struct Options {
  std::string manifest;  ///< --manifest: aot-compile's .json
  std::string reference; ///< --reference: the .npz whose keys are used
  std::string header;    ///< --header: written as #include "HEADER"
  std::string output;    ///< -o: the .cpp to write, "-" for stdout
  /// --functions: the functions to test, as given; empty for all.
  std::vector<std::string> functions;
  abi::Tolerance tolerance;
  bool help = false;
};

/// Parses argv (without the program name); the error says which argument
/// is wrong.
Expected<Options> parseOptions(const std::vector<std::string> &args);

/// The --help text.
std::string usage();

} // namespace aot::testgen
