//===- test_device_entry.cpp - device entry points and kernel traces ------===//
//
// kernels.mlir compiled for cuda:sm_90 with --trace-kernels-to, called as a
// user who keeps tensors on the GPU would: buffers from cuMemAlloc, a stream
// of their own, the typed header's device:: wrappers. Every call also
// writes its trace, which is read back and checked against the inputs.
// Expected values are computed here from the inputs (a + b, x * s + n).
// gpu-elementwise.mlir's loops, too large for a model's .npz reference,
// are checked element by element against the host's sums, and
// gpu-reductions.mlir's against the host's sums and maxima (of small
// integers, so that any order of summing gives the same float).
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "gpu_elementwise.h"
#include "gpu_kernels.h"
#include "gpu_reductions.h"

#include "aot/abi/Npz.h"
#include "aot/testing/CudaDevice.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using aot::testing::cudaDevice;
using aot::testing::toDevice;
using aot::testing::toHost;

std::vector<float> iota(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = scale * static_cast<float>(i) - 3.0f;
  return v;
}

std::filesystem::path traceDir;

} // namespace

TEST_CASE("the device entry point runs on the caller's stream and leaves "
          "its result on the device") {
  namespace device = aot_compiled::gpu_kernels::device;
  void *stream = nullptr;
  REQUIRE(cudaDevice().streamCreate(&stream, 0) == 0);
  std::vector<float> a = iota(32, 0.5f), b = iota(32, -2.0f);
  auto da = toDevice(a, 4, 8), db = toDevice(b, 4, 8);
  auto sum = device::add(da, db, stream);
  CHECK(sum.r0.sizes[0] == 4);
  CHECK(sum.r0.sizes[1] == 8);
  CHECK(sum.r0.allocated != da.allocated);
  CHECK(sum.r0.allocated != db.allocated);
  std::vector<float> got = toHost(sum.r0);
  for (std::size_t i = 0; i < a.size(); ++i)
    CHECK(got[i] == a[i] + b[i]);
  aotCudaFree(sum.r0.allocated);

  // A dynamic dim, scalars, and the runtime's own stream (nullptr).
  std::vector<float> x = iota(12, 1.25f);
  auto dx = toDevice(x, 3, 4);
  auto scaled = device::scale(dx, 2.0f, 7, nullptr);
  CHECK(scaled.r0.sizes[0] == 3);
  got = toHost(scaled.r0);
  for (std::size_t i = 0; i < x.size(); ++i)
    CHECK(got[i] == x[i] * 2.0f + 7.0f);
  aotCudaFree(scaled.r0.allocated);
  for (auto *m : {&da, &db, &dx})
    aot::testing::freeDevice(*m);
  cudaDevice().streamDestroy(stream);
}

TEST_CASE("--trace-kernels-to writes what each launch wrote") {
  std::vector<float> a = iota(32, 0.25f), b = iota(32, 3.0f);
  auto sum = aot_compiled::gpu_kernels::add(
      aot::abi::MemRef<float, 2>{a.data(), a.data(), 0, {4, 8}, {8, 1}},
      aot::abi::MemRef<float, 2>{b.data(), b.data(), 0, {4, 8}, {8, 1}});
  // The last line of the index is this call's launch.
  std::ifstream index(traceDir / "launches.jsonl");
  REQUIRE(index);
  std::string line, last;
  while (std::getline(index, line))
    last = line;
  INFO(last);
  CHECK(last.find("\"kernel\": \"add$generic_0_kernel\"") != std::string::npos);
  CHECK(last.find("kernels.mlir:9:8") != std::string::npos);
  std::size_t file = last.find("\"file\": \"");
  REQUIRE(file != std::string::npos);
  file += 9;
  std::string name = last.substr(file, last.find('"', file) - file);
  // Argument 2 of the kernel is its output; the inputs are only read.
  auto tensors = aot::abi::readNpz((traceDir / name).string());
  REQUIRE(tensors.size() == 1);
  REQUIRE(tensors.count("arg2") == 1);
  const aot::abi::Tensor &traced = tensors.at("arg2");
  REQUIRE(traced.shape() == std::vector<std::int64_t>{4, 8});
  for (std::int64_t i = 0; i < 32; ++i)
    CHECK(*static_cast<const float *>(traced.elementAt(i)) == a[i] + b[i]);
  CHECK(sum(1, 2) == a[10] + b[10]);
}

