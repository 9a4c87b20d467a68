//===- DType.h - element types of the ABI ---------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

AOT_ABI_BEGIN_NAMESPACE

/// Every element type that compiled code can exchange with its caller, in
/// the order of DTypes.def.
enum class DType : std::uint8_t {
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors) id,
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
};

/// The manifest / numpy-style name: "i1", "i8", ..., "bf16", "f64".
constexpr std::string_view dtypeName(DType t) {
  switch (t) {
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  case DType::id:                                                              \
    return name;
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
  }
  return "?";
}

/// How many DTypes there are.
inline constexpr int kDTypeCount = 0
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors) +1
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
    ;

/// Inverse of dtypeName; nullopt for an unknown name.
constexpr std::optional<DType> parseDType(std::string_view name) {
  for (int i = 0; i < kDTypeCount; ++i)
    if (dtypeName(static_cast<DType>(i)) == name)
      return static_cast<DType>(i);
  return std::nullopt;
}

/// Bytes one element occupies in memory (i1 is stored as one byte).
constexpr std::size_t dtypeSize(DType t) {
  switch (t) {
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  case DType::id:                                                              \
    return bytes;
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
  }
  return 0;
}

/// The 8-bit floats, stored as their bits (one byte per element).
constexpr bool isFloat8(DType t) {
  return t == DType::F8E4M3FN || t == DType::F8E5M2 ||
         t == DType::F8E4M3FNUZ || t == DType::F8E5M2FNUZ;
}

constexpr bool isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 ||
         t == DType::F64 || isFloat8(t);
}

/// IEEE half, stored as its bits; converts to and from float (round to
/// nearest even), so callers need no compiler support for _Float16.
struct f16 {
  std::uint16_t bits = 0;
  f16() = default;
  explicit f16(float v) : bits(fromFloat(v)) {}
  operator float() const { return toFloat(bits); }
  static f16 fromBits(std::uint16_t b) { f16 h; h.bits = b; return h; }

  static float toFloat(std::uint16_t h) {
    std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    std::uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu, out;
    if (exp == 0x1f) {
      out = sign | 0x7f800000u | (mant << 13);
    } else if (exp != 0) {
      out = sign | ((exp + 112) << 23) | (mant << 13);
    } else if (mant == 0) {
      out = sign;
    } else { // subnormal: normalise
      int e = -1;
      do { ++e; mant <<= 1; } while (!(mant & 0x400u));
      out = sign | std::uint32_t(112 - e) << 23 | ((mant & 0x3ffu) << 13);
    }
    return std::bit_cast<float>(out);
  }
  static std::uint16_t fromFloat(float f) {
    std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    std::uint16_t sign = std::uint16_t((x >> 16) & 0x8000u);
    std::uint32_t absx = x & 0x7fffffffu;
    if (absx > 0x7f800000u) // NaN: keep it quiet
      return sign | 0x7e00u;
    if (absx >= 0x477ff000u) // overflow after rounding: infinity
      return sign | 0x7c00u;
    if (absx < 0x38800000u) { // result is subnormal or zero
      if (absx < 0x33000000u)
        return sign;
      // The value is mant * 2^(e-150) and one half subnormal step is 2^-24,
      // so the result is mant >> (126 - e), rounded to nearest even.
      std::uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
      int shift = 126 - int(absx >> 23); // 14..24
      std::uint32_t half = mant >> shift;
      std::uint32_t rem = mant & ((1u << shift) - 1);
      std::uint32_t mid = 1u << (shift - 1);
      if (rem > mid || (rem == mid && (half & 1)))
        ++half;
      return sign | std::uint16_t(half);
    }
    std::uint32_t r = absx + 0xfffu + ((absx >> 13) & 1u); // round half even
    return sign | std::uint16_t((r - 0x38000000u) >> 13);
  }
};

