//===- Print.cpp - results as numpy prints them ---------------------------===//
#include "Print.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

namespace aot::run {

namespace {
constexpr std::int64_t kEdgeItems = 3;

template <typename F> std::string shortest(F v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

/// The indices of one axis that are shown: all, or the ends around -1.
std::vector<std::int64_t> shownIndices(std::int64_t size, bool elide) {
  std::vector<std::int64_t> shown;
  if (!elide || size <= 2 * kEdgeItems) {
    for (std::int64_t i = 0; i < size; ++i)
      shown.push_back(i);
    return shown;
  }
  for (std::int64_t i = 0; i < kEdgeItems; ++i)
    shown.push_back(i);
  shown.push_back(-1);
  for (std::int64_t i = size - kEdgeItems; i < size; ++i)
    shown.push_back(i);
  return shown;
}

struct Printer {
  const abi::Tensor &t;
  bool elide;
  size_t width = 0;

  /// The flat row-major index of the element at `index` in `t`'s memory.
  std::int64_t offset(const std::vector<std::int64_t> &index) const {
    std::int64_t off = 0;
    for (size_t d = 0; d < index.size(); ++d)
      off += index[d] * t.strides()[d];
    return off;
  }

  /// Calls f(index) for every shown element.
  template <typename F>
  void forShown(std::vector<std::int64_t> &index, int axis, F &&f) const {
    if (axis == t.rank()) {
      f(index);
      return;
    }
    for (std::int64_t i : shownIndices(t.shape()[axis], elide)) {
      if (i < 0)
        continue;
      index[axis] = i;
      forShown(index, axis + 1, f);
    }
  }

  std::string element(const std::vector<std::int64_t> &index) const {
    std::string s = formatElement(t, offset(index));
    if (s.size() < width)
      s.insert(0, width - s.size(), ' ');
    return s;
  }

  void print(std::vector<std::int64_t> &index, int axis,
             std::string &out) const {
    int rank = t.rank();
    out += '[';
    std::vector<std::int64_t> shown = shownIndices(t.shape()[axis], elide);
    bool first = true;
    for (std::int64_t i : shown) {
      if (!first) {
        if (axis == rank - 1) {
          out += ' ';
        } else {
          // Rows on lines of their own; a blank line per axis above them.
          out.append(size_t(rank - axis - 1), '\n');
          out.append(size_t(axis + 1), ' ');
        }
      }
      first = false;
      if (i < 0) {
        out += "...";
        continue;
      }
      index[axis] = i;
      if (axis == rank - 1)
        out += element(index);
      else
        print(index, axis + 1, out);
    }
    out += ']';
  }
};
} // namespace

std::string formatElement(const abi::Tensor &t, std::int64_t flatIndex) {
  const char *p =
      static_cast<const char *>(t.rawData()) + flatIndex * t.elementSize();
  return abi::visitDType(t.dtype(), [&](auto tag) -> std::string {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, p, sizeof v);
    if constexpr (std::is_same_v<T, bool>)
      return v ? "True" : "False";
    else if constexpr (std::is_same_v<T, abi::f16> ||
                       std::is_same_v<T, abi::bf16> || abi::isFloat8Type<T>)
      return shortest(float(v));
    else if constexpr (std::is_floating_point_v<T>)
      return shortest(v);
    else
      return std::to_string(v);
  });
}

std::string formatTensor(const abi::Tensor &t, std::int64_t limit) {
  if (t.rank() == 0)
    return formatElement(t, 0);
  Printer printer{t, t.numElements() > limit};
  std::vector<std::int64_t> index(size_t(t.rank()), 0);
  if (t.numElements() == 0)
    return "[]";
  printer.forShown(index, 0, [&](const std::vector<std::int64_t> &i) {
    printer.width =
        std::max(printer.width, formatElement(t, printer.offset(i)).size());
  });
  std::string out;
  printer.print(index, 0, out);
  return out;
}

} // namespace aot::run
