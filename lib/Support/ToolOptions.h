//===- ToolOptions.h - option values both command-line tools parse -------===//
//
// aot-compile and aot-testgen (and, through them, add_aot_target) check the
// options they share with these functions, so that a value one tool refuses
// the other refuses too, with the same message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Compiler.h"
#include "aot/Diagnostics.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aot::options {

/// The value of `arg` when it is `prefix` followed by a value, as in
/// `--rtol=1e-3` for the prefix `--rtol=`; nullopt for any other argument.
std::optional<std::string> valueAfter(const std::string &arg,
                                      std::string_view prefix);

/// A file named on the command line, with what names it: an option such as
/// "-o" or "--reference", or a description such as "the input".
struct NamedFile {
  std::string what;
  std::string path;
};

/// The command line of one tool: its errors end in "(see TOOL --help)".
class CommandLine {
public:
  explicit CommandLine(std::string tool) : tool_(std::move(tool)) {}

  /// An error about the command line: `message` and where to get help.
  Error bad(const std::string &message) const;

  /// A comparison tolerance (--rtol, --atol): a finite number >= 0.
  Expected<double> tolerance(std::string_view option,
                             const std::string &text) const;
  /// --ulp: an integer >= -1 (-1 turns the ULP check off).
  Expected<std::int64_t> ulp(std::string_view option,
                             const std::string &text) const;
  /// The value of an option that names a file: not empty.
  Expected<std::string> fileName(std::string_view option,
                                 const std::string &text) const;
  /// The value of an option that names a directory: not empty.
  Expected<std::string> directory(std::string_view option,
                                  const std::string &text) const;
  /// --input-format: "mlir" or "onnx".
  Expected<SourceFormat> inputFormat(const std::string &text) const;
  /// A comma-separated list of function names, none of them empty.
  Expected<std::vector<std::string>>
  functionNames(std::string_view option, const std::string &text) const;

private:
  std::string tool_;
};

/// A directory a tool writes files into whose names it chooses as it goes
/// (kernel dumps, IR printed after each pass): `writes` says whether a file
/// at `relative` (a path below the directory, '/'-separated) may be one of
/// them.
struct NamedDirectory {
  std::string what;
  std::string path;
  std::function<bool(const std::string &relative)> writes;
};

/// Refuses, before anything is written, an output that is one of the
/// inputs, two outputs that are one file, or an input or output that one of
/// `directories` may write, through any spelling of the path (see
/// isSameFile in FileWriter.h). "-" (standard input or output) is never
/// compared. The error names both files. Every tool checks the files it
/// reads and writes here, so that all of them keep one rule.
Status checkOutputFiles(const std::vector<NamedFile> &inputs,
                        const std::vector<NamedFile> &outputs,
                        const std::vector<NamedDirectory> &directories = {});

} // namespace aot::options
