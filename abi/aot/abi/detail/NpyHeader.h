//===- NpyHeader.h - the Python-dict header of a .npy array ---------------===//
//
// A .npy header is the repr() of a Python dict such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// This parses exactly that subset of Python literal syntax (strings, True,
// False, tuples of non-negative integers) and renders it the way numpy does,
// so files written here are byte-identical to numpy's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE
namespace detail {

/// The three keys every .npy header holds.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<std::int64_t> shape;
};

/// A recursive-descent parser over the header text; every failure throws an
/// Error prefixed with `what` and saying what was expected where.
class NpyHeaderParser {
public:
  NpyHeaderParser(std::string_view text, const std::string &what)
      : text_(text), what_(what) {}

  NpyHeader parse() {
    NpyHeader h;
    bool seenDescr = false, seenOrder = false, seenShape = false;
    skipSpace();
    expect('{');
    skipSpace();
    while (!consume('}')) {
      std::string key = parseString();
      skipSpace();
      expect(':');
      skipSpace();
      if (key == "descr") {
        once(seenDescr, key);
        if (peek() == '[')
          fail("structured dtypes (a list 'descr') are not supported");
        h.descr = parseString();
      } else if (key == "fortran_order") {
        once(seenOrder, key);
        h.fortranOrder = parseBool();
      } else if (key == "shape") {
        once(seenShape, key);
        h.shape = parseShape();
      } else {
        fail("unexpected key '" + key + "'");
      }
      skipSpace();
      if (!consume(',')) {
        skipSpace();
        expect('}');
        break;
      }
      skipSpace();
    }
    skipSpace();
    if (pos_ != text_.size())
      fail("unexpected text after the header dict");
    if (!seenDescr || !seenOrder || !seenShape)
      fail("header lacks the key '" +
           std::string(!seenDescr   ? "descr"
                       : !seenOrder ? "fortran_order"
                                    : "shape") +
           "'");
    return h;
  }

private:
  [[noreturn]] void fail(const std::string &problem) const {
    throw Error(what_ + ": malformed .npy header: " + problem + " (at offset " +
                std::to_string(pos_) + " of '" + printable() + "')");
  }

  /// The header text with control characters escaped, for messages.
  std::string printable() const {
    std::string out;
    for (char c : text_.substr(0, 200)) {
      auto u = static_cast<unsigned char>(c);
      if (u >= 0x20 && u < 0x7f) {
        out += c;
      } else {
        static const char hex[] = "0123456789abcdef";
        out += "\\x";
        out += hex[u >> 4];
        out += hex[u & 15];
      }
    }
    return text_.size() > 200 ? out + "..." : out;
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c))
      fail(std::string("expected '") + c + "'");
  }
  bool consumeWord(std::string_view w) {
    if (text_.substr(pos_, w.size()) != w)
      return false;
    pos_ += w.size();
    return true;
  }
  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  void once(bool &seen, const std::string &key) {
    if (seen)
      fail("duplicate key '" + key + "'");
    seen = true;
  }

  std::string parseString() {
    char quote = peek();
    if (quote != '\'' && quote != '"')
      fail("expected a quoted string");
    ++pos_;
    std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos)
      fail("unterminated string");
    std::string_view s = text_.substr(pos_, end - pos_);
    if (s.find('\\') != std::string_view::npos)
      fail("escape sequences in strings are not supported");
    pos_ = end + 1;
    return std::string(s);
  }

  bool parseBool() {
    if (consumeWord("True"))
      return true;
    if (consumeWord("False"))
      return false;
    fail("expected True or False");
  }

  std::int64_t parseDim() {
    if (peek() < '0' || peek() > '9')
      fail("expected a non-negative integer dimension");
    std::int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      if (__builtin_mul_overflow(v, 10, &v) ||
          __builtin_add_overflow(v, peek() - '0', &v))
        fail("dimension does not fit in 64 bits");
      ++pos_;
    }
    consume('L'); // Python 2 numpy wrote long integers as 3L.
    return v;
  }

  std::vector<std::int64_t> parseShape() {
    std::vector<std::int64_t> shape;
    expect('(');
    skipSpace();
    while (!consume(')')) {
      shape.push_back(parseDim());
      skipSpace();
      if (!consume(',')) {
        skipSpace();
        expect(')');
        break;
      }
      skipSpace();
    }
    return shape;
  }

  std::string_view text_;
  const std::string &what_;
  std::size_t pos_ = 0;
};

/// numpy's repr() of the header dict, keys sorted, without padding.
inline std::string renderNpyHeader(const NpyHeader &h) {
  std::string shape = "(";
  for (std::size_t i = 0; i < h.shape.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(h.shape[i]);
  if (h.shape.size() == 1)
    shape += ",";
  shape += ")";
  return "{'descr': '" + h.descr +
         "', 'fortran_order': " + (h.fortranOrder ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

} // namespace detail
AOT_ABI_END_NAMESPACE
