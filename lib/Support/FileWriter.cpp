//===- FileWriter.cpp - output files replaced whole or not at all --------===//
#include "Support/FileWriter.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace aot {

namespace {

std::error_code lastError() { return {errno, std::generic_category()}; }

/// Writes all of `contents` to `fd`: write() may take fewer bytes than
/// asked, and a signal may interrupt it before it takes any.
std::error_code writeAll(int fd, std::string_view contents) {
  const char *next = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(fd, next, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return lastError();
    }
    next += n;
    left -= static_cast<size_t>(n);
  }
  return {};
}

/// Files that cannot be replaced by a rename: standard output, devices,
/// FIFOs, sockets. The names of open descriptors (/dev/stdout, /dev/fd/N,
/// /proc/self/fd/N) are written in place whatever they lead to: a
/// terminal, a pipe, or the file the shell redirected to, which must be
/// written, not swapped under the shell.
bool writesDirectly(const std::string &path) {
  if (path == "-" || path == "/dev/stdout" || path == "/dev/stderr" ||
      path.rfind("/dev/fd/", 0) == 0 || path.rfind("/proc/self/fd/", 0) == 0)
    return true;
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
         !S_ISDIR(st.st_mode);
}

/// The file a symbolic link leads to, so that the rename replaces that file
/// and not the link; other paths as given.
std::string resolveLink(const std::string &path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
    return path;
  std::error_code ec;
  std::filesystem::path target = std::filesystem::canonical(path, ec);
  return ec ? path : target.string();
}

std::error_code writeDirectly(const std::string &path,
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
std::string temporaryName(const std::string &target) {
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
int createTemporary(const std::string &target, std::string &name) {
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
bool holdsExactly(const std::string &path, std::string_view contents) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  struct stat st;
  bool same = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
              static_cast<std::uint64_t>(st.st_size) == contents.size();
  char buffer[65536];
  size_t offset = 0;
  while (same && offset < contents.size()) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0 || offset + static_cast<size_t>(n) > contents.size() ||
        contents.compare(offset, static_cast<size_t>(n),
                         std::string_view(buffer, static_cast<size_t>(n))) !=
            0) {
      same = false;
      break;
    }
    offset += static_cast<size_t>(n);
  }
  ::close(fd);
  return same;
}

/// A directory cannot be replaced by a file: say so before writing
/// anything, as opening it for writing would.
std::error_code refuseDirectory(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    return {EISDIR, std::generic_category()};
  return {};
}

/// Writes, flushes and closes the temporary file `fd`; the new file keeps
/// the permission bits of the one it replaces.
std::error_code fillTemporary(int fd, const std::string &target,
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

std::error_code writeThroughTemporary(const std::string &target,
                                      std::string_view contents, WriteIf when) {
  if (std::error_code ec = refuseDirectory(target))
    return ec;
  if (when == WriteIf::Changed && holdsExactly(target, contents))
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

/// The bytes of a whole file.
std::error_code readFile(const std::string &path, std::string &out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return lastError();
  char buffer[65536];
  std::error_code ec;
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      ec = lastError();
    if (n <= 0)
      break;
    out.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return ec;
}

} // namespace

std::error_code writeFileAtomically(const std::string &path,
                                    std::string_view contents, WriteIf when) {
  if (writesDirectly(path))
    return writeDirectly(path, contents);
  return writeThroughTemporary(resolveLink(path), contents, when);
}

TemporaryOutput::TemporaryOutput(std::string target)
    : target_(std::move(target)) {
  if (writesDirectly(target_)) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    temporary_ = temporaryName(
        ((ec ? std::filesystem::path("/tmp") : dir) / "aot-output").string());
  } else {
    temporary_ = temporaryName(resolveLink(target_));
  }
}

TemporaryOutput::~TemporaryOutput() {
  if (!temporary_.empty())
    ::unlink(temporary_.c_str());
}

std::error_code TemporaryOutput::commit(WriteIf when) {
  std::error_code ec;
  if (writesDirectly(target_)) {
    std::string bytes;
    ec = readFile(temporary_, bytes);
    if (!ec)
      ec = writeDirectly(target_, bytes);
  } else {
    std::string target = resolveLink(target_);
    std::string bytes;
    if (when == WriteIf::Changed && !readFile(temporary_, bytes) &&
        holdsExactly(target, bytes))
      return {};
    if (!(ec = refuseDirectory(target)) &&
        ::rename(temporary_.c_str(), target.c_str()) != 0)
      ec = lastError();
    else if (!ec)
      temporary_.clear();
  }
  return ec;
}

bool isSameFile(const std::string &a, const std::string &b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) {
    bool same = fs::equivalent(a, b, ec);
    if (!ec)
      return same;
  }
  auto normalised = [](const std::string &path) {
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    fs::path resolved = fs::weakly_canonical(absolute, ec);
    return ec ? absolute.lexically_normal() : resolved;
  };
  return normalised(a) == normalised(b);
}

} // namespace aot
