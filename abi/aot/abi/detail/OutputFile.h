//===- OutputFile.h - output files replaced whole or not at all -----------===//
//
// Every file the tools and the ABI layer write goes through here, so that
// all outputs share one rule: the new bytes go to a temporary file beside
// the target, which replaces the target by a rename only once it is
// complete. A failure part way (a full disk, a file size limit) leaves the
// old file as it was and no temporary file behind. A target this process
// may not write (a read-only file) is refused as opening it would be,
// though the rename could replace it. Needs only the C++ standard library
// and POSIX.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

AOT_ABI_BEGIN_NAMESPACE
namespace detail {

inline std::error_code lastError() { return {errno, std::generic_category()}; }

/// Writes all of `contents` to `fd`: write() may take fewer bytes than
/// asked, and a signal may interrupt it before it takes any.
inline std::error_code writeAll(int fd, std::string_view contents) {
  const char *next = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, next, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return lastError();
    }
    next += n;
    left -= static_cast<std::size_t>(n);
  }
  return {};
}

/// Files that cannot be replaced by a rename: standard output, devices,
/// FIFOs, sockets. The names of open descriptors (/dev/stdout, /dev/fd/N,
/// /proc/self/fd/N) are written in place whatever they lead to: a
/// terminal, a pipe, or the file the shell redirected to, which must be
/// written, not swapped under the shell.
inline bool writesDirectly(const std::string &path) {
  if (path == "-" || path == "/dev/stdout" || path == "/dev/stderr" ||
      path.rfind("/dev/fd/", 0) == 0 || path.rfind("/proc/self/fd/", 0) == 0)
    return true;
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
         !S_ISDIR(st.st_mode);
}

/// The file a symbolic link leads to, so that the rename replaces that file
/// and not the link; other paths as given.
inline std::string resolveLink(const std::string &path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
    return path;
  char *target = ::realpath(path.c_str(), nullptr);
  if (!target)
    return path;
  std::string resolved(target);
  std::free(target);
  return resolved;
}

inline std::error_code writeDirectly(const std::string &path,
                                     std::string_view contents) {
  if (path == "-") {
    // Whatever the program printed through stdio goes first.
    std::fflush(stdout);
    return writeAll(STDOUT_FILENO, contents);
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return lastError();
  std::error_code ec = writeAll(fd, contents);
  if (::close(fd) != 0 && !ec)
    ec = lastError();
  return ec;
}

/// `target` followed by ".tmp" and six random letters or digits: beside
/// the target, so that the rename stays within one file system, and
/// recognisably the target's in any message about it.
inline std::string temporaryName(const std::string &target) {
  static std::atomic<unsigned> counter{0};
  static constexpr char kAlphabet[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::mt19937_64 random(
      std::random_device{}() ^
      static_cast<std::uint64_t>(
          std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (static_cast<std::uint64_t>(::getpid()) << 32) ^ counter++);
  std::string name = target + ".tmp";
  for (int i = 0; i < 6; ++i)
    name += kAlphabet[random() % (sizeof kAlphabet - 1)];
  return name;
}

/// Creates a new temporary file beside `target`; -1 with errno set when
/// that is impossible (no such directory, no permission, ...).
inline int createTemporary(const std::string &target, std::string &name) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = temporaryName(target);
    int fd =
        ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST)
      return fd;
  }
  return -1;
}

/// Whether `path` is a regular file holding exactly `contents`.
inline bool holdsExactly(const std::string &path, std::string_view contents) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return false;
  struct stat st;
  bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              static_cast<std::uint64_t>(st.st_size) == contents.size();
  char buffer[65536];
  std::size_t offset = 0;
  while (same && offset < contents.size()) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0 || offset + static_cast<std::size_t>(n) > contents.size() ||
        contents.compare(
            offset, static_cast<std::size_t>(n),
            std::string_view(buffer, static_cast<std::size_t>(n))) != 0) {
      same = false;
      break;
    }
    offset += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return same;
}

/// What opening `path` for writing would refuse, said before anything is
/// written: a directory cannot be replaced by a file, and a file this
/// process may not write (read-only) must not be swapped for a new one.
inline std::error_code refuseTarget(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return {};
  if (S_ISDIR(st.st_mode))
    return {EISDIR, std::generic_category()};
  if (::access(path.c_str(), W_OK) != 0 && (errno == EACCES || errno == EROFS))
    return lastError();
  return {};
}

/// Writes, flushes and closes the temporary file `fd`; the new file keeps
/// the permission bits of the one it replaces.
inline std::error_code fillTemporary(int fd, const std::string &target,
                                     std::string_view contents) {
  std::error_code ec;
  struct stat st;
  if (::stat(target.c_str(), &st) == 0 && ::fchmod(fd, st.st_mode & 07777))
    ec = lastError();
  if (!ec)
    ec = writeAll(fd, contents);
  // The data must be on disk before the rename makes it the target: after
  // a crash, the old file or the complete new one, never an empty file.
  if (!ec && ::fsync(fd) != 0)
    ec = lastError();
  if (::close(fd) != 0 && !ec)
    ec = lastError();
  return ec;
}

inline std::error_code writeThroughTemporary(const std::string &target,
                                             std::string_view contents,
                                             bool onlyIfChanged) {
  if (std::error_code ec = refuseTarget(target))
    return ec;
  if (onlyIfChanged && holdsExactly(target, contents))
    return {};
  std::string temporary;
  int fd = createTemporary(target, temporary);
  if (fd < 0)
    return lastError();
  std::error_code ec = fillTemporary(fd, target, contents);
  if (!ec && ::rename(temporary.c_str(), target.c_str()) != 0)
    ec = lastError();
  if (ec)
    ::unlink(temporary.c_str());
  return ec;
}

/// Writes `contents` to `path` atomically: through a temporary file in the
/// same directory, renamed onto `path` once written and flushed. `-` is
/// standard output; a path that is not a regular file (a device such as
/// /dev/null or /dev/stdout, a FIFO) is written directly. A symbolic link is
/// followed: the file it points to is replaced, the link stays. An existing
/// target keeps its permission bits; one this process may not write is
/// refused (EACCES). With `onlyIfChanged`, a target already holding exactly
/// `contents` is left untouched. On failure the temporary file is removed,
/// the old target is intact, and the error is the system's reason.
inline std::error_code writeFileAtomically(const std::string &path,
                                           std::string_view contents,
                                           bool onlyIfChanged = false) {
  if (writesDirectly(path))
    return writeDirectly(path, contents);
  return writeThroughTemporary(resolveLink(path), contents, onlyIfChanged);
}

} // namespace detail
AOT_ABI_END_NAMESPACE
