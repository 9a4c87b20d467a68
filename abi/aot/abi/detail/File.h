//===- File.h - whole-file reads and writes with ABI errors ---------------===//
#pragma once

#include "aot/abi/detail/InputFile.h"
#include "aot/abi/detail/OutputFile.h"

#include <string>
#include <string_view>

AOT_ABI_BEGIN_NAMESPACE
namespace detail {

/// Replaces the file at `path` by `bytes`, whole or not at all (see
/// OutputFile.h); Error naming `path` if that fails.
inline void writeFileBytes(const std::string &path, std::string_view bytes) {
  if (std::error_code ec = writeFileAtomically(path, bytes))
    throw Error(path + ": cannot write: " + ec.message());
}

} // namespace detail
AOT_ABI_END_NAMESPACE
