//===- Compare.h - NaN-aware numerical comparison of tensors --------------===//
//
// The check a generated test runs on each result: same dtype, same shape,
// and every element equal (integers, i1) or close (floats). Closeness is
// numpy.isclose's rule |a - e| <= atol + rtol * |e|, or, optionally, a
// distance in units in the last place of the element's own format.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Tensor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE

/// How far a floating-point element may be from the expected one.
struct Tolerance {
  double rtol = 1e-5;
  double atol = 1e-6;
  /// Also accept elements at most this many ULPs (of the element's own
  /// format: 16-bit for f16/bf16) away from the expected one. Negative: off.
  std::int64_t ulp = -1;
};

/// The outcome of compare(). When dtypes or shapes differ nothing is
/// compared: ok is false, mismatches 0, firstIndex empty.
struct Comparison {
  bool ok = false;
  /// How many elements differ.
  std::int64_t mismatches = 0;
  /// The multi-index of the first differing element (row-major order);
  /// empty when none differs.
  std::vector<std::int64_t> firstIndex;
  /// The values at firstIndex (converted to double; `message` prints
  /// integers exactly).
  double actual = 0, expected = 0;
  /// Over all elements where both values are finite. The relative error is
  /// |a - e| / |e|, infinite where e is 0 and a is not.
  double maxAbsError = 0, maxRelError = 0;
  /// One line for a test log: what differs, where, by how much.
  std::string message;

  explicit operator bool() const { return ok; }
};

namespace detail {

/// Distance in ULPs between two non-NaN values given by their bit patterns
/// (sign-magnitude, sign in the top bit); +0 and -0 are 0 apart.
template <typename Bits> std::uint64_t ulpDistance(Bits a, Bits e) {
  constexpr Bits sign = Bits(Bits(1) << (8 * sizeof(Bits) - 1));
  std::uint64_t ma = a & Bits(~sign), me = e & Bits(~sign);
  if ((a & sign) == (e & sign))
    return ma > me ? ma - me : me - ma;
  return ma + me;
}

template <typename T> struct FloatTraits;
template <> struct FloatTraits<f16> {
  using Bits = std::uint16_t;
  static constexpr int digits = 5;
};
template <> struct FloatTraits<bf16> {
  using Bits = std::uint16_t;
  static constexpr int digits = 4;
};
template <int M, int B, Float8Specials S> struct FloatTraits<float8<M, B, S>> {
  using Bits = std::uint8_t;
  static constexpr int digits = 3;
};
template <> struct FloatTraits<float> {
  using Bits = std::uint32_t;
  static constexpr int digits = 9;
};
template <> struct FloatTraits<double> {
  using Bits = std::uint64_t;
  static constexpr int digits = 17;
};

template <typename T> constexpr bool isFloatType = isFloat(dtypeOf<T>);

template <typename T> T loadElement(const void *p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *static_cast<const unsigned char *>(p) != 0;
  } else {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
}

template <typename T> double toDouble(T v) {
  if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16> ||
                isFloat8Type<T>)
    return double(float(v));
  else
    return double(v);
}

/// An element printed exactly (integers) or with enough digits to round
/// trip (floats).
template <typename T> std::string formatElement(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_same_v<T, i4>) {
    return std::to_string(int(v));
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", FloatTraits<T>::digits, toDouble(v));
    return buf;
  }
}

inline std::string formatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

template <typename T>
bool elementsMatch(T a, T e, const Tolerance &tol, double &absError,
                   double &relError) {
  double da = toDouble(a), de = toDouble(e);
  absError = relError = 0;
  if constexpr (isFloatType<T>) {
    if (std::isnan(da) || std::isnan(de))
      return std::isnan(da) && std::isnan(de);
    if (std::isinf(da) || std::isinf(de))
      return da == de;
  }
  absError = std::fabs(da - de);
  relError = de != 0         ? absError / std::fabs(de)
             : absError == 0 ? 0
                             : std::numeric_limits<double>::infinity();
  if constexpr (!isFloatType<T>) {
    return a == e;
  } else {
    if (absError <= tol.atol + tol.rtol * std::fabs(de))
      return true;
    using Bits = typename FloatTraits<T>::Bits;
    return tol.ulp >= 0 &&
           ulpDistance(std::bit_cast<Bits>(a), std::bit_cast<Bits>(e)) <=
               std::uint64_t(tol.ulp);
  }
}

