//===- Layout.h - line breaking for generated C++ -------------------------===//
//
// The generator renders every statement and comment on one line; this lays
// the text out the way clang-format's LLVM style would for the few shapes
// it produces, so the generated file reads like hand-formatted code.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace aot::testgen {

/// `text` with lines longer than `limit` columns broken: `//` comments at a
/// space, statements of the form `[LHS = ]CALLEE(ARGS);` after the `=`, or
/// between arguments aligned after the parenthesis, or after the
/// parenthesis with a 4-column continuation indent. A line that cannot be
/// broken (a long string literal) stays as it is. Also keeps at most one
/// blank line in a row, none at the top, and none just inside a block's
/// braces unless the block is a namespace.
std::string layOut(std::string_view text, std::size_t limit = 80);

} // namespace aot::testgen