TEST_CASE("large elementwise loops compute every element once") {
  // Each thread of big and flat computes 4 elements 32 (256) apart; small
  // and ragged one. Every sum is distinct and non-zero, so an element left
  // unwritten or written from another's inputs shows.
  namespace m = aot_compiled::gpu_elementwise;
  auto check = [](const char *name, std::int64_t rows, std::int64_t cols) {
    CAPTURE(name);
    std::vector<float> a(rows * cols), b(rows * cols);
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = 0.25f * static_cast<float>(i % 65536) + 1.0f;
      b[i] = static_cast<float>(i / 65536) + 0.5f;
    }
    aot::abi::MemRef<float, 2> ma{
        a.data(), a.data(), 0, {rows, cols}, {cols, 1}};
    aot::abi::MemRef<float, 2> mb{
        b.data(), b.data(), 0, {rows, cols}, {cols, 1}};
    auto sum = std::string(name) == "big"     ? m::big(ma, mb)
               : std::string(name) == "small" ? m::small(ma, mb)
                                              : m::ragged(ma, mb);
    std::size_t wrong = 0;
    for (std::int64_t i = 0; i < rows * cols; ++i)
      wrong += sum(i / cols, i % cols) != a[i] + b[i];
    CHECK(wrong == 0);
  };
  check("big", 2048, 2048);
  check("small", 64, 64);
  check("ragged", 2048, 2000);

  std::vector<float> x(4194304);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = (i % 2 ? -1.0f : 1.0f) * (static_cast<float>(i) + 0.5f);
  auto flat = m::flat(aot::abi::MemRef<float, 1>{
      x.data(), x.data(), 0, {std::int64_t(x.size())}, {1}});
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    wrong += flat(std::int64_t(i)) != std::abs(x[i]);
  CHECK(wrong == 0);
}

namespace {

/// rows x cols small integers (as T), different in every row and column.
template <typename T>
std::vector<T> smallIntegers(std::int64_t rows, std::int64_t cols) {
  std::vector<T> v(rows * cols);
  for (std::int64_t i = 0; i < rows * cols; ++i)
    v[i] = static_cast<T>((i * 7 + i / cols * 3) % 13 - 6);
  return v;
}

/// Sums (or maxima) of `x` along its last dimension of `n`.
template <typename T>
std::vector<T> alongRows(const std::vector<T> &x, std::int64_t n, bool max) {
  std::vector<T> out(x.size() / n);
  for (std::size_t r = 0; r < out.size(); ++r) {
    T acc = max ? x[r * n] : T(0);
    for (std::int64_t j = max ? 1 : 0; j < n; ++j)
      acc = max ? std::max(acc, x[r * n + j]) : acc + x[r * n + j];
    out[r] = acc;
  }
  return out;
}

/// Checks `sum`, a compiled sum of a rows x n matrix along its rows, on
/// small integers.
template <typename T, typename Sum>
void checkRowSums(Sum sum, std::int64_t rows, std::int64_t n) {
  auto x = smallIntegers<T>(rows, n);
  auto want = alongRows(x, n, false);
  auto got =
      sum(aot::abi::MemRef<T, 2>{x.data(), x.data(), 0, {rows, n}, {n, 1}});
  for (std::int64_t r = 0; r < rows; ++r)
    CHECK(got(r, 0) == want[r]);
}

} // namespace

TEST_CASE("reductions along rows, down columns and shorter than a warp") {
  namespace m = aot_compiled::gpu_reductions;
  using aot::abi::MemRef;
  checkRowSums<float>(m::row_sum, 100, 1000);
  {
    auto x = smallIntegers<float>(4 * 50, 77);
    for (std::size_t i = 0; i < x.size(); ++i)
      x[i] += 0.001f * static_cast<float>(i % 997); // distinct maxima
    auto want = alongRows(x, 77, true);
    auto got = m::row_max(
        MemRef<float, 3>{x.data(), x.data(), 0, {4, 50, 77}, {50 * 77, 77, 1}});
    for (std::int64_t r = 0; r < 200; ++r)
      CHECK(got(r / 50, r % 50, 0) == want[r]);
  }
  checkRowSums<std::int32_t>(m::int_sum, 64, 40);
  checkRowSums<double>(m::wide_sum, 8, 64);
  {
    auto x = smallIntegers<float>(1000, 100);
    auto got = m::col_sum(
        MemRef<float, 2>{x.data(), x.data(), 0, {1000, 100}, {100, 1}});
    for (std::int64_t c = 0; c < 100; ++c) {
      float want = 0;
      for (std::int64_t r = 0; r < 1000; ++r)
        want += x[r * 100 + c];
      CHECK(got(0, c) == want);
    }
  }
  checkRowSums<float>(m::short_sum, 100, 20);
}

int main(int argc, char **argv) {
  if (const char *why = aotCudaUnavailable()) {
    std::cout << "skipped: aot_gpu_entry_tests cannot run here: " << why
              << "\n";
    return 77;
  }
  traceDir = std::filesystem::temp_directory_path() /
             ("aot-trace-" + std::to_string(getpid()));
  std::filesystem::remove_all(traceDir);
  setenv("AOT_TRACE_KERNELS_TO", traceDir.c_str(), 1);
  doctest::Context context(argc, argv);
  int rc = context.run();
  std::filesystem::remove_all(traceDir);
  return rc;
}
