//===- test_MemrefCopy.cpp - the runtime's strided memref copy ------------===//
#include "aot/abi/Runtime.h"

#include "aot/abi/MemRef.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

using namespace aot::abi;

namespace {

template <typename T, int R> void copy(MemRef<T, R> &src, MemRef<T, R> &dst) {
  UnrankedMemRef s{R, &src}, d{R, &dst};
  memrefCopy(sizeof(T), &s, &d);
}

template <typename T, int R>
MemRef<T, R> strided(T *base, std::int64_t offset,
                     const std::array<std::int64_t, R> &sizes,
                     const std::array<std::int64_t, R> &strides) {
  MemRef<T, R> m;
  m.allocated = m.aligned = base;
  m.offset = offset;
  for (int i = 0; i < R; ++i) {
    m.sizes[i] = sizes[i];
    m.strides[i] = strides[i];
  }
  return m;
}

/// Calls f(index) for every index of `sizes` in row-major order.
template <int R, typename F>
void forEachIndex(const std::array<std::int64_t, R> &sizes, F &&f) {
  for (std::int64_t s : sizes)
    if (s == 0)
      return;
  std::array<std::int64_t, R> idx{};
  while (true) {
    f(idx);
    int axis = R - 1;
    while (axis >= 0 && ++idx[axis] == sizes[axis])
      idx[axis--] = 0;
    if (axis < 0)
      return;
  }
}

std::vector<float> iota(std::size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

} // namespace

TEST_SUITE_BEGIN("MemrefCopy");

TEST_CASE("contiguous to contiguous") {
  auto src = iota(12), dst = std::vector<float>(12, -1);
  auto s = MemRef<float, 2>::contiguous(src.data(), {3, 4});
  auto d = MemRef<float, 2>::contiguous(dst.data(), {3, 4});
  copy(s, d);
  CHECK(dst == src);
}

TEST_CASE("a transposed source into a contiguous destination") {
  auto src = iota(6), dst = std::vector<float>(6, -1);
  auto s = strided<float, 2>(src.data(), 0, {3, 2}, {1, 3});
  auto d = MemRef<float, 2>::contiguous(dst.data(), {3, 2});
  copy(s, d);
  CHECK(dst == std::vector<float>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("offsets and padded rows on both sides") {
  // Source: a 2x3 window at (1, 2) of a 4x6 buffer. Destination: a 2x3
  // window at (0, 1) of a 3x5 buffer. Rows are dense, the outer dim is not.
  auto src = iota(24), dst = std::vector<float>(15, -1);
  auto s = strided<float, 2>(src.data(), 1 * 6 + 2, {2, 3}, {6, 1});
  auto d = strided<float, 2>(dst.data(), 1, {2, 3}, {5, 1});
  copy(s, d);
  CHECK(dst == std::vector<float>{-1, 8, 9, 10, -1,   //
                                  -1, 14, 15, 16, -1, //
                                  -1, -1, -1, -1, -1});
}

TEST_CASE("negative, zero and size-1 strides") {
  auto src = iota(4), dst = std::vector<float>(8, -1);
  auto reversed = strided<float, 1>(src.data(), 3, {4}, {-1});
  auto d = MemRef<float, 1>::contiguous(dst.data(), {4});
  copy(reversed, d);
  CHECK(dst == std::vector<float>{3, 2, 1, 0, -1, -1, -1, -1});

  auto broadcast = strided<float, 2>(src.data(), 1, {2, 4}, {0, 0});
  auto d2 = MemRef<float, 2>::contiguous(dst.data(), {2, 4});
  copy(broadcast, d2);
  CHECK(dst == std::vector<float>(8, 1));

  // Size-1 dimensions with odd strides are still one dense block.
  auto s3 = strided<float, 3>(src.data(), 0, {1, 4, 1}, {99, 1, 42});
  auto d3 = strided<float, 3>(dst.data(), 4, {1, 4, 1}, {7, 1, -3});
  copy(s3, d3);
  CHECK(dst == std::vector<float>{1, 1, 1, 1, 0, 1, 2, 3});
}

TEST_CASE("rank 0 copies one element through the offsets") {
  double src[3] = {1, 2, 3}, dst[2] = {0, 0};
  auto s = MemRef<double, 0>::contiguous(src);
  s.offset = 2;
  auto d = MemRef<double, 0>::contiguous(dst);
  d.offset = 1;
  copy(s, d);
  CHECK(dst[0] == 0);
  CHECK(dst[1] == 3);
}

TEST_CASE("empty shapes copy nothing") {
  std::vector<float> dst(4, -1);
  auto s = MemRef<float, 2>::contiguous(nullptr, {0, 4});
  auto d = MemRef<float, 2>::contiguous(dst.data(), {0, 4});
  copy(s, d);
  auto s2 = MemRef<float, 3>::contiguous(nullptr, {2, 0, 2});
  auto d2 = MemRef<float, 3>::contiguous(dst.data(), {2, 0, 2});
  copy(s2, d2);
  CHECK(dst == std::vector<float>(4, -1));
}

TEST_CASE("element sizes other than 4") {
  struct Wide {
    std::int64_t a, b;
  };
  Wide src[3] = {{1, 2}, {3, 4}, {5, 6}}, dst[3] = {};
  auto s = strided<Wide, 1>(src, 2, {3}, {-1});
  auto d = MemRef<Wide, 1>::contiguous(dst, {3});
  copy(s, d);
  CHECK(dst[0].a == 5);
  CHECK(dst[2].b == 2);

  std::uint8_t bytes[6] = {1, 2, 3, 4, 5, 6}, out[6] = {};
  auto bs = strided<std::uint8_t, 2>(bytes, 0, {3, 2}, {1, 3});
  auto bd = MemRef<std::uint8_t, 2>::contiguous(out, {3, 2});
  copy(bs, bd);
  CHECK(out[1] == 4);
  CHECK(out[5] == 6);
}

TEST_CASE("random layouts agree with an element-by-element copy") {
  std::mt19937 rng(7);
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  constexpr int R = 4;
  for (int round = 0; round < 500; ++round) {
    std::array<std::int64_t, R> sizes;
    for (auto &s : sizes)
      s = pick(4); // includes 0 sometimes
    // A random layout: a permutation of dense strides, each maybe negated,
    // maybe padded, maybe zero (for the source only).
    auto layout = [&](bool allowZero, std::int64_t &offset) {
      std::array<int, R> perm = {0, 1, 2, 3};
      std::shuffle(perm.begin(), perm.end(), rng);
      std::array<std::int64_t, R> strides;
      std::int64_t stride = 1 + pick(2);
      for (int k = R - 1; k >= 0; --k) {
        int dim = perm[std::size_t(k)];
        strides[std::size_t(dim)] = stride;
        stride *= std::max<std::int64_t>(sizes[std::size_t(dim)], 1) + pick(2);
      }
      offset = 0;
      for (int i = 0; i < R; ++i) {
        if (allowZero && pick(6) == 0)
          strides[std::size_t(i)] = 0;
        if (pick(3) == 0) {
          strides[std::size_t(i)] = -strides[std::size_t(i)];
          offset += -strides[std::size_t(i)] *
                    std::max<std::int64_t>(sizes[std::size_t(i)] - 1, 0);
        }
      }
      offset += pick(3);
      return std::pair{strides, stride + offset + 3};
    };
    std::int64_t srcOffset, dstOffset;
    auto [srcStrides, srcSpan] = layout(true, srcOffset);
    auto [dstStrides, dstSpan] = layout(false, dstOffset);
    auto src = iota(std::size_t(srcSpan), 100);
    std::vector<float> dst(std::size_t(dstSpan), -1), want = dst;
    auto s = strided<float, R>(src.data(), srcOffset, sizes, srcStrides);
    auto d = strided<float, R>(dst.data(), dstOffset, sizes, dstStrides);
    auto w = strided<float, R>(want.data(), dstOffset, sizes, dstStrides);
    forEachIndex<R>(sizes, [&](const auto &idx) { w[idx] = s[idx]; });
    copy(s, d);
    INFO("round " << round);
    REQUIRE(dst == want);
  }
}

TEST_SUITE_END();
