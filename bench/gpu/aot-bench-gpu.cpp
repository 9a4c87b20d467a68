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

#include "aot/testing/CudaDevice.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using aot::testing::CudaDevice;
using aot::testing::cudaDevice;

/// `count` small values of `T`, different for each `seed`.
template <typename T>
std::vector<T> hostValues(std::size_t count, unsigned seed) {
  std::vector<T> host(count);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = T(
        static_cast<float>((i * 7919 + seed * 104729) % 1000) / 1000.0f - 0.5f);
  return host;
}

/// A rows×cols tensor of `T` in device memory, filled with small values.
template <typename T>
aot::abi::MemRef<T, 2> deviceTensor(std::int64_t rows, std::int64_t cols,
                                    unsigned seed = 0) {
  return aot::testing::toDevice(
      hostValues<T>(static_cast<std::size_t>(rows * cols), seed), rows, cols);
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

/// Times `fn(a, b, stream)` for an n×n matmul of `T`, freeing each result,
/// after checking the first row of one result against the host's.
template <typename T, typename Fn>
void matmul(const char *name, std::int64_t n, Fn fn, void *stream, int runs) {
  auto a = deviceTensor<T>(n, n, 1), b = deviceTensor<T>(n, n, 2);
  {
    auto r = fn(a, b, stream);
    std::vector<T> c = aot::testing::toHost(r.r0);
    aotCudaFree(r.r0.allocated);
    std::vector<T> ha = hostValues<T>(n * n, 1), hb = hostValues<T>(n * n, 2);
    for (std::int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (std::int64_t k = 0; k < n; ++k)
        want += double(float(ha[k])) * double(float(hb[k * n + j]));
      // f16 results are rounded to f16 (and summed in it): a coarse bound.
      double tolerance = sizeof(T) == 2 ? 0.05 * std::sqrt(double(n)) : 1e-3;
      if (std::abs(double(float(c[j])) - want) > tolerance)
        throw std::runtime_error(
            std::string(name) + ": C[0][" + std::to_string(j) + "] is " +
            std::to_string(float(c[j])) + ", expected " + std::to_string(want));
    }
  }
  double ms = medianMs(
      [&] {
        auto r = fn(a, b, stream);
        aotCudaFree(r.r0.allocated);
      },
      runs);
  report(name, ms, 2.0 * n * n * n / (ms * 1e-3) / 1e12, "TFLOP/s");
  aot::testing::freeDevice(a);
  aot::testing::freeDevice(b);
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
    std::printf("gpu\t%s\n", cudaDevice().name.c_str());
    void *stream = nullptr;
    CudaDevice::check(cudaDevice().streamCreate(&stream, 0), "cuStreamCreate");
    using aot::abi::f16;
    namespace m = aot_compiled;
    matmul<float>("matmul_f32_1024", 1024,
                  m::bench_gpu_matmul_f32_1024::device::matmul_f32_1024, stream,
                  runs);
    matmul<float>("matmul_f32_2048", 2048,
                  m::bench_gpu_matmul_f32_2048::device::matmul_f32_2048, stream,
                  runs);
    matmul<float>("matmul_f32_4096", 4096,
                  m::bench_gpu_matmul_f32_4096::device::matmul_f32_4096, stream,
                  runs);
    matmul<f16>("matmul_f16_1024", 1024,
                m::bench_gpu_matmul_f16_1024::device::matmul_f16_1024, stream,
                runs);
    matmul<f16>("matmul_f16_2048", 2048,
                m::bench_gpu_matmul_f16_2048::device::matmul_f16_2048, stream,
                runs);
    matmul<f16>("matmul_f16_4096", 4096,
                m::bench_gpu_matmul_f16_4096::device::matmul_f16_4096, stream,
                runs);

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
    aot::testing::freeDevice(x);

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
          CudaDevice::check(
              cudaDevice().dtodAsync(
                  reinterpret_cast<CudaDevice::CUdeviceptr>(b.allocated),
                  reinterpret_cast<CudaDevice::CUdeviceptr>(a.allocated),
                  static_cast<std::size_t>(bytes), stream),
              "cuMemcpyDtoDAsync");
          CudaDevice::check(cudaDevice().streamSynchronize(stream),
                            "cuStreamSynchronize");
        },
        runs);
    report("copy_f32_8192", ms, 2.0 * bytes / (ms * 1e-3) / 1e9, "GB/s");
    // What a cuMemAlloc and free of the add's result would cost; the
    // runtime takes buffers from the device's memory pool instead.
    ms = medianMs(
        [&] {
          CudaDevice::CUdeviceptr p = 0;
          CudaDevice::check(
              cudaDevice().memAlloc(&p, static_cast<std::size_t>(bytes)),
              "cuMemAlloc");
          aotCudaFree(reinterpret_cast<void *>(p));
        },
        runs);
    report("alloc_free_f32_8192", ms, ms, "ms");
    if (aotCudaStatus() != 0)
      throw std::runtime_error(aotCudaLastError());
  } catch (const std::exception &e) {
    std::fprintf(stderr, "aot-bench-gpu: %s\n", e.what());
    return 1;
  }
  return 0;
}
