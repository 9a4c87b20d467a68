//===- test_DType.cpp - element types and 16-bit float conversion ---------===//
#include "aot/abi/DType.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <ios>
#include <iterator>
#include <limits>
#include <string_view>

using namespace aot::abi;

namespace {

/// The value of an f16 bit pattern, from the IEEE definition (not from the
/// bit-shuffling under test).
double f16Value(std::uint16_t bits) {
  int sign = bits >> 15, exp = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
  double mag;
  if (exp == 0x1f)
    mag = mant ? std::numeric_limits<double>::quiet_NaN()
               : std::numeric_limits<double>::infinity();
  else if (exp == 0)
    mag = std::ldexp(mant, -24);
  else
    mag = std::ldexp(1024 + mant, exp - 25);
  return sign ? -mag : mag;
}

/// Round-to-nearest-even f16 bits of a finite float, by search over the
/// ordered non-negative f16 values.
std::uint16_t f16Nearest(float f) {
  double x = std::fabs(double(f));
  std::uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  if (x >= 65520.0) // halfway between the largest finite (65504) and 2^16
    return sign | 0x7c00;
  std::uint16_t lo = 0, hi = 0x7bff; // f16Value(lo) <= x < f16Value(hi + 1)
  while (lo < hi) {
    std::uint16_t mid = std::uint16_t((lo + hi + 1) / 2);
    if (f16Value(mid) <= x)
      lo = mid;
    else
      hi = std::uint16_t(mid - 1);
  }
  if (lo == 0x7bff)
    return sign | lo;
  double below = x - f16Value(lo), above = f16Value(lo + 1) - x;
  if (above < below || (above == below && (lo & 1)))
    ++lo;
  return sign | lo;
}

std::uint32_t floatBits(float f) { return std::bit_cast<std::uint32_t>(f); }

} // namespace

TEST_SUITE_BEGIN("DType");

TEST_CASE("names, sizes and classification") {
  for (int i = 0; i <= int(DType::F8E5M2FNUZ); ++i) {
    auto t = DType(i);
    CHECK(parseDType(dtypeName(t)) == t);
  }
  CHECK(!parseDType("f128"));
  CHECK(dtypeName(DType::BF16) == "bf16");
  CHECK(dtypeSize(DType::I1) == 1);
  CHECK(dtypeSize(DType::BF16) == 2);
  CHECK(dtypeSize(DType::U64) == 8);
  CHECK(isFloat(DType::F16));
  CHECK(!isFloat(DType::U16));
  CHECK(dtypeOf<f16> == DType::F16);
  CHECK(dtypeOf<std::uint32_t> == DType::U32);
  CHECK(visitDType(DType::F64, [](auto v) { return sizeof(v); }) == 8);
  CHECK(visitDType(DType::I1, [](auto v) { return dtypeOf<decltype(v)>; }) ==
        DType::I1);
}

