//===- test_Tensor.cpp - type-erased shared-ownership tensors -------------===//
#include "aot/abi/Tensor.h"

#include "TestSupport.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace aot::abi;

TEST_SUITE_BEGIN("Tensor");

TEST_CASE("zeros owns zero-filled contiguous memory") {
  Tensor t = Tensor::zeros(DType::I32, {2, 3});
  CHECK(t.dtype() == DType::I32);
  CHECK(t.rank() == 2);
  CHECK(t.shape() == std::vector<std::int64_t>{2, 3});
  CHECK(t.strides() == std::vector<std::int64_t>{3, 1});
  CHECK(t.numElements() == 6);
  CHECK(t.elementSize() == 4);
  CHECK(t.ownsMemory());
  CHECK(t.isContiguous());
  for (int i = 0; i < 6; ++i)
    CHECK(t.data<std::int32_t>()[i] == 0);
}

TEST_CASE("zeros of rank 0 and of empty shapes") {
  Tensor scalar = Tensor::zeros(DType::F64, {});
  CHECK(scalar.rank() == 0);
  CHECK(scalar.numElements() == 1);
  CHECK(*scalar.data<double>() == 0.0);
  Tensor empty = Tensor::zeros(DType::F32, {3, 0});
  CHECK(empty.numElements() == 0);
  CHECK(empty.rawData() != nullptr);
  CHECK(empty.contiguous().numElements() == 0);
}

TEST_CASE("zeros rejects negative and overflowing shapes") {
  CHECK_ERROR_CONTAINS(Tensor::zeros(DType::F32, {2, -1}), "negative");
  CHECK_ERROR_CONTAINS(Tensor::zeros(DType::F32, {1LL << 40, 1LL << 40}),
                       "too many elements");
  CHECK_ERROR_CONTAINS(Tensor::zeros(DType::F64, {1LL << 61}), "too large");
}

TEST_CASE("copies share memory; the last copy releases it") {
  std::weak_ptr<void> watch;
  {
    Tensor a = Tensor::zeros(DType::F32, {4});
    watch = a.owner();
    Tensor b = a;
    b.data<float>()[2] = 7.0f;
    CHECK(a.data<float>()[2] == 7.0f);
    CHECK(a.owner().use_count() == 2);
  }
  CHECK(watch.expired());
}

TEST_CASE("borrow and view do not own") {
  std::vector<std::int16_t> data = {1, 2, 3, 4, 5, 6};
  Tensor t = Tensor::borrow(data.data(), {2, 3});
  CHECK(!t.ownsMemory());
  CHECK(t.dtype() == DType::I16);
  CHECK(t.rawData() == data.data());
  CHECK(*static_cast<std::int16_t *>(t.elementAt(4)) == 5);

  CHECK_ERROR_CONTAINS(Tensor::view(DType::I16, data.data(), {2, 3}, {1}),
                       "1 strides for rank 2");
}

TEST_CASE("typed access checks the dtype") {
  Tensor t = Tensor::zeros(DType::F32, {1});
  CHECK_ERROR_CONTAINS(t.data<double>(), "holds f32, not f64");
  CHECK_NOTHROW(t.data<float>());
}

TEST_CASE("elementAt follows strides; contiguous() copies in row-major order") {
  // The transpose of a 2x3 row-major buffer: a 3x2 view with strides {1, 3}.
  std::vector<float> data = {0, 1, 2, 3, 4, 5};
  Tensor t = Tensor::view(DType::F32, data.data(), {3, 2}, {1, 3});
  CHECK(!t.isContiguous());
  const float want[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i)
    CHECK(*static_cast<float *>(t.elementAt(i)) == want[i]);
  Tensor c = t.contiguous();
  CHECK(c.isContiguous());
  CHECK(c.ownsMemory());
  CHECK(c.rawData() != data.data());
  for (int i = 0; i < 6; ++i)
    CHECK(c.data<float>()[i] == want[i]);
}

TEST_CASE("contiguous() of an owning contiguous tensor shares it") {
  Tensor t = Tensor::zeros(DType::U8, {5});
  Tensor c = t.contiguous();
  CHECK(c.rawData() == t.rawData());
  // A borrowed tensor is copied so the result owns its memory.
  std::uint8_t bytes[2] = {1, 2};
  Tensor b = Tensor::borrow(bytes, {2});
  Tensor bc = b.contiguous();
  CHECK(bc.ownsMemory());
  CHECK(bc.rawData() != static_cast<void *>(bytes));
  CHECK(bc.data<std::uint8_t>()[1] == 2);
}

TEST_CASE("shape helpers") {
  CHECK(shapeString({}) == "[]");
  CHECK(shapeString({2, -1, 4}) == "[2, ?, 4]");
  CHECK(contiguousStrides({2, 3, 4}) == std::vector<std::int64_t>{12, 4, 1});
  CHECK(numElementsOf({}) == 1);
  CHECK(checkedNumElements({3, 5}, 8, "x") == 15);
  CHECK_ERROR_CONTAINS(checkedNumElements({3, -5}, 8, "input 'x'"), "input 'x'",
                       "[3, -5]", "negative");
}

TEST_SUITE_END();
