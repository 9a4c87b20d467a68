//===- CppText.h - spelling values as C++ source text ---------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace aot::testgen {

/// `text` as a C++ string literal, quotes included; anything outside
/// printable ASCII as an octal escape.
std::string cppStringLiteral(std::string_view text);

/// The shortest spelling that reads back as `value` and is a floating-point
/// literal (never an integer literal: 1 is written 1.0). `value` is finite.
std::string cppDouble(double value);

/// A shape as a braced list: "{-1, 4}", "{}" for rank 0.
std::string cppShape(const std::vector<std::int64_t> &shape);

} // namespace aot::testgen
