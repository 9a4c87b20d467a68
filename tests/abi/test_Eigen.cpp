//===- test_Eigen.cpp - Eigen TensorMap views -----------------------------===//
#include "aot/abi/Eigen.h"

#include "TestSupport.h"

#include <doctest/doctest.h>

#include <type_traits>
#include <vector>

using namespace aot::abi;

TEST_SUITE_BEGIN("Eigen");

TEST_CASE("a contiguous memref is viewed without copying") {
  std::vector<float> data(24);
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = float(i);
  auto m = MemRef<float, 3>::contiguous(data.data(), {2, 3, 4});
  auto e = asEigen(m);
  static_assert(std::is_same_v<
                decltype(e),
                Eigen::TensorMap<Eigen::Tensor<float, 3, Eigen::RowMajor>>>);
  CHECK(e.data() == data.data());
  CHECK(e.dimension(0) == 2);
  CHECK(e.dimension(2) == 4);
  CHECK(e(1, 2, 3) == 23.0f);
  CHECK(e(0, 1, 0) == 4.0f);
  e(1, 0, 0) = -5.0f;
  CHECK(data[12] == -5.0f);
  Eigen::Tensor<float, 0, Eigen::RowMajor> sum = e.sum();
  CHECK(sum() == doctest::Approx(276.0 - 12.0 - 5.0));
}

TEST_CASE("the offset selects the first element") {
  std::vector<double> data = {9, 9, 1, 2, 3, 4};
  auto m = MemRef<double, 2>::contiguous(data.data(), {2, 2});
  m.offset = 2;
  auto e = asEigen(m);
  CHECK(e(0, 0) == 1.0);
  CHECK(e(1, 1) == 4.0);
}

TEST_CASE("rank 0") {
  double value = 2.5;
  auto m = MemRef<double, 0>::contiguous(&value);
  auto e = asEigen(m);
  CHECK(e() == 2.5);
  Tensor t = Tensor::borrow(&value, {});
  CHECK(asEigen<double, 0>(t)() == 2.5);
}

TEST_CASE("a size-1 dimension may have any stride; empty is fine") {
  std::vector<std::int32_t> data = {1, 2, 3};
  MemRef<std::int32_t, 2> m =
      MemRef<std::int32_t, 2>::contiguous(data.data(), {1, 3});
  m.strides[0] = 12345;
  CHECK(asEigen(m)(0, 2) == 3);
  MemRef<std::int32_t, 2> empty =
      MemRef<std::int32_t, 2>::contiguous(nullptr, {0, 3});
  empty.strides[1] = 7;
  CHECK(asEigen(empty).size() == 0);
}

TEST_CASE("non-contiguous input is an Error") {
  std::vector<float> data(6);
  MemRef<float, 2> transposed;
  transposed.allocated = transposed.aligned = data.data();
  transposed.sizes[0] = 3;
  transposed.sizes[1] = 2;
  transposed.strides[0] = 1;
  transposed.strides[1] = 3;
  CHECK_ERROR_CONTAINS(asEigen(transposed), "not dense row-major");
  Tensor t = Tensor::view(DType::F32, data.data(), {3, 2}, {1, 3});
  CHECK_ERROR_CONTAINS((asEigen<float, 2>(t)), "[3, 2]", "not dense row-major");
  // The contiguous copy can be viewed.
  CHECK((asEigen<float, 2>(t.contiguous()).dimension(0)) == 3);
}

TEST_CASE("Tensor views check dtype and rank") {
  Tensor t = Tensor::zeros(DType::I64, {2, 5});
  t.data<std::int64_t>()[7] = 70;
  auto e = asEigen<std::int64_t, 2>(t);
  CHECK(e(1, 2) == 70);
  CHECK_ERROR_CONTAINS((asEigen<std::int32_t, 2>(t)), "holds i64, not i32");
  CHECK_ERROR_CONTAINS((asEigen<std::int64_t, 3>(t)), "rank 2, not 3");
}

TEST_CASE("f16 and bf16 are viewed as Eigen::half and Eigen::bfloat16") {
  Tensor h = Tensor::zeros(DType::F16, {2});
  h.data<f16>()[0] = f16(1.5f);
  h.data<f16>()[1] = f16(-0.25f);
  auto eh = asEigen<f16, 1>(h);
  static_assert(std::is_same_v<decltype(eh)::Scalar, Eigen::half>);
  CHECK(float(eh(0)) == 1.5f);
  Eigen::Tensor<Eigen::half, 0, Eigen::RowMajor> s = eh.sum();
  CHECK(float(s()) == 1.25f);
  eh(1) = Eigen::half(3.0f);
  CHECK(float(h.data<f16>()[1]) == 3.0f);

  std::vector<bf16> raw = {bf16(2.0f), bf16(4.0f)};
  auto m = MemRef<bf16, 1>::contiguous(raw.data(), {2});
  auto eb = asEigen(m);
  static_assert(std::is_same_v<decltype(eb)::Scalar, Eigen::bfloat16>);
  CHECK(float(eb(1)) == 4.0f);
}

TEST_CASE("bool tensors") {
  bool flags[3] = {true, false, true};
  Tensor t = Tensor::borrow(flags, {3});
  auto e = asEigen<bool, 1>(t);
  CHECK(e(0));
  CHECK(!e(1));
}

TEST_SUITE_END();
