//===- test_Compare.cpp - NaN-aware numerical comparison ------------------===//
#include "aot/abi/Compare.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace aot::abi;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// A contiguous tensor of T of the given shape holding `values`, converted.
template <typename T>
Tensor tensorOf(const std::vector<double> &values,
                std::vector<std::int64_t> shape) {
  Tensor t = Tensor::zeros(dtypeOf<T>, std::move(shape));
  for (std::size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_same_v<T, f16> || std::is_same_v<T, bf16>)
      t.data<T>()[i] = T(float(values[i]));
    else
      t.data<T>()[i] = T(values[i]);
  }
  return t;
}

/// The same, of shape {values.size()}.
template <typename T> Tensor tensorOf(const std::vector<double> &values) {
  return tensorOf<T>(values, {std::int64_t(values.size())});
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

} // namespace

TEST_SUITE_BEGIN("Compare");

TEST_CASE("equal tensors match") {
  Tensor a = tensorOf<float>({1, 2, 3});
  Comparison c = compare(a, a);
  CHECK(c.ok);
  CHECK(bool(c));
  CHECK(c.mismatches == 0);
  CHECK(c.firstIndex.empty());
  CHECK(c.maxAbsError == 0);
  CHECK(contains(c.message, "all 3 elements of f32 [3] match"));
}

TEST_CASE("dtype and shape must agree") {
  Comparison c = compare(tensorOf<float>({1, 2}), tensorOf<double>({1, 2}));
  CHECK(!c.ok);
  CHECK(c.mismatches == 0);
  CHECK(c.message == "dtype mismatch: actual f32, expected f64");
  c = compare(tensorOf<float>({1, 2, 3, 4}, {2, 2}),
              tensorOf<float>({1, 2, 3, 4}, {4}));
  CHECK(!c.ok);
  CHECK(c.message == "shape mismatch: actual [2, 2], expected [4]");
  c = compare(tensorOf<float>({1}), tensorOf<std::int32_t>({1, 2}));
  CHECK(contains(c.message, "dtype mismatch"));
  CHECK(contains(c.message, "shape mismatch: actual [1], expected [2]"));
}

TEST_CASE("NaN equals NaN only where both are NaN") {
  Tolerance loose{1.0, 1.0, 1000};
  CHECK(compare(tensorOf<float>({kNaN, 1}), tensorOf<float>({kNaN, 1})).ok);
  CHECK(compare(tensorOf<double>({-kNaN}), tensorOf<double>({kNaN})).ok);
  Comparison c =
      compare(tensorOf<float>({1, kNaN}), tensorOf<float>({1, 2}), loose);
  CHECK(!c.ok);
  CHECK(c.firstIndex == std::vector<std::int64_t>{1});
  CHECK(contains(c.message, "actual nan, expected 2"));
  c = compare(tensorOf<float>({2}), tensorOf<float>({kNaN}), loose);
  CHECK(!c.ok);
  CHECK(std::isnan(c.expected));
  CHECK(compare(tensorOf<f16>({kNaN}), tensorOf<f16>({kNaN})).ok);
  CHECK(!compare(tensorOf<bf16>({kNaN}), tensorOf<bf16>({0})).ok);
}

TEST_CASE("infinities must equal the same-signed infinity") {
  Tolerance loose{1.0, 1e300, 1 << 30};
  CHECK(compare(tensorOf<float>({kInf, -kInf}), tensorOf<float>({kInf, -kInf}))
            .ok);
  CHECK(!compare(tensorOf<float>({kInf}), tensorOf<float>({-kInf}), loose).ok);
  // The largest float is one ULP from infinity, still not equal to it.
  double big = std::numeric_limits<float>::max();
  CHECK(!compare(tensorOf<float>({kInf}), tensorOf<float>({big}), loose).ok);
  CHECK(!compare(tensorOf<float>({big}), tensorOf<float>({kInf}), loose).ok);
  CHECK(!compare(tensorOf<double>({kNaN}), tensorOf<double>({kInf}), loose).ok);
  // Infinities do not make the error statistics infinite.
  Comparison c = compare(tensorOf<float>({kInf, 1.5}),
                         tensorOf<float>({kInf, 1.0}), loose);
  CHECK(c.ok);
  CHECK(c.maxAbsError == 0.5);
}