TEST_CASE("the DType table: every type once, in the ABI's order") {
  // The manifest's names, in the order the ABI numbers them (DTypes.def):
  // written out here, not read from the table under test.
  const std::string_view names[] = {
      "i1",  "i8",       "i16",    "i32",        "i64",        "u8",
      "u16", "u32",      "u64",    "f16",        "bf16",       "f32",
      "f64", "f8E4M3FN", "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "i4"};
  REQUIRE(kDTypeCount == int(std::size(names)));
  for (int i = 0; i < kDTypeCount; ++i) {
    auto t = DType(i);
    CAPTURE(names[i]);
    CHECK(dtypeName(t) == names[i]);
    // The C++ type that holds an element is as large as the element and
    // maps back to the same DType.
    CHECK(visitDType(t, [](auto v) { return sizeof(v); }) == dtypeSize(t));
    CHECK(visitDType(t, [](auto v) { return dtypeOf<decltype(v)>; }) == t);
  }
}

TEST_CASE("every f16 bit pattern converts to its IEEE value and back") {
  for (std::uint32_t b = 0; b <= 0xffff; ++b) {
    auto bits = std::uint16_t(b);
    float f = f16::toFloat(bits);
    double want = f16Value(bits);
    INFO("bits 0x" << std::hex << b);
    if (std::isnan(want)) {
      REQUIRE(std::isnan(f));
      std::uint16_t back = f16::fromFloat(f);
      CHECK((back & 0x7c00) == 0x7c00); // still a NaN...
      CHECK((back & 0x3ff) != 0);
      CHECK((back & 0x8000) == (bits & 0x8000)); // ...of the same sign
    } else {
      REQUIRE(double(f) == want);
      REQUIRE(std::signbit(f) == bool(bits & 0x8000));
      REQUIRE(f16::fromFloat(f) == bits);
    }
  }
}

TEST_CASE("f16 rounds to nearest even") {
  CHECK(f16(1.0f).bits == 0x3c00);
  CHECK(f16(-2.0f).bits == 0xc000);
  CHECK(f16(65504.0f).bits == 0x7bff);  // largest finite
  CHECK(f16(65519.99f).bits == 0x7bff); // below the midpoint
  CHECK(f16(65520.0f).bits == 0x7c00);  // midpoint: to inf
  CHECK(f16(1e6f).bits == 0x7c00);      // overflow
  CHECK(f16(-1e6f).bits == 0xfc00);
  CHECK(f16(1.0f + 0x1p-11f).bits == 0x3c00);            // tie, to even
  CHECK(f16(1.0f + 3 * 0x1p-11f).bits == 0x3c02);        // tie, to even
  CHECK(f16(1.0f + 0x1p-11f + 0x1p-20f).bits == 0x3c01); // above the tie
  CHECK(f16(0x1p-14f).bits == 0x0400);                   // smallest normal
  CHECK(f16(0x1p-15f).bits == 0x0200);                   // subnormal
  CHECK(f16(0x1p-24f).bits == 0x0001);                   // smallest subnormal
  CHECK(f16(0x1p-25f).bits == 0x0000);                   // tie with 0, to even
  CHECK(f16(0x1.000002p-25f).bits == 0x0001);            // just above the tie
  CHECK(f16(3 * 0x1p-25f).bits == 0x0002);               // tie 1|2, to even
  CHECK(f16(5 * 0x1p-25f).bits == 0x0002);               // tie 2|3, to even
  CHECK(f16(0x1p-26f).bits == 0x0000);
  CHECK(f16(-0x1p-26f).bits == 0x8000); // keeps the sign
  CHECK(f16(-0.0f).bits == 0x8000);
  CHECK(f16(0x1.ffcp-15f).bits == 0x0400); // tie 1023|1024 units: a normal
  CHECK(float(f16::fromBits(0x3555)) == doctest::Approx(0.333251953125));
}

TEST_CASE("f16 conversion matches exact rounding at every midpoint") {
  // For each pair of neighbouring finite f16 values: the midpoint and the
  // floats just either side of it.
  for (std::uint32_t b = 0; b < 0x7bff; ++b) {
    double mid =
        (f16Value(std::uint16_t(b)) + f16Value(std::uint16_t(b + 1))) / 2;
    float m = float(mid); // exact: a midpoint needs 12 significant bits
    REQUIRE(double(m) == mid);
    for (float f : {m, std::nextafter(m, 0.0f), std::nextafter(m, 1e9f)}) {
      INFO("float bits 0x" << std::hex << floatBits(f));
      REQUIRE(f16::fromFloat(f) == f16Nearest(f));
      REQUIRE(f16::fromFloat(-f) == f16Nearest(-f));
    }
  }
}

TEST_CASE("f16 conversion matches exact rounding on a sweep of floats") {
  for (std::uint64_t b = 0; b < 0x7f800000u; b += 4093) {
    float f = std::bit_cast<float>(std::uint32_t(b));
    INFO("float bits 0x" << std::hex << b);
    REQUIRE(f16::fromFloat(f) == f16Nearest(f));
  }
}

TEST_CASE("f16 NaN and infinity") {
  float inf = std::numeric_limits<float>::infinity();
  CHECK(f16(inf).bits == 0x7c00);
  CHECK(f16(-inf).bits == 0xfc00);
  CHECK(std::isinf(float(f16::fromBits(0x7c00))));
  CHECK(float(f16::fromBits(0xfc00)) < 0);
  f16 nan(std::numeric_limits<float>::quiet_NaN());
  CHECK((nan.bits & 0x7c00) == 0x7c00);
  CHECK((nan.bits & 0x3ff) != 0);
  CHECK(std::isnan(float(nan)));
  CHECK(std::isnan(float(f16::fromBits(0x7c01)))); // signalling stays NaN
  CHECK(std::isnan(float(f16(float(f16::fromBits(0x7c01))))));
}

TEST_CASE("every bf16 bit pattern converts to float and back") {
  for (std::uint32_t b = 0; b <= 0xffff; ++b) {
    auto bits = std::uint16_t(b);
    float f = bf16::toFloat(bits);
    INFO("bits 0x" << std::hex << b);
    REQUIRE(floatBits(f) == std::uint32_t(bits) << 16);
    if (std::isnan(f))
      REQUIRE(std::isnan(bf16::toFloat(bf16::fromFloat(f))));
    else
      REQUIRE(bf16::fromFloat(f) == bits);
  }
}

TEST_CASE("bf16 rounds to nearest even") {
  CHECK(bf16(1.0f).bits == 0x3f80);
  CHECK(bf16(1.0f + 0x1p-8f).bits == 0x3f80);            // tie, to even
  CHECK(bf16(1.0f + 3 * 0x1p-8f).bits == 0x3f82);        // tie, to even
  CHECK(bf16(1.0f + 0x1p-8f + 0x1p-20f).bits == 0x3f81); // above the tie
  CHECK(bf16(-3.0f).bits == 0xc040);
  CHECK(bf16(std::numeric_limits<float>::max()).bits == 0x7f80); // to inf
  CHECK(bf16(std::numeric_limits<float>::infinity()).bits == 0x7f80);
  CHECK(bf16(std::numeric_limits<float>::denorm_min()).bits == 0x0000);
  bf16 nan(std::numeric_limits<float>::quiet_NaN());
  CHECK(std::isnan(float(nan)));
  // A NaN whose payload lives only in the low bits must stay a NaN.
  float lowNaN = std::bit_cast<float>(std::uint32_t(0x7f800001));
  CHECK(std::isnan(float(bf16(lowNaN))));
}

TEST_CASE("8-bit floats: names, sizes and the formats' landmark codes") {
  CHECK(dtypeName(DType::F8E4M3FN) == "f8E4M3FN");
  CHECK(parseDType("f8E5M2FNUZ") == DType::F8E5M2FNUZ);
  CHECK(dtypeSize(DType::F8E5M2) == 1);
  CHECK(isFloat(DType::F8E4M3FNUZ));
  CHECK(isFloat8(DType::F8E4M3FN));
  CHECK(!isFloat8(DType::BF16));
  CHECK(dtypeOf<f8E5M2> == DType::F8E5M2);
  // The values the formats' definitions give (OCP FP8; the FNUZ variants).
  CHECK(float(f8E4M3FN::fromBits(0x7e)) == 448.0f);  // largest finite
  CHECK(float(f8E4M3FN::fromBits(0x01)) == 0x1p-9f); // smallest subnormal
  CHECK(float(f8E4M3FN::fromBits(0x08)) == 0x1p-6f); // smallest normal
  CHECK(std::isnan(float(f8E4M3FN::fromBits(0x7f))));
  CHECK(std::isnan(float(f8E4M3FN::fromBits(0xff))));
  CHECK(float(f8E5M2::fromBits(0x7b)) == 57344.0f);
  CHECK(float(f8E5M2::fromBits(0x7c)) == INFINITY);
  CHECK(float(f8E5M2::fromBits(0xfc)) == -INFINITY);
  CHECK(std::isnan(float(f8E5M2::fromBits(0x7d))));
  CHECK(float(f8E5M2::fromBits(0x01)) == 0x1p-16f);
  CHECK(float(f8E4M3FNUZ::fromBits(0x7f)) == 240.0f);
  CHECK(float(f8E4M3FNUZ::fromBits(0x01)) == 0x1p-10f);
  CHECK(std::isnan(float(f8E4M3FNUZ::fromBits(0x80))));
  CHECK(float(f8E5M2FNUZ::fromBits(0x7f)) == 57344.0f);
  CHECK(float(f8E5M2FNUZ::fromBits(0x01)) == 0x1p-17f);
  CHECK(std::isnan(float(f8E5M2FNUZ::fromBits(0x80))));
}

TEST_CASE("8-bit floats round to nearest even and overflow per format") {
  CHECK(f8E4M3FN(1.0).bits == 0x38);
  CHECK(f8E4M3FN(1.0625).bits == 0x38); // the tie below 1.125 goes to even
  CHECK(f8E4M3FN(1.1875).bits == 0x3a); // the tie above 1.125 goes to even
  CHECK(f8E4M3FN(464.0).bits == 0x7e);  // halfway past 448: even, 448
  CHECK(f8E4M3FN(465.0).bits == 0x7f);  // beyond: NaN (no infinity)
  CHECK(f8E4M3FN(-0.0).bits == 0x80);
  CHECK(f8E4M3FN(0x1p-10).bits == 0x00); // half the smallest: even, zero
  CHECK(f8E4M3FN(0x1.8p-9).bits == 0x02); // 1.5 subnormal steps: to 2
  CHECK(f8E5M2(61440.0).bits == 0x7c);    // halfway past 57344: infinity
  CHECK(f8E5M2(61439.0).bits == 0x7b);
  CHECK(f8E5M2(-INFINITY).bits == 0xfc);
  CHECK(f8E4M3FNUZ(-0.0).bits == 0x00); // no negative zero
  CHECK(f8E4M3FNUZ(248.0).bits == 0x80); // halfway past 240 rounds up: NaN
  CHECK(f8E4M3FNUZ(247.0).bits == 0x7f);
  CHECK(f8E5M2FNUZ(NAN).bits == 0x80);
  // Every code converts back to itself (NaNs to a NaN).
  auto roundTrips = [](auto tag) {
    using T = decltype(tag);
    for (int b = 0; b < 256; ++b) {
      float v = T::fromBits(std::uint8_t(b));
      std::uint8_t back = T(double(v)).bits;
      if (std::isnan(v))
        CHECK(std::isnan(float(T::fromBits(back))));
      else
        CHECK(back == b);
    }
  };
  roundTrips(f8E4M3FN{});
  roundTrips(f8E5M2{});
  roundTrips(f8E4M3FNUZ{});
  roundTrips(f8E5M2FNUZ{});
}

TEST_SUITE_END();
