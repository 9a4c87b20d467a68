//===- FileWriter.cpp - output files replaced whole or not at all --------===//
#include "Support/FileWriter.h"

#include "aot/abi/detail/InputFile.h"
#include "aot/abi/detail/OutputFile.h"

#include <filesystem>

#include <unistd.h>

namespace aot {

namespace {

using abi::detail::holdsExactly;
using abi::detail::lastError;
using abi::detail::resolveLink;
using abi::detail::temporaryName;
using abi::detail::writeDirectly;
using abi::detail::writesDirectly;

/// The bytes of a whole file (a temporary one this process made).
std::error_code readFile(const std::string &path, std::string &out) {
  try {
    out = abi::detail::readFileBytes(path);
    return {};
  } catch (const abi::Error &) {
    return std::make_error_code(std::errc::io_error);
  }
}

} // namespace

std::error_code writeFileAtomically(const std::string &path,
                                    std::string_view contents, WriteIf when) {
  return abi::detail::writeFileAtomically(path, contents,
                                          when == WriteIf::Changed);
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
    if (!(ec = abi::detail::refuseTarget(target)) &&
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
  return normalisedPath(a) == normalisedPath(b);
}

std::string normalisedPath(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  fs::path resolved = fs::weakly_canonical(absolute, ec);
  return (ec ? absolute.lexically_normal() : resolved).string();
}

} // namespace aot
