//===- aot-bench-gpu.cpp - the compiled kernels' speed on a GPU -----------===//
//
// Times the device entry points of the models in bench/gpu (compiled for a
// cuda target at build time) on data already in device memory, as cuBLAS
// and PyTorch are timed: matmul f32 and f16 at 1024, 2048 and 4096, the row
// softmax of a 4096×4096 f32 tensor, an elementwise add of 8192×8192 f32,
// and a device-to-device copy of the same bytes for the bandwidth ceiling.
// One line per case, tab-separated (case, median ms, figure, unit), which
// bench/gpu/compare.py reads and sets next to PyTorch's figures of the same
// run. Needs no LLVM or MLIR: it runs on a GPU machine from
// scripts/gpu-bundle.sh.
//
//===----------------------------------------------------------------------===//
#include "bench_gpu_add.h"
#include "bench_gpu_matmul_f16_1024.h"
#include "bench_gpu_matmul_f16_2048.h"
#include "bench_gpu_matmul_f16_4096.h"
#include "bench_gpu_matmul_f32_1024.h"
#include "bench_gpu_matmul_f32_2048.h"
#include "bench_gpu_matmul_f32_4096.h"
#include "bench_gpu_softmax.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using CUdeviceptr = unsigned long long;
using CUresult = int;

/// The driver functions a caller with device data uses.
struct Cuda {
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(int *, int);
  CUresult (*deviceGetName)(char *, int, int);
  CUresult (*primaryCtxRetain)(void **, int);
  CUresult (*ctxSetCurrent)(void *);
  CUresult (*memAlloc)(CUdeviceptr *, std::size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*htod)(CUdeviceptr, const void *, std::size_t);
  CUresult (*dtodAsync)(CUdeviceptr, CUdeviceptr, std::size_t, void *);
  CUresult (*streamCreate)(void **, unsigned);
  CUresult (*streamSynchronize)(void *);
  std::string name;
};

const Cuda &cuda() {
  static const Cuda c = [] {
    Cuda c{};
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    auto bind = [&](auto &slot, const char *symbol) {
      slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
          dlsym(lib, symbol));
      if (!slot)
        throw std::runtime_error(std::string("libcuda lacks ") + symbol);
    };
    bind(c.init, "cuInit");
    bind(c.deviceGet, "cuDeviceGet");
    bind(c.deviceGetName, "cuDeviceGetName");
    bind(c.primaryCtxRetain, "cuDevicePrimaryCtxRetain");
    bind(c.ctxSetCurrent, "cuCtxSetCurrent");
    bind(c.memAlloc, "cuMemAlloc_v2");
    bind(c.memFree, "cuMemFree_v2");
    bind(c.htod, "cuMemcpyHtoD_v2");
    bind(c.dtodAsync, "cuMemcpyDtoDAsync_v2");
    bind(c.streamCreate, "cuStreamCreate");
    bind(c.streamSynchronize, "cuStreamSynchronize");
    int device = 0;
    void *context = nullptr;
    char name[256] = {};
    if (c.init(0) || c.deviceGet(&device, 0) ||
        c.deviceGetName(name, sizeof name, device) ||
        c.primaryCtxRetain(&context, device) || c.ctxSetCurrent(context))
      throw std::runtime_error("cannot open the primary context of device 0");
    c.name = name;
    return c;
  }();
  return c;
}

void check(CUresult r, const char *what) {
  if (r != 0)
    throw std::runtime_error(std::string(what) + " failed: CUresult " +
                             std::to_string(r));
}

