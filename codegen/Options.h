//===- Options.h - aot-compile's command line ------------------------------===//
#pragma once

#include "aot/Artifact.h"
#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"
#include "aot/Target.h"

#include <optional>
#include <string>
#include <vector>

namespace aot::cli {

/// Everything the command line asked for.
struct Options {
  std::string input;
  std::string output;
  std::optional<EmitKind> emit;
  std::string dumpStagesDir;
  Pipeline pipeline;
  Target target;
  bool help = false, version = false, listStages = false;
};

/// Parses argv; the error says which argument is wrong.
Expected<Options> parseOptions(const std::vector<std::string> &args);

/// The --help text.
std::string usage();

} // namespace aot::cli
