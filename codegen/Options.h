//===- Options.h - aot-compile's command line -----------------------------===//
#pragma once

#include "aot/Artifact.h"
#include "aot/Compiler.h"
#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"
#include "aot/Target.h"

#include <optional>
#include <string>
#include <vector>

namespace aot::cli {

/// Everything the command line asked for.
struct Options {
  /// One file to write and the kind it is written as.
  struct Output {
    std::string path;
    EmitKind kind;
  };

  std::string input;
  /// --input-format: how to read the input (Auto: by its name).
  SourceFormat inputFormat = SourceFormat::Auto;
  /// Every -o, in order; several outputs share one compile.
  std::vector<Output> outputs;
  std::string dumpStagesDir;
  /// --stage-format=bytecode: MLIR stages dumped as .mlirbc.
  bool stagesAsBytecode = false;
  Pipeline pipeline;
  Target target;
  /// Leave an output file alone when it already holds exactly what would be
  /// written, so that Ninja (restat) skips the steps that depend on it.
  bool writeIfChanged = false;
  bool help = false, version = false, listStages = false;
  /// --print-manifest: print the manifest embedded in the input (a .o, .a
  /// or .so) instead of compiling it.
  bool printManifest = false;
  /// --bisect-actions: search instead of writing outputs.
  bool bisectActions = false;
  std::string reference;
  double rtol = 1e-5, atol = 1e-6;
  /// --cache-dir=DIR (else $AOT_CACHE_DIR): the artifact cache (Cache.h);
  /// --no-cache: none, whatever the environment says.
  std::string cacheDir;
  bool noCache = false;
  /// --cache-report: a note on stderr of what the cache did.
  bool cacheReport = false;
  /// --diff-traces DIR1 DIR2: compare two kernel traces instead of
  /// compiling.
  std::vector<std::string> diffTraces;
};

/// Parses argv; the error says which argument is wrong.
Expected<Options> parseOptions(const std::vector<std::string> &args);

/// The --help text.
std::string usage();

} // namespace aot::cli