TEST_CASE("absolute and relative tolerance, numpy.isclose style") {
  Tolerance tol{0.1, 0.01, -1};
  // |a - e| <= atol + rtol * |e|: bound 0.01 + 0.1 * 10 = 1.01.
  CHECK(compare(tensorOf<double>({11.0}), tensorOf<double>({10.0}), tol).ok);
  CHECK(compare(tensorOf<double>({11.01}), tensorOf<double>({10.0}), tol).ok ==
        (std::fabs(11.01 - 10.0) <= 0.01 + 0.1 * 10.0));
  CHECK(!compare(tensorOf<double>({11.02}), tensorOf<double>({10.0}), tol).ok);
  // Relative to the expected value, not symmetric: e = 11 allows 1.11.
  CHECK(compare(tensorOf<double>({9.9}), tensorOf<double>({11.0}), tol).ok);
  // Near zero only atol counts.
  CHECK(compare(tensorOf<double>({0.01}), tensorOf<double>({0.0}), tol).ok);
  CHECK(!compare(tensorOf<double>({0.0101}), tensorOf<double>({0.0}), tol).ok);
  // Zero tolerance: exact.
  Tolerance exact{0, 0, -1};
  CHECK(compare(tensorOf<float>({0.1}), tensorOf<float>({0.1}), exact).ok);
  CHECK(!compare(tensorOf<float>({std::nextafter(0.1f, 1.0f)}),
                 tensorOf<float>({0.1}), exact)
             .ok);
  // -0 and +0 are equal.
  CHECK(compare(tensorOf<float>({-0.0}), tensorOf<float>({0.0}), exact).ok);
  // Default tolerance is rtol 1e-5, atol 1e-6.
  CHECK(compare(tensorOf<double>({1.000009}), tensorOf<double>({1.0})).ok);
  CHECK(!compare(tensorOf<double>({1.00002}), tensorOf<double>({1.0})).ok);
}

TEST_CASE("ULP distance in the element's own format") {
  Tolerance ulp2{0, 0, 2};
  float one = 1.0f;
  float up2 = std::nextafter(std::nextafter(one, 2.0f), 2.0f);
  float up3 = std::nextafter(up2, 2.0f);
  CHECK(compare(tensorOf<float>({up2}), tensorOf<float>({one}), ulp2).ok);
  CHECK(!compare(tensorOf<float>({up3}), tensorOf<float>({one}), ulp2).ok);
  // Across zero: the smallest subnormals either side are 2 ULPs apart.
  double tiny = std::numeric_limits<float>::denorm_min();
  CHECK(compare(tensorOf<float>({-tiny}), tensorOf<float>({tiny}), ulp2).ok);
  CHECK(!compare(tensorOf<float>({-tiny}), tensorOf<float>({tiny}),
                 Tolerance{0, 0, 1})
             .ok);
  // f64: 1 ULP at 1.0 is 2^-52.
  CHECK(compare(tensorOf<double>({1.0 + 0x1p-52}), tensorOf<double>({1.0}),
                Tolerance{0, 0, 1})
            .ok);
  CHECK(!compare(tensorOf<double>({1.0 + 0x1p-51}), tensorOf<double>({1.0}),
                 Tolerance{0, 0, 1})
             .ok);
  // Opposite extremes of f64 do not overflow the distance.
  double dmax = std::numeric_limits<double>::max();
  CHECK(!compare(tensorOf<double>({-dmax}), tensorOf<double>({dmax}),
                 Tolerance{0, 0, std::numeric_limits<std::int64_t>::max()})
             .ok);
  // f16: 1 ULP at 1.0 is 2^-10, far more than any f32 ULP.
  Tensor a = Tensor::zeros(DType::F16, {1}), e = Tensor::zeros(DType::F16, {1});
  a.data<f16>()[0] = f16::fromBits(0x3c01);
  e.data<f16>()[0] = f16::fromBits(0x3c00);
  CHECK(compare(a, e, Tolerance{0, 0, 1}).ok);
  CHECK(!compare(a, e, Tolerance{0, 0, 0}).ok);
  a.data<f16>()[0] = f16::fromBits(0x3c02);
  CHECK(!compare(a, e, Tolerance{0, 0, 1}).ok);
  // bf16: 1 ULP at 1.0 is 2^-7.
  Tensor b = Tensor::zeros(DType::BF16, {1}),
         be = Tensor::zeros(DType::BF16, {1});
  b.data<bf16>()[0] = bf16::fromBits(0x3f81);
  be.data<bf16>()[0] = bf16::fromBits(0x3f80);
  CHECK(compare(b, be, Tolerance{0, 0, 1}).ok);
  CHECK(!compare(b, be, Tolerance{0, 0, -1}).ok);
  CHECK(compare(b, be, Tolerance{0.01, 0, -1}).ok); // 2^-7 < 1%
  // Either rule suffices.
  CHECK(compare(tensorOf<float>({up3}), tensorOf<float>({one}),
                Tolerance{1e-6, 0, 0})
            .ok);
}

