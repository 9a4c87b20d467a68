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
//===----------------------------------------------------------------------===//
#pragma once

#include "Options.h"

#include <optional>
#include <string>
#include <vector>

namespace aot::cli {

/// What a cache entry holds: each output's bytes, in the order of
/// Options::outputs, and the compile's warnings as printed.
struct CachedCompile {
  std::vector<std::string> outputs;
  std::vector<std::string> warnings;
};

/// The cache of one aot-compile run.
class ArtifactCache {
public:
  /// The cache for `options` and the command line `args`, or nullopt when
  /// no cache directory is set (--cache-dir, $AOT_CACHE_DIR), --no-cache is
  /// given, or the compile is not cacheable: it reads or writes files
  /// besides its input and outputs (stage dumps, logs, external weights,
  /// substituted kernels, standard input or output).
  static std::optional<ArtifactCache>
  forCompile(const Options &options, const std::vector<std::string> &args);

  /// The entry of this compile, if there is an intact one; `damaged` says
  /// whether an entry was there but truncated or changed.
  std::optional<CachedCompile> lookup(bool *damaged = nullptr) const;
  /// Stores what the compile wrote (read back from the output files); a
  /// failure to store is not an error of the compile, only a lost entry.
  void store(const Options &options,
             const std::vector<std::string> &warnings) const;
  /// The entry's file.
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

} // namespace aot::cli
