//===- File.h - whole-file reads and writes with ABI errors ---------------===//
#pragma once

#include "aot/abi/Error.h"

#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>

AOT_ABI_BEGIN_NAMESPACE
namespace detail {

inline Error fileError(const std::string &path, const char *action, int err) {
  return Error(path + ": cannot " + action + ": " +
               std::generic_category().message(err));
}

/// The whole content of the file at `path`; Error if it cannot be read (a
/// missing file, a directory, an I/O error).
inline std::string readFileBytes(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    throw fileError(path, "open for reading", errno);
  std::string bytes;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    bytes.append(buf, n);
  int err = std::ferror(f) ? (errno ? errno : EIO) : 0;
  std::fclose(f);
  if (err)
    throw fileError(path, "read", err);
  return bytes;
}

/// Replaces the file at `path` by `bytes`; Error if that fails.
inline void writeFileBytes(const std::string &path, std::string_view bytes) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    throw fileError(path, "open for writing", errno);
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  int err = ok ? 0 : (errno ? errno : EIO);
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    err = errno ? errno : EIO;
  }
  if (!ok)
    throw fileError(path, "write", err);
}

} // namespace detail
AOT_ABI_END_NAMESPACE