inline std::vector<std::int64_t>
unflattenIndex(std::int64_t flat, const std::vector<std::int64_t> &shape) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

template <typename T>
Comparison compareTyped(const Tensor &actual, const Tensor &expected,
                        const Tolerance &tol) {
  Comparison c;
  std::int64_t n = actual.numElements();
  std::string firstActual, firstExpected;
  for (std::int64_t i = 0; i < n; ++i) {
    T a = loadElement<T>(actual.elementAt(i));
    T e = loadElement<T>(expected.elementAt(i));
    double absError, relError;
    bool match = elementsMatch(a, e, tol, absError, relError);
    c.maxAbsError = std::max(c.maxAbsError, absError);
    c.maxRelError = std::max(c.maxRelError, relError);
    if (match)
      continue;
    if (c.mismatches++ == 0) {
      c.firstIndex = unflattenIndex(i, actual.shape());
      c.actual = toDouble(a);
      c.expected = toDouble(e);
      firstActual = formatElement(a);
      firstExpected = formatElement(e);
    }
  }
  c.ok = c.mismatches == 0;
  std::string what = std::string(dtypeName(actual.dtype())) + " " +
                     shapeString(actual.shape());
  std::string errors = "max abs error " + formatNumber(c.maxAbsError) +
                       ", max rel error " + formatNumber(c.maxRelError);
  if (c.ok) {
    c.message = "all " + std::to_string(n) + " elements of " + what +
                " match (" + errors + ")";
    return c;
  }
  std::string rule =
      isFloatType<T> ? "rtol " + formatNumber(tol.rtol) + ", atol " +
                           formatNumber(tol.atol) +
                           (tol.ulp >= 0 ? ", ulp " + std::to_string(tol.ulp)
                                         : std::string())
                     : std::string("exact");
  c.message = std::to_string(c.mismatches) + " of " + std::to_string(n) +
              " elements of " + what + " differ (" + rule + "); first at " +
              shapeString(c.firstIndex) + ": actual " + firstActual +
              ", expected " + firstExpected + "; " + errors;
  return c;
}

// A program that links MlirAot::testmain (every test aot-testgen writes)
// finds these compiled there, once, instead of in each of its sources, where
// they took a fifth of a generated test's compile time.
#ifdef AOT_ABI_COMPARE_INSTANTIATED
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  extern template Comparison compareTyped<type>(                               \
      const Tensor &, const Tensor &, const Tolerance &);
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
#endif

} // namespace detail

/// Compares `actual` with `expected` element by element; both may have any
/// strides. Integers and i1 must be equal. Floats (f16/bf16 through float)
/// match when both are NaN, when both are the same infinity, or when finite
/// and |a - e| <= atol + rtol * |e| or (tol.ulp >= 0) at most tol.ulp ULPs
/// apart. Never throws for well-formed tensors.
inline Comparison compare(const Tensor &actual, const Tensor &expected,
                          const Tolerance &tol = {}) {
  std::string problems;
  if (actual.dtype() != expected.dtype())
    problems = "dtype mismatch: actual " +
               std::string(dtypeName(actual.dtype())) + ", expected " +
               std::string(dtypeName(expected.dtype()));
  if (actual.shape() != expected.shape())
    problems += (problems.empty() ? "" : "; ") +
                std::string("shape mismatch: actual ") +
                shapeString(actual.shape()) + ", expected " +
                shapeString(expected.shape());
  if (!problems.empty()) {
    Comparison c;
    c.message = problems;
    return c;
  }
  return visitDType(actual.dtype(), [&](auto tag) {
    return detail::compareTyped<decltype(tag)>(actual, expected, tol);
  });
}

AOT_ABI_END_NAMESPACE
