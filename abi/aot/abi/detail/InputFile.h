//===- InputFile.h - reading files a user names, with bounds --------------===//
//
// Every file the tools and the ABI layer read on a user's say-so comes in
// through here, so that all readers share one rule: opening never blocks (a
// FIFO with no writer reads as empty instead of waiting for one), a
// directory, a device (/dev/zero, /dev/urandom, a disk) or a socket is
// refused by name before anything is read, and a reader states how many
// bytes it will take at most, so that no input makes it read forever or
// fill the memory. Pipes and FIFOs are read as streams, within that bound.
// Needs only the C++ standard library and POSIX.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Error.h"

#include <cerrno>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

AOT_ABI_BEGIN_NAMESPACE
namespace detail {

inline Error fileError(const std::string &path, const char *action, int err) {
  return Error(path + ": cannot " + action + ": " +
               std::generic_category().message(err));
}

/// The message of `e` without the "PATH: " that errors about `path` start
/// with, for a caller that names the path its own way.
inline std::string withoutPath(const Error &e, const std::string &path) {
  std::string message = e.what();
  if (message.rfind(path + ": ", 0) == 0)
    message.erase(0, path.size() + 2);
  return message;
}

/// What a file that is not read as data is, for messages; nullptr for the
/// kinds that are read (regular files, pipes and FIFOs).
inline const char *unreadableKind(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return nullptr;
}

/// "no limit" for InputFile::readAll.
inline constexpr std::uint64_t kNoLimit =
    std::numeric_limits<std::uint64_t>::max();

/// A file opened for reading: a regular file, or a pipe or FIFO read as a
/// stream. Owns its descriptor. Errors are Error naming the path.
class InputFile {
public:
  /// Opens `path` (followed through links) without blocking. Refuses a
  /// directory, a device or a socket, and, unless `streams` is true, a pipe
  /// or FIFO too (for a reader that needs the size or to seek, as a zip
  /// archive does).
  explicit InputFile(const std::string &path, bool streams = true)
      : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0)
      throw fileError(path, "open for reading", errno);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
      int err = errno;
      ::close(fd_);
      throw fileError(path, "read", err);
    }
    const char *kind = unreadableKind(st.st_mode);
    if (!kind && !S_ISREG(st.st_mode) && !streams)
      kind = "a pipe or FIFO";
    if (kind) {
      ::close(fd_);
      throw Error(path + ": cannot read: it is " + kind +
                  ", not a regular file");
    }
    regular_ = S_ISREG(st.st_mode);
    size_ = regular_ ? std::uint64_t(st.st_size) : 0;
    // Reads of a pipe wait for its writer from here on; the open did not.
    int flags = ::fcntl(fd_, F_GETFL);
    if (flags >= 0)
      ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
  }
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;
  ~InputFile() {
    if (fd_ >= 0)
      ::close(fd_);
  }

  /// The descriptor, which the caller now owns (as libzip's zip_fdopen
  /// takes it); this object no longer reads.
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

  const std::string &path() const { return path_; }
  /// The descriptor, still owned by this object (-1 after release()).
  int fd() const { return fd_; }
  bool isRegular() const { return regular_; }
  /// The size of a regular file when it was opened; 0 for a stream.
  std::uint64_t size() const { return size_; }

  /// Appends up to `n` bytes to `out`; fewer only at the end of the file.
  /// Returns how many it appended.
  std::uint64_t read(std::string &out, std::uint64_t n) {
    std::uint64_t got = 0;
    char buffer[1 << 16];
    while (got < n) {
      std::uint64_t want = n - got < sizeof buffer ? n - got : sizeof buffer;
      ssize_t r = ::read(fd_, buffer, want);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        throw fileError(path_, "read", errno);
      if (r == 0)
        break;
      out.append(buffer, std::size_t(r));
      got += std::uint64_t(r);
    }
    return got;
  }

  /// The rest of the file; Error when it holds more than `limit` bytes,
  /// with `limitReason` saying where the limit comes from.
  std::string readAll(std::uint64_t limit = kNoLimit,
                      const std::string &limitReason = "") {
    std::string bytes;
    if (regular_ && size_ <= limit)
      bytes.reserve(std::size_t(size_));
    std::uint64_t want = limit == kNoLimit ? kNoLimit : limit + 1;
    read(bytes, want);
    if (bytes.size() > limit)
      throw Error(path_ + ": cannot read: it holds more than " +
                  std::to_string(limit) + " bytes" +
                  (limitReason.empty() ? "" : ", " + limitReason));
    return bytes;
  }

private:
  std::string path_;
  int fd_ = -1;
  bool regular_ = false;
  std::uint64_t size_ = 0;
};

/// The whole content of the file at `path`, at most `limit` bytes (see
/// InputFile::readAll); Error if it cannot be read.
inline std::string readFileBytes(const std::string &path,
                                 std::uint64_t limit = kNoLimit,
                                 const std::string &limitReason = "") {
  return InputFile(path).readAll(limit, limitReason);
}

} // namespace detail
AOT_ABI_END_NAMESPACE
