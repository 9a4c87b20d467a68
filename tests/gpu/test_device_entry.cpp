//===- test_device_entry.cpp - device entry points and kernel traces ------===//
//
// kernels.mlir compiled for cuda:sm_90 with --trace-kernels-to, called as a
// user who keeps tensors on the GPU would: buffers from cuMemAlloc, a stream
// of their own, the typed header's device:: wrappers. Every call also
// writes its trace, which is read back and checked against the inputs.
// Expected values are computed here from the inputs (a + b, x * s + n).
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "gpu_kernels.h"

#include "aot/abi/Npz.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace {

using CUdeviceptr = unsigned long long;
using CUresult = int;

/// The few driver functions a caller with device data uses.
struct Cuda {
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(int *, int);
  CUresult (*primaryCtxRetain)(void **, int);
  CUresult (*ctxSetCurrent)(void *);
  CUresult (*memAlloc)(CUdeviceptr *, std::size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*htod)(CUdeviceptr, const void *, std::size_t);
  CUresult (*dtoh)(void *, CUdeviceptr, std::size_t);
  CUresult (*streamCreate)(void **, unsigned);
  CUresult (*streamDestroy)(void *);
};

Cuda &cuda() {
  static Cuda c = [] {
    Cuda c{};
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    auto bind = [&](auto &slot, const char *name) {
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
          dlsym(lib, name));
      if (!slot)
        throw std::runtime_error(std::string("libcuda lacks ") + name);
    };
    bind(c.init, "cuInit");
    bind(c.deviceGet, "cuDeviceGet");
    bind(c.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(c.ctxSetCurrent, "cuCtxSetCurrent");
    bind(c.memAlloc, "cuMemAlloc_v2");
    bind(c.memFree, "cuMemFree_v2");
    bind(c.htod, "cuMemcpyHtoD_v2");
    bind(c.dtoh, "cuMemcpyDtoH_v2");
    bind(c.streamCreate, "cuStreamCreate");
    bind(c.streamDestroy, "cuStreamDestroy_v2");
    int device = 0;
    void *context = nullptr;
    if (c.init(0) || c.deviceGet(&device, 0) ||
        c.primaryCtxRetain(&context, device) || c.ctxSetCurrent(context))
      throw std::runtime_error("cannot open the primary context of device 0");
    return c;
  }();
  return c;
}

/// A device copy of `host` as a rank-2 descriptor.
aot::abi::MemRef<float, 2> upload(const std::vector<float> &host,
                                  std::int64_t rows, std::int64_t cols) {
  CUdeviceptr p = 0;
  REQUIRE(cuda().memAlloc(&p, host.size() * sizeof(float)) == 0);
  REQUIRE(cuda().htod(p, host.data(), host.size() * sizeof(float)) == 0);
  auto *f = reinterpret_cast<float *>(p);
  return {f, f, 0, {rows, cols}, {cols, 1}};
}

std::vector<float> download(const aot::abi::MemRef<float, 2> &m) {
  REQUIRE(m.strides[1] == 1);
  std::vector<float> host(m.sizes[0] * m.sizes[1]);
  REQUIRE(cuda().dtoh(host.data(),
                      reinterpret_cast<CUdeviceptr>(m.aligned + m.offset),
                      host.size() * sizeof(float)) == 0);
  return host;
}

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
  REQUIRE(cuda().streamCreate(&stream, 0) == 0);
  std::vector<float> a = iota(32, 0.5f), b = iota(32, -2.0f);
  auto da = upload(a, 4, 8), db = upload(b, 4, 8);
  auto sum = device::add(da, db, stream);
  CHECK(sum.r0.sizes[0] == 4);
  CHECK(sum.r0.sizes[1] == 8);
  CHECK(sum.r0.allocated != da.allocated);
  CHECK(sum.r0.allocated != db.allocated);
  std::vector<float> got = download(sum.r0);
  for (std::size_t i = 0; i < a.size(); ++i)
    CHECK(got[i] == a[i] + b[i]);
  aotCudaFree(sum.r0.allocated);

  // A dynamic dim, scalars, and the runtime's own stream (nullptr).
  std::vector<float> x = iota(12, 1.25f);
  auto dx = upload(x, 3, 4);
  auto scaled = device::scale(dx, 2.0f, 7, nullptr);
  CHECK(scaled.r0.sizes[0] == 3);
  got = download(scaled.r0);
  for (std::size_t i = 0; i < x.size(); ++i)
    CHECK(got[i] == x[i] * 2.0f + 7.0f);
  aotCudaFree(scaled.r0.allocated);
  for (auto *m : {&da, &db, &dx})
    cuda().memFree(reinterpret_cast<CUdeviceptr>(m->allocated));
  cuda().streamDestroy(stream);
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
