//===- Options.h - aot-run's command line ---------------------------------===//
#pragma once

#include "aot/Compiler.h"
#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"
#include "aot/Target.h"
#include "aot/abi/Compare.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aot::run {

/// A dynamic dim given on the command line: --dim=ARG:AXIS=SIZE.
struct DimSize {
  int arg = 0;
  int axis = 0;
  std::int64_t size = 0;
};

/// Everything the command line asked for.
struct Options {
  /// The module: a shared library aot-compile wrote, or MLIR (text or
  /// bytecode) compiled in this process first.
  std::string module;
  /// --input-format: compile MODULE as this format (Auto: a shared library
  /// unless its name ends in .mlir, .mlirbc or .onnx).
  SourceFormat inputFormat = SourceFormat::Auto;
  /// --function: empty for the module's only function.
  std::string function;
  /// The inputs, in order: `@x.npy`, `@in.npz`, `2x3xf32=1,2,3,4,5,6`,
  /// `f32=0.5` (positional or --input=).
  std::vector<std::string> inputs;
  bool randomInputs = false;
  std::uint64_t seed = 0;
  std::vector<DimSize> dims;
  /// --output=@out.npz or @out.npy; empty: the results are printed.
  std::string output;
  /// --expected=@ref.npz or @ref.npy.
  std::string expected;
  abi::Tolerance tolerance;
  /// --benchmark[=N]: N timed calls (0: as many as fit in benchmarkSeconds).
  bool benchmark = false;
  std::int64_t benchmarkCalls = 0;
  double benchmarkSeconds = 1.0;
  /// --print-limit: results with more elements print elided (numpy's
  /// threshold).
  std::int64_t printLimit = 1000;
  /// How an MLIR module is compiled (-O, --threads, --target).
  Pipeline pipeline;
  Target target;
  /// --threads given: for a shared library it sets OMP_NUM_THREADS.
  std::optional<unsigned> threads;
  bool help = false;
};

/// Parses argv (without the program name); the error says which argument
/// is wrong.
Expected<Options> parseOptions(const std::vector<std::string> &args);

/// The --help text.
std::string usage();

} // namespace aot::run
