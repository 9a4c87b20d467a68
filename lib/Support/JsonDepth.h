//===- JsonDepth.h - refusing JSON nested deeper than a reader can take ---===//
//
// llvm::json::parse (and the printing and destruction of what it builds)
// recurses once per level of nesting, so a document of a million '[' ends
// the process on a stack overflow. The documents the tools read (manifests,
// trace indexes) nest a few levels; a reader checks the depth first, with
// this scan, which keeps no stack of its own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace aot {

/// The deepest nesting of arrays and objects the tools read.
inline constexpr unsigned kMaxJsonDepth = 64;

/// The byte offset in `json` of the first '[' or '{' that opens level
/// `limit` + 1, or nullopt when nothing nests that deep. Brackets inside
/// strings do not count.
inline std::optional<std::size_t> jsonTooDeep(std::string_view json,
                                              unsigned limit = kMaxJsonDepth) {
  unsigned depth = 0;
  bool inString = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    char c = json[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

} // namespace aot
