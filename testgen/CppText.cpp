//===- CppText.cpp - spelling values as C++ source text -------------------===//
#include "CppText.h"

#include <cctype>
#include <charconv>
#include <set>

namespace aot::testgen {

std::string cppStringLiteral(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      // Three octal digits always: a following digit cannot extend it.
      char buf[5] = {'\\', char('0' + (u >> 6)), char('0' + ((u >> 3) & 7)),
                     char('0' + (u & 7)), 0};
      out += buf;
    }
  }
  return out + "\"";
}

std::string cppDouble(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  std::string s(buf, ec == std::errc() ? end : buf);
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

std::string cppShape(const std::vector<std::int64_t> &shape) {
  std::string s = "{";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "}";
}

} // namespace aot::testgen
