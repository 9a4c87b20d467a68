//===- Cache.cpp - aot-compile's artifact cache ---------------------------===//
#include "Cache.h"

#include "Support/FileWriter.h"
#include "aot/Compiler.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace aot::cli {

namespace {

constexpr std::string_view kMagic = "AOTCACHE1\n";

/// Hashes length-prefixed fields, so that no two field lists collide by
/// concatenation.
struct KeyHash {
  XXH3_state_t *state = XXH3_createState();
  KeyHash() { XXH3_128bits_reset(state); }
  ~KeyHash() { XXH3_freeState(state); }
  void add(std::string_view field) {
    std::uint64_t size = field.size();
    XXH3_128bits_update(state, &size, sizeof size);
    XXH3_128bits_update(state, field.data(), field.size());
  }
  std::string hex() const {
    XXH128_hash_t h = XXH3_128bits_digest(state);
    char out[33];
    std::snprintf(out, sizeof out, "%016llx%016llx",
                  static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return out;
  }
};

std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad())
    return std::nullopt;
  return std::move(bytes).str();
}

/// What identifies the running compiler beyond its version: a rebuilt
/// aot-compile (same version, other code) must not reuse old entries.
std::string compilerIdentity() {
  std::string id = Compiler::version();
  struct stat st {};
  if (stat("/proc/self/exe", &st) == 0) {
    id += '|';
    id += std::to_string(st.st_size);
    id += '|';
    id += std::to_string(st.st_mtim.tv_sec);
    id += '.';
    id += std::to_string(st.st_mtim.tv_nsec);
  }
  return id;
}

/// Whether the compile reads or writes anything besides its input and its
/// -o files: such a compile is run every time.
bool cacheable(const Options &o) {
  const DebugOptions &d = o.pipeline.debug();
  if (o.input == "-" || !o.dumpStagesDir.empty() || o.bisectActions ||
      !o.pipeline.externalWeightsFile().empty() || !d.logActionsTo.empty() ||
      !d.profileActionsTo.empty() || !d.timingTo.empty() ||
      !d.printIrAfterAllDir.empty() || !d.reproducerTo.empty() ||
      d.locationSnapshot || !d.dumpKernelsDir.empty() ||
      !d.substituteKernels.empty() || d.actionControl)
    return false;
  for (const Options::Output &out : o.outputs)
    if (out.path == "-")
      return false;
  return !o.outputs.empty();
}

void putNumber(std::string &out, std::uint64_t n) {
  out.append(reinterpret_cast<const char *>(&n), sizeof n);
}

std::optional<std::uint64_t> getNumber(std::string_view &in) {
  std::uint64_t n;
  if (in.size() < sizeof n)
    return std::nullopt;
  std::memcpy(&n, in.data(), sizeof n);
  in.remove_prefix(sizeof n);
  return n;
}

std::optional<std::string> getString(std::string_view &in) {
  auto size = getNumber(in);
  if (!size || *size > in.size())
    return std::nullopt;
  std::string s(in.substr(0, *size));
  in.remove_prefix(*size);
  return s;
}

} // namespace

std::optional<ArtifactCache>
ArtifactCache::forCompile(const Options &o,
                          const std::vector<std::string> &args) {
  std::string dir = o.cacheDir;
  if (dir.empty())
    if (const char *env = std::getenv("AOT_CACHE_DIR"))
      dir = env;
  if (dir.empty() || o.noCache || !cacheable(o))
    return std::nullopt;
  auto input = readFile(o.input);
  if (!input)
    return std::nullopt; // the compile reports the unreadable input
  KeyHash key;
  key.add(kMagic);
  key.add(compilerIdentity());
  // Where the tools come from that a cuda compile runs.
  const char *cudaHome = std::getenv("CUDA_HOME");
  key.add(cudaHome ? cudaHome : "");
  // The command line, with the output paths replaced by their kinds (the
  // same compile written elsewhere is the same entry). The input path
  // stays: debug info and the module's name come from it.
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) {
      ++i;
      continue;
    }
    if (args[i] == "--write-if-changed" || args[i] == "--no-cache" ||
        args[i] == "--cache-report" || args[i].rfind("--cache-dir=", 0) == 0)
      continue;
    key.add(args[i]);
  }
  for (const Options::Output &out : o.outputs)
    key.add("-o " + std::string(emitKindName(out.kind)));
  key.add(*input);
  std::string hash = key.hex();
  ArtifactCache cache;
  cache.path_ = (std::filesystem::path(dir) / hash.substr(0, 2) /
                 (hash.substr(2) + ".entry"))
                    .string();
  return cache;
}

std::optional<CachedCompile> ArtifactCache::lookup(bool *damaged) const {
  auto bytes = readFile(path_);
  if (!bytes)
    return std::nullopt;
  if (damaged)
    *damaged = true; // until the entry is read whole
  if (bytes->size() < kMagic.size() + 8 ||
      std::string_view(*bytes).substr(0, kMagic.size()) != kMagic)
    return std::nullopt;
  // The last 8 bytes: XXH3-64 of everything before them.
  std::string_view body(bytes->data(), bytes->size() - 8);
  std::uint64_t sum;
  std::memcpy(&sum, bytes->data() + body.size(), sizeof sum);
  if (XXH3_64bits(body.data(), body.size()) != sum)
    return std::nullopt;
  body.remove_prefix(kMagic.size());
  CachedCompile entry;
  for (auto *list : {&entry.outputs, &entry.warnings}) {
    auto count = getNumber(body);
    if (!count)
      return std::nullopt;
    for (std::uint64_t i = 0; i < *count; ++i) {
      auto s = getString(body);
      if (!s)
        return std::nullopt;
      list->push_back(std::move(*s));
    }
  }
  if (!body.empty())
    return std::nullopt;
  if (damaged)
    *damaged = false;
  return entry;
}

void ArtifactCache::store(const Options &options,
                          const std::vector<std::string> &warnings) const {
  std::string entry(kMagic);
  putNumber(entry, options.outputs.size());
  for (const Options::Output &out : options.outputs) {
    auto bytes = readFile(out.path);
    if (!bytes)
      return;
    putNumber(entry, bytes->size());
    entry += *bytes;
  }
  putNumber(entry, warnings.size());
  for (const std::string &w : warnings) {
    putNumber(entry, w.size());
    entry += w;
  }
  putNumber(entry, XXH3_64bits(entry.data(), entry.size()));
  std::error_code ec;
  std::filesystem::create_directories(
      std::filesystem::path(path_).parent_path(), ec);
  // Atomic: a concurrent compile of the same key reads the old entry, none
  // or this one, never a part.
  if (!ec)
    (void)writeFileAtomically(path_, entry);
}

} // namespace aot::cli