/// bfloat16, stored as its bits (the top half of an IEEE float).
struct bf16 {
  std::uint16_t bits = 0;
  bf16() = default;
  explicit bf16(float v) : bits(fromFloat(v)) {}
  operator float() const { return toFloat(bits); }
  static bf16 fromBits(std::uint16_t b) { bf16 h; h.bits = b; return h; }
  static float toFloat(std::uint16_t b) {
    return std::bit_cast<float>(std::uint32_t(b) << 16);
  }
  static std::uint16_t fromFloat(float f) {
    std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
      return std::uint16_t((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return std::uint16_t(x >> 16);
  }
};

/// How an 8-bit float format spends its special codes.
enum class Float8Specials {
  /// Infinity and NaN as in IEEE (f8E5M2): the top exponent holds them.
  Ieee,
  /// No infinity; only all-ones (S.1111.111) is NaN (f8E4M3FN).
  FiniteNanAllOnes,
  /// No infinity, no negative zero: 0x80 is the only NaN (the FNUZ types).
  UnsignedZero,
};

/// An 8-bit float stored as its bits: a sign, 7 - Mantissa exponent bits of
/// the given bias and Mantissa mantissa bits, with subnormals. Converts to
/// and from float and double, rounding to nearest even; a finite value
/// beyond the largest one becomes infinity (Ieee) or NaN (the others), as
/// MLIR's arith.truncf rounds.
template <int Mantissa, int Bias, Float8Specials Specials> struct float8 {
  std::uint8_t bits = 0;
  float8() = default;
  explicit float8(double v) : bits(fromDouble(v)) {}
  operator float() const { return toFloat(bits); }
  static float8 fromBits(std::uint8_t b) { float8 h; h.bits = b; return h; }

  static constexpr int kMinExponent = 1 - Bias;
  static constexpr unsigned kTopExponent = 0x7fu >> Mantissa;
  /// The largest finite magnitude's code.
  static constexpr unsigned kMaxFinite =
      Specials == Float8Specials::Ieee ? (kTopExponent << Mantissa) - 1
      : Specials == Float8Specials::FiniteNanAllOnes ? 0x7eu
                                                     : 0x7fu;

  static float toFloat(std::uint8_t b) {
    bool negative = b & 0x80u;
    unsigned mag = b & 0x7fu;
    float nan = std::numeric_limits<float>::quiet_NaN();
    if (Specials == Float8Specials::UnsignedZero && b == 0x80u)
      return nan;
    if (Specials == Float8Specials::FiniteNanAllOnes && mag == 0x7fu)
      return negative ? -nan : nan;
    unsigned e = mag >> Mantissa, m = mag & ((1u << Mantissa) - 1);
    if (Specials == Float8Specials::Ieee && e == kTopExponent) {
      float special = m ? nan : std::numeric_limits<float>::infinity();
      return negative ? -special : special;
    }
    float v = e == 0 ? std::ldexp(float(m), kMinExponent - Mantissa)
                     : std::ldexp(float((1u << Mantissa) + m),
                                  int(e) - Bias - Mantissa);
    return negative ? -v : v;
  }

  static std::uint8_t fromDouble(double x) {
    std::uint8_t sign = std::signbit(x) ? 0x80u : 0;
    bool unsignedZero = Specials == Float8Specials::UnsignedZero;
    std::uint8_t nan = unsignedZero ? 0x80u
                       : Specials == Float8Specials::Ieee
                           ? std::uint8_t(sign | 0x7eu)
                           : std::uint8_t(sign | 0x7fu);
    if (std::isnan(x))
      return nan;
    double a = std::fabs(x);
    if (std::isinf(a))
      return Specials == Float8Specials::Ieee
                 ? std::uint8_t(sign | (kTopExponent << Mantissa))
                 : nan;
    // The value is q * 2^(e - Mantissa) with q rounded to an integer: the
    // code is then ((e - emin) << Mantissa) + q for normals and subnormals
    // alike, and a q that rounds up to 2^(Mantissa + 1) carries into the
    // exponent by itself.
    int e = a == 0 ? kMinExponent : std::max(std::ilogb(a), kMinExponent);
    if (e > 64)
      return Specials == Float8Specials::Ieee
                 ? std::uint8_t(sign | (kTopExponent << Mantissa))
                 : nan;
    double q = std::nearbyint(std::ldexp(a, Mantissa - e));
    unsigned mag = (unsigned(e - kMinExponent) << Mantissa) + unsigned(q);
    if (mag > kMaxFinite)
      return Specials == Float8Specials::Ieee
                 ? std::uint8_t(sign | (kTopExponent << Mantissa))
                 : nan;
    if (unsignedZero && mag == 0)
      return 0;
    return std::uint8_t(sign | mag);
  }
};

using f8E4M3FN = float8<3, 7, Float8Specials::FiniteNanAllOnes>;
using f8E5M2 = float8<2, 15, Float8Specials::Ieee>;
using f8E4M3FNUZ = float8<3, 8, Float8Specials::UnsignedZero>;
using f8E5M2FNUZ = float8<2, 16, Float8Specials::UnsignedZero>;

/// A 4-bit signed integer, stored one per byte, sign-extended: -8..7 as the
/// int8_t of the same value.
struct i4 {
  std::int8_t value = 0;
  i4() = default;
  /// `v` wrapped to 4 bits, as i4 arithmetic wraps.
  explicit i4(int v) : value(std::int8_t(std::int8_t(v << 4) >> 4)) {}
  operator int() const { return value; }
  bool operator==(const i4 &) const = default;
};

template <typename T> inline constexpr bool isFloat8Type = false;
template <int M, int B, Float8Specials S>
inline constexpr bool isFloat8Type<float8<M, B, S>> = true;

static_assert(sizeof(f16) == 2 && sizeof(bf16) == 2 && sizeof(f8E4M3FN) == 1 &&
              sizeof(i4) == 1);

template <typename T> struct DTypeOf;
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  template <> struct DTypeOf<type> {                                           \
    static constexpr DType value = DType::id;                                  \
  };
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE

/// The DType of a C++ element type, at compile time.
template <typename T> inline constexpr DType dtypeOf = DTypeOf<T>::value;

/// Calls f(T{}) with the C++ type that stores one element of `t`.
template <typename F> decltype(auto) visitDType(DType t, F &&f) {
  switch (t) {
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  case DType::id:                                                              \
    return f(type{});
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
  }
  return f(float{});
}

AOT_ABI_END_NAMESPACE
