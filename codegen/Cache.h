//===- Cache.h - aot-compile's artifact cache -----------------------------===//
//
// A compile whose input bytes, options, output kinds and compiler are the
// same as an earlier one's writes that compile's outputs again, from a
// content-addressed directory (--cache-dir=DIR, or $AOT_CACHE_DIR), without
// compiling. An entry is one file named by the key's hash, written to a
// temporary name and renamed into place, so concurrent compiles never see
// half an entry; it ends in a checksum of everything before it, so a
// truncated or damaged entry is a miss (and is replaced), never used.
//
// Everything here works on the command line as given, with the C++ standard
// library and POSIX only: aot-compile answers a hit without loading MLIR and
// LLVM (their start-up alone takes longer than a hit), and the compiler it
// runs on a miss computes the same key from the same arguments.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/WriteIf.h"

#include <optional>
#include <string>
#include <vector>

namespace aot::cli {

/// What a cache entry holds: each output's bytes, in the order of the -o
/// options, and the compile's warnings as printed.
struct CachedCompile {
  std::vector<std::string> outputs;
  std::vector<std::string> warnings;
};

/// The cache of one aot-compile command line.
class ArtifactCache {
public:
  /// The cache for the command line `args` (without the program name), run
  /// by the compiler executable `compiler` (its size and time stamp are part
  /// of the key, so a rebuilt compiler never reuses old entries); nullopt
  /// when no cache directory is set (--cache-dir, $AOT_CACHE_DIR),
  /// --no-cache is given, or the command is not a cacheable compile: it
  /// reads or writes files besides its input and outputs (stage dumps, logs,
  /// external weights, substituted kernels, standard input or output), or it
  /// does not compile (--help, --print-manifest, ...).
  static std::optional<ArtifactCache>
  forCompile(const std::vector<std::string> &args, const std::string &compiler);

  /// The entry of this compile, if there is an intact one with an output
  /// for each -o; `damaged` says whether an entry was there but truncated
  /// or changed.
  std::optional<CachedCompile> lookup(bool *damaged = nullptr) const;
  /// Stores what the compile wrote (read back from the output files); a
  /// failure to store is not an error of the compile, only a lost entry:
  /// it returns why (for --cache-report), nullopt when stored.
  std::optional<std::string>
  store(const std::vector<std::string> &warnings) const;
  /// Prints the hit's warnings to stderr and writes its outputs; on failure
  /// the error message names the file.
  std::optional<std::string> writeHit(const CachedCompile &hit,
                                      WriteIf when) const;

  /// The entry's file.
  const std::string &path() const { return path_; }
  /// The -o files, in order.
  const std::vector<std::string> &outputs() const { return outputs_; }
  /// Whether the outputs are distinct files and none is the input: a
  /// command line that breaks this gets its error from the compiler.
  bool outputsAreSafe() const;

private:
  std::string path_;
  std::string input_;
  std::vector<std::string> outputs_;
};

} // namespace aot::cli
