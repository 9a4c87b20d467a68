//===- test_MemRef.cpp - descriptor layout and strided indexing -----------===//
#include "aot/abi/MemRef.h"

#include "aot/abi/DType.h"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

using namespace aot::abi;

namespace {

/// The layout MLIR's StridedMemRefType<T, R> has on a 64-bit target:
/// two pointers, the offset, then R sizes and R strides, no padding.
template <typename T, int R> void checkLayout() {
  using M = MemRef<T, R>;
  static_assert(std::is_standard_layout_v<M>);
  static_assert(std::is_trivially_copyable_v<M>);
  CHECK(offsetof(M, allocated) == 0);
  CHECK(offsetof(M, aligned) == 8);
  CHECK(offsetof(M, offset) == 16);
  if constexpr (R > 0) {
    CHECK(offsetof(M, sizes) == 24);
    CHECK(offsetof(M, strides) == 24 + 8 * R);
  }
  CHECK(sizeof(M) == 24 + 16 * R);
  CHECK(alignof(M) == 8);
}

template <typename T> void checkAllRanks() {
  checkLayout<T, 0>();
  checkLayout<T, 1>();
  checkLayout<T, 2>();
  checkLayout<T, 3>();
  checkLayout<T, 4>();
  checkLayout<T, 7>();
}

} // namespace

TEST_SUITE_BEGIN("MemRef");

TEST_CASE("layout matches MLIR's StridedMemRefType for every dtype and rank") {
  checkAllRanks<bool>();
  checkAllRanks<std::int8_t>();
  checkAllRanks<std::int64_t>();
  checkAllRanks<std::uint16_t>();
  checkAllRanks<f16>();
  checkAllRanks<bf16>();
  checkAllRanks<float>();
  checkAllRanks<double>();
}

TEST_CASE("contiguous views are row-major") {
  std::vector<float> data(24);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = float(i);
  auto m = MemRef<float, 3>::contiguous(data.data(), {2, 3, 4});
  CHECK(m.allocated == data.data());
  CHECK(m.aligned == data.data());
  CHECK(m.offset == 0);
  CHECK(m.sizes[0] == 2);
  CHECK(m.sizes[2] == 4);
  CHECK(m.strides[0] == 12);
  CHECK(m.strides[1] == 4);
  CHECK(m.strides[2] == 1);
  CHECK(m.numElements() == 24);
  CHECK(m[{1, 2, 3}] == 23.0f);
  CHECK(m[{0, 1, 2}] == 6.0f);
  m[{1, 0, 0}] = -1.0f;
  CHECK(data[12] == -1.0f);
}

TEST_CASE("offset and strides address a strided subview") {
  // A 3x2 window starting at (1, 1) of a 4x5 buffer, read transposed:
  // element [i][j] of the view is buffer[1 + j][1 + i].
  std::vector<std::int32_t> data(20);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = std::int32_t(i);
  MemRef<std::int32_t, 2> m;
  m.allocated = m.aligned = data.data();
  m.offset = 1 * 5 + 1;
  m.sizes[0] = 3;
  m.sizes[1] = 2;
  m.strides[0] = 1;
  m.strides[1] = 5;
  CHECK(m.numElements() == 6);
  for (std::int64_t i = 0; i < 3; ++i)
    for (std::int64_t j = 0; j < 2; ++j)
      CHECK(m[{i, j}] == data[std::size_t((1 + j) * 5 + (1 + i))]);
}

TEST_CASE("negative and zero strides") {
  std::vector<double> data = {0, 1, 2, 3, 4};
  MemRef<double, 1> reversed;
  reversed.allocated = reversed.aligned = data.data();
  reversed.offset = 4;
  reversed.sizes[0] = 5;
  reversed.strides[0] = -1;
  CHECK(reversed[{0}] == 4);
  CHECK(reversed[{4}] == 0);

  MemRef<double, 2> broadcast; // a row repeated three times
  broadcast.allocated = broadcast.aligned = data.data();
  broadcast.sizes[0] = 3;
  broadcast.sizes[1] = 5;
  broadcast.strides[0] = 0;
  broadcast.strides[1] = 1;
  CHECK(broadcast[{2, 3}] == 3);
}

TEST_CASE("rank 0 has no sizes and reads through the offset") {
  double values[3] = {1.5, 2.5, 3.5};
  auto m = MemRef<double, 0>::contiguous(values);
  CHECK(m.numElements() == 1);
  CHECK(m[{}] == 1.5);
  m.offset = 2;
  CHECK(m[{}] == 3.5);
  static_assert(MemRef<double, 0>::rank == 0);
}

TEST_CASE("zero-size dimensions") {
  auto m = MemRef<float, 2>::contiguous(nullptr, {0, 7});
  CHECK(m.numElements() == 0);
  CHECK(m.strides[0] == 7);
  CHECK(m.strides[1] == 1);
}

TEST_SUITE_END();
