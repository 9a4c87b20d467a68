//===- DType.h - element types of the ABI ---------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

AOT_ABI_BEGIN_NAMESPACE

/// Every element type that compiled code can exchange with its caller.
enum class DType : std::uint8_t {
  I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64
};

/// The manifest / numpy-style name: "i1", "i8", ..., "bf16", "f64".
constexpr std::string_view dtypeName(DType t) {
  switch (t) {
  case DType::I1: return "i1";
  case DType::I8: return "i8";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::U8: return "u8";
  case DType::U16: return "u16";
  case DType::U32: return "u32";
  case DType::U64: return "u64";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  }
  return "?";
}

/// Inverse of dtypeName; nullopt for an unknown name.
constexpr std::optional<DType> parseDType(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(DType::F64); ++i)
    if (dtypeName(static_cast<DType>(i)) == name)
      return static_cast<DType>(i);
  return std::nullopt;
}

/// Bytes one element occupies in memory (i1 is stored as one byte).
constexpr std::size_t dtypeSize(DType t) {
  switch (t) {
  case DType::I1: case DType::I8: case DType::U8: return 1;
  case DType::I16: case DType::U16: case DType::F16: case DType::BF16: return 2;
  case DType::I32: case DType::U32: case DType::F32: return 4;
  case DType::I64: case DType::U64: case DType::F64: return 8;
  }
  return 0;
}

constexpr bool isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 ||
         t == DType::F64;
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

static_assert(sizeof(f16) == 2 && sizeof(bf16) == 2);

template <typename T> struct DTypeOf;
template <> struct DTypeOf<bool> { static constexpr DType value = DType::I1; };
template <> struct DTypeOf<std::int8_t> { static constexpr DType value = DType::I8; };
template <> struct DTypeOf<std::int16_t> { static constexpr DType value = DType::I16; };
template <> struct DTypeOf<std::int32_t> { static constexpr DType value = DType::I32; };
template <> struct DTypeOf<std::int64_t> { static constexpr DType value = DType::I64; };
template <> struct DTypeOf<std::uint8_t> { static constexpr DType value = DType::U8; };
template <> struct DTypeOf<std::uint16_t> { static constexpr DType value = DType::U16; };
template <> struct DTypeOf<std::uint32_t> { static constexpr DType value = DType::U32; };
template <> struct DTypeOf<std::uint64_t> { static constexpr DType value = DType::U64; };
template <> struct DTypeOf<f16> { static constexpr DType value = DType::F16; };
template <> struct DTypeOf<bf16> { static constexpr DType value = DType::BF16; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::F32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::F64; };

/// The DType of a C++ element type, at compile time.
template <typename T> inline constexpr DType dtypeOf = DTypeOf<T>::value;

/// Calls f(T{}) with the C++ type that stores one element of `t`.
template <typename F> decltype(auto) visitDType(DType t, F &&f) {
  switch (t) {
  case DType::I1: return f(bool{});
  case DType::I8: return f(std::int8_t{});
  case DType::I16: return f(std::int16_t{});
  case DType::I32: return f(std::int32_t{});
  case DType::I64: return f(std::int64_t{});
  case DType::U8: return f(std::uint8_t{});
  case DType::U16: return f(std::uint16_t{});
  case DType::U32: return f(std::uint32_t{});
  case DType::U64: return f(std::uint64_t{});
  case DType::F16: return f(f16{});
  case DType::BF16: return f(bf16{});
  case DType::F32: return f(float{});
  case DType::F64: return f(double{});
  }
  return f(float{});
}

AOT_ABI_END_NAMESPACE
