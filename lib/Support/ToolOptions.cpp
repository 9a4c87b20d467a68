//===- ToolOptions.cpp - option values both command-line tools parse -----===//
#include "Support/ToolOptions.h"

#include "Support/FileWriter.h"

#include <charconv>
#include <cmath>
#include <filesystem>

namespace aot::options {

namespace {

/// The whole of `text` as a T, or nullopt (empty text, trailing characters,
/// out of range).
template <typename T> std::optional<T> parseWhole(const std::string &text) {
  T value{};
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    return std::nullopt;
  return value;
}

std::string quoted(const std::string &path) { return "'" + path + "'"; }

} // namespace

std::optional<std::string> valueAfter(const std::string &arg,
                                      std::string_view prefix) {
  if (arg.rfind(prefix, 0) != 0)
    return std::nullopt;
  return arg.substr(prefix.size());
}

Error CommandLine::bad(const std::string &message) const {
  return Error::message(message + " (see " + tool_ + " --help)");
}

Expected<double> CommandLine::tolerance(std::string_view option,
                                        const std::string &text) const {
  std::optional<double> value = parseWhole<double>(text);
  // NaN fails `>= 0`; infinity would accept every difference.
  if (!value || !std::isfinite(*value) || !(*value >= 0))
    return bad(std::string(option) + ": '" + text +
               "' is not a finite number >= 0");
  return *value;
}

Expected<std::int64_t> CommandLine::ulp(std::string_view option,
                                        const std::string &text) const {
  std::optional<std::int64_t> value = parseWhole<std::int64_t>(text);
  if (!value || *value < -1)
    return bad(std::string(option) + ": '" + text +
               "' is not an integer >= -1");
  return *value;
}

Expected<std::string> CommandLine::fileName(std::string_view option,
                                            const std::string &text) const {
  if (text.empty())
    return bad(std::string(option) + " needs a file name");
  return text;
}

Expected<SourceFormat> CommandLine::inputFormat(const std::string &text) const {
  if (text == "mlir")
    return SourceFormat::Mlir;
  if (text == "onnx")
    return SourceFormat::Onnx;
  return bad("unknown --input-format '" + text + "': use mlir or onnx");
}

Expected<std::string> CommandLine::directory(std::string_view option,
                                             const std::string &text) const {
  if (text.empty())
    return bad(std::string(option) + " needs a directory");
  return text;
}

Expected<std::vector<std::string>>
CommandLine::functionNames(std::string_view option,
                           const std::string &text) const {
  std::vector<std::string> names;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma - start);
    if (name.empty())
      return bad(std::string(option) + ": empty function name in '" + text +
                 "'");
    names.push_back(std::move(name));
    if (comma == std::string::npos)
      return names;
    start = comma + 1;
  }
}

namespace {

/// `path` below `dir` ('/'-separated), or nullopt when it is not below it;
/// both made absolute, links resolved as far as they exist.
std::optional<std::string> pathBelow(const std::string &path,
                                     const std::string &dir) {
  std::filesystem::path relative = std::filesystem::path(normalisedPath(path))
                                       .lexically_relative(normalisedPath(dir));
  if (relative.empty() || *relative.begin() == ".." || relative == ".")
    return std::nullopt;
  return relative.generic_string();
}

} // namespace

Status checkOutputFiles(const std::vector<NamedFile> &inputs,
                        const std::vector<NamedFile> &outputs,
                        const std::vector<NamedDirectory> &directories) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedFile &out = outputs[i];
    if (out.path == "-")
      continue;
    for (const NamedFile &in : inputs)
      if (in.path != "-" && isSameFile(out.path, in.path))
        return Error::message(out.what + " " + quoted(out.path) +
                              " is the same file as " + in.what + " " +
                              quoted(in.path) + ": refusing to overwrite it");
    for (size_t j = 0; j < i; ++j)
      if (outputs[j].path != "-" && isSameFile(out.path, outputs[j].path))
        return Error::message(outputs[j].what + " " + quoted(outputs[j].path) +
                              " and " + out.what + " " + quoted(out.path) +
                              " name the same file: each output needs a "
                              "file of its own");
  }
  for (const NamedDirectory &dir : directories) {
    auto clash = [&](const NamedFile &file) {
      if (file.path == "-")
        return false;
      std::optional<std::string> below = pathBelow(file.path, dir.path);
      return below && dir.writes(*below);
    };
    for (const NamedFile &in : inputs)
      if (clash(in))
        return Error::message(dir.what + " " + quoted(dir.path) +
                              " may write " + in.what + " " + quoted(in.path) +
                              ": refusing to overwrite it");
    for (const NamedFile &out : outputs)
      if (clash(out))
        return Error::message(
            dir.what + " " + quoted(dir.path) + " may write " + out.what + " " +
            quoted(out.path) + ": each output needs a file of its own");
  }
  return Status::ok();
}

} // namespace aot::options
