//===- Cache.cpp - aot-compile's artifact cache ---------------------------===//
#include "Cache.h"

#include "Support/FileWriter.h"
#include "aot/abi/detail/InputFile.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <sys/stat.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace aot::cli {

namespace {

constexpr std::string_view kMagic = "AOTCACHE2\n";

/// Hashes length-prefixed fields, so that no two field lists collide by
/// concatenation.
struct KeyHash {
  XXH3_state_t *state = XXH3_createState();
  KeyHash() { XXH3_128bits_reset(state); }
  ~KeyHash() { XXH3_freeState(state); }
  KeyHash(const KeyHash &) = delete;
  KeyHash &operator=(const KeyHash &) = delete;
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

/// The bytes of a regular file; nullopt for anything else (missing, a
/// directory, a device that would be read for ever) or a read error.
std::optional<std::string> readFile(const std::string &path) {
  try {
    return abi::detail::InputFile(path, /*streams=*/false).readAll();
  } catch (const abi::Error &) {
    return std::nullopt;
  }
}

/// What identifies the compiler beyond its version, which is part of its
/// code: a rebuilt compiler must not reuse old entries.
std::string compilerIdentity(const std::string &compiler) {
  struct stat st {};
  if (stat(compiler.c_str(), &st) != 0)
    return {};
  return std::to_string(st.st_size) + '|' + std::to_string(st.st_mtim.tv_sec) +
         '.' + std::to_string(st.st_mtim.tv_nsec);
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// Options after which the command is not a plain compile: it does not
/// compile at all, or it reads or writes files besides its input and its -o
/// files. Each is a flag or the start of --option=VALUE.
constexpr std::string_view kNotCached[] = {"--help",
                                           "-h",
                                           "--version",
                                           "--list-stages",
                                           "--print-manifest",
                                           "--bisect-actions",
                                           "--reference=",
                                           "--diff-traces",
                                           "--dump-stages=",
                                           "--external-weights=",
                                           "--log-actions-to=",
                                           "--profile-actions-to=",
                                           "--timing=",
                                           "--print-ir-after-all=",
                                           "--reproducer=",
                                           "--location-snapshot=",
                                           "--dump-kernels=",
                                           "--substitute-kernel=",
                                           "--skip-actions="};

bool notCached(const std::string &arg) {
  for (std::string_view option : kNotCached)
    if (option.back() == '=' ? startsWith(arg, option) : arg == option)
      return true;
  return false;
}

/// Arguments that change where outputs go or what the cache does, not what
/// the compile makes: left out of the key.
bool cacheOnly(const std::string &arg) {
  return arg == "--write-if-changed" || arg == "--cache-report" ||
         startsWith(arg, "--cache-dir=");
}

/// The extension of an output's file name, which (with --emit, part of the
/// key as given) decides what is written to it.
std::string extensionOf(const std::string &path) {
  std::string name = std::filesystem::path(path).filename().string();
  size_t dot = name.find('.');
  return dot == std::string::npos ? std::string() : name.substr(dot);
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

/// Whether `bytes` are an ELF shared object (e_type ET_DYN), which the
/// linker would have made executable.
bool isSharedObject(std::string_view bytes) {
  return bytes.size() > 18 &&
         bytes.substr(0, 4) == "\x7f"
                               "ELF" &&
         static_cast<unsigned char>(bytes[16]) == 3 && bytes[17] == 0;
}

} // namespace

std::optional<ArtifactCache>
ArtifactCache::forCompile(const std::vector<std::string> &args,
                          const std::string &compiler) {
  std::string dir;
  if (const char *env = std::getenv("AOT_CACHE_DIR"))
    dir = env;
  ArtifactCache cache;
  std::vector<std::string> keyArgs;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-o") {
      if (i + 1 >= args.size())
        return std::nullopt;
      cache.outputs_.push_back(args[++i]);
    } else if (a == "--no-cache" || notCached(a)) {
      return std::nullopt;
    } else if (startsWith(a, "--cache-dir=")) {
      dir = a.substr(std::strlen("--cache-dir="));
    } else if (!cacheOnly(a)) {
      // Not an option: the input (the compiler refuses a second one).
      if (a.size() <= 1 || a[0] != '-')
        cache.input_ = a;
      keyArgs.push_back(a);
    }
  }
  if (dir.empty() || cache.input_.empty() || cache.input_ == "-" ||
      cache.outputs_.empty())
    return std::nullopt;
  for (const std::string &out : cache.outputs_)
    if (out == "-")
      return std::nullopt;
  std::string identity = compilerIdentity(compiler);
  auto input = readFile(cache.input_);
  if (identity.empty() || !input)
    return std::nullopt; // the compile reports the unreadable input
  KeyHash key;
  key.add(kMagic);
  key.add(identity);
  // Where the tools come from that a cuda compile runs.
  const char *cudaHome = std::getenv("CUDA_HOME");
  key.add(cudaHome ? cudaHome : "");
  // The command line, with the output paths replaced by their extensions
  // (the same compile written elsewhere is the same entry). The input path
  // stays: debug info and the module's name come from it.
  for (const std::string &a : keyArgs)
    key.add(a);
  for (const std::string &out : cache.outputs_)
    key.add("-o " + extensionOf(out));
  key.add(*input);
  std::string hash = key.hex();
  cache.path_ = (std::filesystem::path(dir) / hash.substr(0, 2) /
                 (hash.substr(2) + ".entry"))
                    .string();
  return cache;
}

std::optional<CachedCompile> ArtifactCache::lookup(bool *damaged) const {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec))
    return std::nullopt;
  if (damaged)
    *damaged = true; // until the entry is read whole
  auto bytes = readFile(path_);
  if (!bytes)
    return std::nullopt;
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
  if (!body.empty() || entry.outputs.size() != outputs_.size())
    return std::nullopt;
  if (damaged)
    *damaged = false;
  return entry;
}