TEST_CASE("integers and bools compare exactly") {
  Tolerance loose{1.0, 100.0, 100};
  CHECK(!compare(tensorOf<std::int32_t>({1, 2}), tensorOf<std::int32_t>({1, 3}),
                 loose)
             .ok);
  CHECK(compare(tensorOf<std::int8_t>({-5}), tensorOf<std::int8_t>({-5})).ok);
  Tensor big = Tensor::zeros(DType::U64, {1}),
         big2 = Tensor::zeros(DType::U64, {1});
  big.data<std::uint64_t>()[0] = 18446744073709551615ULL;
  big2.data<std::uint64_t>()[0] = 18446744073709551614ULL; // same as double
  Comparison c = compare(big, big2, loose);
  CHECK(!c.ok);
  CHECK(contains(c.message, "actual 18446744073709551615, expected "
                            "18446744073709551614"));
  CHECK(contains(c.message, "(exact)"));
  Tensor i64 = Tensor::zeros(DType::I64, {1}),
         i64b = Tensor::zeros(DType::I64, {1});
  i64.data<std::int64_t>()[0] = std::numeric_limits<std::int64_t>::min();
  CHECK(!compare(i64, i64b).ok);
  bool t[2] = {true, false}, f[2] = {true, true};
  c = compare(Tensor::borrow(t, {2}), Tensor::borrow(f, {2}));
  CHECK(!c.ok);
  CHECK(contains(c.message, "actual false, expected true"));
  CHECK(compare(Tensor::borrow(t, {2}), Tensor::borrow(t, {2})).ok);
}

TEST_CASE("the report names the first mismatch, the count and the errors") {
  Tensor a = tensorOf<float>({0, 1, 2, 3, 4, 5}, {2, 3});
  Tensor e = tensorOf<float>({0, 1, 2.5, 3, 4, 1}, {2, 3});
  Comparison c = compare(a, e, Tolerance{0, 0.1, -1});
  CHECK(!c.ok);
  CHECK(c.mismatches == 2);
  CHECK(c.firstIndex == std::vector<std::int64_t>{0, 2});
  CHECK(c.actual == 2.0);
  CHECK(c.expected == 2.5);
  CHECK(c.maxAbsError == 4.0);
  CHECK(c.maxRelError == 4.0);
  CHECK(c.message ==
        "2 of 6 elements of f32 [2, 3] differ (rtol 0, atol 0.1); first at "
        "[0, 2]: actual 2, expected 2.5; max abs error 4, max rel error 4");
  c = compare(tensorOf<float>({1}), tensorOf<float>({2}),
              Tolerance{1e-5, 1e-6, 4});
  CHECK(contains(c.message, "rtol 1e-05, atol 1e-06, ulp 4"));
  // Relative error against an expected 0 is infinite.
  c = compare(tensorOf<double>({0.5}), tensorOf<double>({0}),
              Tolerance{0, 1, -1});
  CHECK(c.ok);
  CHECK(std::isinf(c.maxRelError));
  // Values are printed with enough digits to tell them apart.
  c = compare(tensorOf<double>({0.1 + 1e-15}), tensorOf<double>({0.1}),
              Tolerance{0, 0, -1});
  CHECK(contains(c.message, "actual 0.100000000000001, expected "
                            "0.10000000000000001"));
}

TEST_CASE("any strides, rank 0 and empty tensors") {
  std::vector<float> data = {0, 1, 2, 3, 4, 5};
  Tensor transposed = Tensor::view(DType::F32, data.data(), {3, 2}, {1, 3});
  Tensor dense = tensorOf<float>({0, 3, 1, 4, 2, 5}, {3, 2});
  CHECK(compare(transposed, dense).ok);
  Comparison c =
      compare(dense, Tensor::view(DType::F32, data.data(), {3, 2}, {2, 1}));
  CHECK(!c.ok);
  CHECK(c.firstIndex == std::vector<std::int64_t>{0, 1});
  Tensor s1 = tensorOf<double>({1.5}, {}), s2 = tensorOf<double>({2.5}, {});
  CHECK(s1.rank() == 0);
  c = compare(s1, s2);
  CHECK(!c.ok);
  CHECK(c.firstIndex.empty());
  CHECK(contains(c.message, "first at []"));
  CHECK(compare(Tensor::zeros(DType::F32, {0, 4}),
                Tensor::zeros(DType::F32, {0, 4}))
            .ok);
}

TEST_SUITE_END();
