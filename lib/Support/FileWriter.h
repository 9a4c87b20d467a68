//===- FileWriter.h - output files replaced whole or not at all ----------===//
//
// Every file the tools write goes through here, so that all outputs share
// one rule: the new bytes go to a temporary file beside the target, which
// replaces the target by a rename only once it is complete. A failure part
// way (a full disk, a file size limit) leaves the old file as it was and no
// temporary file behind. Needs only the C++ standard library and POSIX.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/WriteIf.h"

#include <string>
#include <string_view>
#include <system_error>

namespace aot {

/// Writes `contents` to `path` atomically: through a temporary file in the
/// same directory, renamed onto `path` once written and flushed. `-` is
/// standard output; a path that is not a regular file (a device such as
/// /dev/null or /dev/stdout, a FIFO) is written directly. A symbolic link is
/// followed: the file it points to is replaced, the link stays. An existing
/// target keeps its permission bits. On failure the temporary file is
/// removed, the old target is intact, and the error's message() is the
/// system's reason (strerror); the caller names the path.
std::error_code writeFileAtomically(const std::string &path,
                                    std::string_view contents,
                                    WriteIf when = WriteIf::Always);

/// For an output that another program writes, such as a linker: a fresh
/// file name beside the target to hand to that program, and commit() to move
/// the result onto the target. What was not committed is removed when this
/// object goes away. For `-` and targets that are not regular files, the
/// temporary file lives in the system's temporary directory and commit()
/// copies its bytes to the target.
class TemporaryOutput {
public:
  explicit TemporaryOutput(std::string target);
  TemporaryOutput(const TemporaryOutput &) = delete;
  TemporaryOutput &operator=(const TemporaryOutput &) = delete;
  ~TemporaryOutput();

  /// Where the other program writes; nothing exists there yet.
  const std::string &path() const { return temporary_; }
  /// Replaces the target with what path() holds; see writeFileAtomically.
  std::error_code commit(WriteIf when = WriteIf::Always);

private:
  std::string target_;
  std::string temporary_;
};

/// `path` made absolute, with `.`, `..` and symbolic links resolved as far
/// as the path exists: one spelling of each file that exists or will.
std::string normalisedPath(const std::string &path);

/// Whether `a` and `b` name the same file, through any spelling: `./`,
/// `..`, symbolic links, hard links. Two paths that do not exist yet are the
/// same when their normalised absolute forms (links resolved as far as
/// the paths exist) are equal.
bool isSameFile(const std::string &a, const std::string &b);

} // namespace aot
