//===- NpzReference.h - the arrays of the .npz round-trip tests -----------===//
//
// The same formulas as npz_reference.py, computed independently here: every
// element is a function of its flat row-major index i.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Compare.h"
#include "aot/abi/Npy.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <string>

namespace aot::abi::test {

template <typename T>
Tensor fill(std::vector<std::int64_t> shape,
            const std::function<T(std::int64_t)> &f) {
  Tensor t = Tensor::zeros(dtypeOf<T>, std::move(shape));
  for (std::int64_t i = 0; i < t.numElements(); ++i)
    t.data<T>()[i] = f(i);
  return t;
}

/// Key -> tensor, as npz_reference.reference_arrays(); "bf16_bits" is a BF16
/// tensor here (numpy holds its bits as uint16).
inline std::map<std::string, Tensor> npzReference() {
  using I = std::int64_t;
  std::map<std::string, Tensor> r;
  r["bool"] = fill<bool>({2, 3}, [](I i) { return i % 3 == 1; });
  r["int8"] = fill<std::int8_t>(
      {5}, [](I i) { return std::int8_t((i * 37) % 256 - 128); });
  r["int16"] = fill<std::int16_t>(
      {2, 2, 2}, [](I i) { return std::int16_t((i * 9973) % 65536 - 32768); });
  r["int32"] = fill<std::int32_t>(
      {3, 4}, [](I i) { return std::int32_t(i * 123456789 - 1000000000); });
  r["int64"] = fill<std::int64_t>(
      {2, 3, 1, 2}, [](I i) { return i * 1000000000007LL - (I(1) << 62); });
  r["uint8"] = fill<std::uint8_t>(
      {7}, [](I i) { return std::uint8_t((i * 59 + 3) % 256); });
  r["uint16"] = fill<std::uint16_t>(
      {3, 3}, [](I i) { return std::uint16_t((i * 4099 + 17) % 65536); });
  r["uint32"] = fill<std::uint32_t>({4}, [](I i) {
    return std::uint32_t((i * 2654435761LL) % (I(1) << 32));
  });
  r["uint64"] = fill<std::uint64_t>({2, 2}, [](I i) {
    return (std::uint64_t(1) << 63) + std::uint64_t(i) * 12345678901234567ULL;
  });
  r["float16"] =
      fill<f16>({3, 2}, [](I i) { return f16(float(double(i - 2) * 0.375)); });
  r["float32"] =
      fill<float>({2, 3, 4}, [](I i) { return float(double(i - 7) * 0.1); });
  r["float64"] =
      fill<double>({}, [](I i) { return (double(i) * 0.5 - 3) / 7.0; });
  r["bf16_bits"] =
      fill<bf16>({2, 4}, [](I i) { return bf16(float(double(i - 3) * 0.5)); });
  r["add/arg0"] =
      fill<float>({2, 2, 2, 3}, [](I i) { return float(double(i) / 8 - 1); });
  r["empty"] = Tensor::zeros(DType::F32, {0, 3});
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            -0.0f,
                            std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::max()};
  r["specials"] = fill<float>({6}, [&](I i) { return specials[i]; });
  return r;
}

/// Checks that `got` holds exactly the reference arrays: same keys, dtypes,
/// shapes and bit-identical values; "bf16_bits", read from a file, is U16
/// holding the bits of the BF16 reference.
inline void checkMatchesReference(const std::map<std::string, Tensor> &got,
                                  const std::string &what) {
  auto want = npzReference();
  std::vector<std::string> gotKeys, wantKeys;
  for (const auto &kv : got)
    gotKeys.push_back(kv.first);
  for (const auto &kv : want)
    wantKeys.push_back(kv.first);
  INFO(what);
  REQUIRE(gotKeys == wantKeys);
  for (const auto &[key, expected] : want) {
    INFO("key " << key);
    Tensor actual = got.at(key);
    if (key == "bf16_bits") {
      REQUIRE(actual.dtype() == DType::U16);
      actual = reinterpret(actual, DType::BF16);
    }
    REQUIRE(actual.dtype() == expected.dtype());
    REQUIRE(actual.shape() == expected.shape());
    Comparison c = compare(actual, expected, {0, 0, -1});
    CHECK_MESSAGE(c.ok, c.message);
    std::size_t bytes =
        std::size_t(expected.numElements()) * expected.elementSize();
    Tensor dense = actual.contiguous();
    CHECK(std::memcmp(dense.rawData(), expected.rawData(), bytes) == 0);
  }
}

} // namespace aot::abi::test