/// A rows×cols tensor of `T` in device memory, filled with small values.
template <typename T>
aot::abi::MemRef<T, 2> deviceTensor(std::int64_t rows, std::int64_t cols) {
  std::vector<T> host(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = T(static_cast<float>((i * 7919) % 1000) / 1000.0f - 0.5f);
  CUdeviceptr p = 0;
  check(cuda().memAlloc(&p, host.size() * sizeof(T)), "cuMemAlloc");
  check(cuda().htod(p, host.data(), host.size() * sizeof(T)), "cuMemcpyHtoD");
  auto *data = reinterpret_cast<T *>(p);
  return {data, data, 0, {rows, cols}, {cols, 1}};
}

/// The median wall time of `call` in ms, after warm-up; each call of a
/// device entry point returns when its kernels have finished.
template <typename Call> double medianMs(Call &&call, int runs) {
  for (int i = 0; i < 5; ++i)
    call();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    call();
    auto end = std::chrono::steady_clock::now();
    ms.push_back(
        std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

void report(const std::string &name, double ms, double figure,
            const char *unit) {
  std::printf("%s\t%.4f\t%.2f\t%s\n", name.c_str(), ms, figure, unit);
  std::fflush(stdout);
}

/// Times `fn(a, b, stream)` for an n×n matmul of `T`, freeing each result.
template <typename T, typename Fn>
void matmul(const char *name, std::int64_t n, Fn fn, void *stream, int runs) {
  auto a = deviceTensor<T>(n, n), b = deviceTensor<T>(n, n);
  double ms = medianMs(
      [&] {
        auto r = fn(a, b, stream);
        aotCudaFree(r.r0.allocated);
      },
      runs);
  report(name, ms, 2.0 * n * n * n / (ms * 1e-3) / 1e12, "TFLOP/s");
  cuda().memFree(reinterpret_cast<CUdeviceptr>(a.allocated));
  cuda().memFree(reinterpret_cast<CUdeviceptr>(b.allocated));
}

} // namespace

int main(int argc, char **argv) {
  if (const char *why = aotCudaUnavailable()) {
    std::fprintf(stderr, "aot-bench-gpu: cannot run here: %s\n", why);
    return 77;
  }
  int runs = argc > 1 ? std::atoi(argv[1]) : 20;
  if (runs < 1) {
    std::fprintf(stderr, "usage: aot-bench-gpu [RUNS]\n");
    return 1;
  }
  try {
    std::printf("gpu\t%s\n", cuda().name.c_str());
    void *stream = nullptr;
    check(cuda().streamCreate(&stream, 0), "cuStreamCreate");
    using aot::abi::f16;
    namespace m = aot_compiled;
    matmul<float>("matmul_f32_1024", 1024,
                  m::bench_gpu_matmul_f32_1024::device::matmul, stream, runs);
    matmul<float>("matmul_f32_2048", 2048,
                  m::bench_gpu_matmul_f32_2048::device::matmul, stream, runs);
    matmul<float>("matmul_f32_4096", 4096,
                  m::bench_gpu_matmul_f32_4096::device::matmul, stream, runs);
    matmul<f16>("matmul_f16_1024", 1024,
                m::bench_gpu_matmul_f16_1024::device::matmul, stream, runs);
    matmul<f16>("matmul_f16_2048", 2048,
                m::bench_gpu_matmul_f16_2048::device::matmul, stream, runs);
    matmul<f16>("matmul_f16_4096", 4096,
                m::bench_gpu_matmul_f16_4096::device::matmul, stream, runs);

    // Bandwidth figures count the bytes read and written once each.
    auto x = deviceTensor<float>(4096, 4096);
    double ms = medianMs(
        [&] {
          auto r = m::bench_gpu_softmax::device::softmax(x, stream);
          aotCudaFree(r.r0.allocated);
        },
        runs);
    report("softmax_f32_4096", ms, 2.0 * 4096 * 4096 * 4 / (ms * 1e-3) / 1e9,
           "GB/s");
    cuda().memFree(reinterpret_cast<CUdeviceptr>(x.allocated));

    const std::int64_t n = 8192;
    const double bytes = double(n) * n * sizeof(float);
    auto a = deviceTensor<float>(n, n), b = deviceTensor<float>(n, n);
    ms = medianMs(
        [&] {
          auto r = m::bench_gpu_add::device::add(a, b, stream);
          aotCudaFree(r.r0.allocated);
        },
        runs);
    report("add_f32_8192", ms, 3.0 * bytes / (ms * 1e-3) / 1e9, "GB/s");
    ms = medianMs(
        [&] {
          check(cuda().dtodAsync(reinterpret_cast<CUdeviceptr>(b.allocated),
                                 reinterpret_cast<CUdeviceptr>(a.allocated),
                                 static_cast<std::size_t>(bytes), stream),
                "cuMemcpyDtoDAsync");
          check(cuda().streamSynchronize(stream), "cuStreamSynchronize");
        },
        runs);
    report("copy_f32_8192", ms, 2.0 * bytes / (ms * 1e-3) / 1e9, "GB/s");
    if (aotCudaStatus() != 0)
      throw std::runtime_error(aotCudaLastError());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "aot-bench-gpu: %s\n", e.what());
    return 1;
  }
  return 0;
}
