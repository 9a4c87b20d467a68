//===- test_Owned.cpp - typed owning results ------------------------------===//
#include "aot/abi/Owned.h"

#include "TestSupport.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <map>
#include <vector>

using namespace aot::abi;
using aot::abi::test::countingRelease;
using aot::abi::test::releases;

namespace {


/// A malloc'ed contiguous memref, as compiled code returns it.
template <typename T, int R>
MemRef<T, R> mallocResult(const std::array<std::int64_t, R> &shape) {
  std::int64_t n = 1;
  for (auto d : shape)
    n *= d;
  auto *p = static_cast<T *>(std::calloc(std::size_t(n ? n : 1), sizeof(T)));
  return MemRef<T, R>::contiguous(p, shape);
}

} // namespace

TEST_SUITE_BEGIN("Owned");

TEST_CASE("accessors") {
  releases().clear();
  auto d = mallocResult<float, 2>({2, 3});
  for (int i = 0; i < 6; ++i)
    d.aligned[i] = float(i);
  void *buffer = d.allocated;
  {
    auto [r] = adoptResultsWith(countingRelease, {}, d);
    static_assert(std::is_same_v<decltype(r), Owned<float, 2>>);
    CHECK(r.ownsMemory());
    CHECK(r.shape() == std::array<std::int64_t, 2>{2, 3});
    CHECK(r.strides() == std::array<std::int64_t, 2>{3, 1});
    CHECK(r.numElements() == 6);
    CHECK(r.data() == d.aligned);
    CHECK(r[{1, 2}] == 5.0f);
    CHECK(r(1, 0) == 3.0f);
    r(0, 1) = 42.0f;
    CHECK(r.desc()[{0, 1}] == 42.0f);
    CHECK(r.at({1, 1}) == 4.0f);
    CHECK_ERROR_CONTAINS(r.at({2, 0}), "index 2 out of range for dimension 0",
                         "size 2");
    CHECK_ERROR_CONTAINS(r.at({0, -1}), "dimension 1");
  }
  CHECK(releases() == std::map<void *, int>{{buffer, 1}});
}

TEST_CASE("aliased results share one owner and the buffer is freed once") {
  releases().clear();
  auto d = mallocResult<std::int32_t, 1>({4});
  auto view = d; // the same buffer returned twice, the second as a subview
  view.offset = 1;
  view.sizes[0] = 2;
  auto other = mallocResult<double, 0>({});
  void *a = d.allocated, *b = other.allocated;
  {
    auto [r0, r1, r2] = adoptResultsWith(countingRelease, {}, d, view, other);
    CHECK(r0.owner() == r1.owner());
    CHECK(r0.owner() != r2.owner());
    r0(1) = 9;
    CHECK(r1(0) == 9);
    CHECK(r2[{}] == 0.0);
    Owned<std::int32_t, 1> copy = r1; // copies share too
    CHECK(copy.owner().use_count() == 3);
  }
  CHECK(releases() == std::map<void *, int>{{a, 1}, {b, 1}});
}

TEST_CASE("a result in caller memory borrows it") {
  std::vector<float> input = {1, 2, 3};
  auto arg = MemRef<float, 1>::contiguous(input.data(), {3});
  auto [r] = adoptResults({arg.allocated}, arg);
  CHECK(!r.ownsMemory());
  CHECK(r(2) == 3.0f);
  Tensor t = r.toTensor();
  CHECK(!t.ownsMemory());
  CHECK(t.rawData() == input.data());
}

TEST_CASE("a result in a constant global owns nothing") {
  static const float global[2] = {5, 6};
  MemRef<float, 1> d;
  d.allocated = static_cast<float *>(kGlobalSentinel);
  d.aligned = const_cast<float *>(global);
  d.sizes[0] = 2;
  d.strides[0] = 1;
  Owned<float, 1> r = adoptResult({}, d);
  CHECK(!r.ownsMemory());
  CHECK(r(1) == 6.0f);
}

TEST_CASE("toTensor shares the owner and keeps the buffer alive") {
  releases().clear();
  auto d = mallocResult<std::int16_t, 2>({2, 2});
  d.aligned[3] = 77;
  void *buffer = d.allocated;
  Tensor t;
  {
    auto [r] = adoptResultsWith(countingRelease, {}, d);
    t = r.toTensor();
    CHECK(t.owner() == r.owner());
  }
  CHECK(releases().empty());
  CHECK(t.dtype() == DType::I16);
  CHECK(t.shape() == std::vector<std::int64_t>{2, 2});
  CHECK(t.data<std::int16_t>()[3] == 77);
  t = Tensor();
  CHECK(releases() == std::map<void *, int>{{buffer, 1}});
}

TEST_CASE("toTensor keeps offset and strides") {
  std::vector<std::uint8_t> data = {0, 1, 2, 3, 4, 5};
  MemRef<std::uint8_t, 2> m; // column 1..2 of a 2x3 buffer
  m.allocated = m.aligned = data.data();
  m.offset = 1;
  m.sizes[0] = 2;
  m.sizes[1] = 2;
  m.strides[0] = 3;
  m.strides[1] = 1;
  Tensor t = Owned<std::uint8_t, 2>(m, nullptr).toTensor();
  CHECK(!t.isContiguous());
  Tensor c = t.contiguous();
  const std::uint8_t want[] = {1, 2, 4, 5};
  for (int i = 0; i < 4; ++i)
    CHECK(c.data<std::uint8_t>()[i] == want[i]);
}

TEST_CASE("default adoptResults frees with std::free") {
  // Checked for invalid and double frees and leaks under valgrind.
  auto d = mallocResult<float, 1>({8});
  auto [r0, r1] = adoptResults({}, d, d);
  CHECK(r0.owner() == r1.owner());
}

TEST_SUITE_END();