std::optional<std::string>
ArtifactCache::store(const std::vector<std::string> &warnings) const {
  // An entry never replaces a file the compile read or wrote.
  for (const std::string &file : outputs_)
    if (isSameFile(path_, file))
      return "the entry '" + path_ + "' is the output '" + file + "'";
  if (isSameFile(path_, input_))
    return "the entry '" + path_ + "' is the input '" + input_ + "'";
  std::string entry(kMagic);
  putNumber(entry, outputs_.size());
  for (const std::string &out : outputs_) {
    auto bytes = readFile(out);
    if (!bytes)
      return "cannot read the output '" + out + "' back";
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
  std::filesystem::path dir = std::filesystem::path(path_).parent_path();
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return "cannot create the directory '" + dir.string() +
           "': " + ec.message();
  // Atomic: a concurrent compile of the same key reads the old entry, none
  // or this one, never a part.
  if (std::error_code ec = writeFileAtomically(path_, entry))
    return "cannot write '" + path_ + "': " + ec.message();
  return std::nullopt;
}

std::optional<std::string> ArtifactCache::writeHit(const CachedCompile &hit,
                                                   WriteIf when) const {
  for (const std::string &warning : hit.warnings)
    std::cerr << warning << "\n";
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const std::string &path = outputs_[i];
    if (std::error_code ec = writeFileAtomically(path, hit.outputs[i], when))
      return path + ": error: cannot write: " + ec.message();
    std::error_code ignored;
    if (isSharedObject(hit.outputs[i]))
      std::filesystem::permissions(path,
                                   std::filesystem::perms::owner_exec |
                                       std::filesystem::perms::group_exec |
                                       std::filesystem::perms::others_exec,
                                   std::filesystem::perm_options::add, ignored);
  }
  return std::nullopt;
}

bool ArtifactCache::outputsAreSafe() const {
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (isSameFile(outputs_[i], input_))
      return false;
    for (size_t j = 0; j < i; ++j)
      if (isSameFile(outputs_[i], outputs_[j]))
        return false;
  }
  return true;
}

} // namespace aot::cli
