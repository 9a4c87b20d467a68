//===- CudaDevice.h - device memory for tests and benchmarks of GPU code --===//
//
// What a caller that keeps its tensors on the GPU does before calling a
// device entry point (`_mlir_ciface_F$device`): allocate device memory, copy
// to and from it, make a stream. The few CUDA driver functions for that are
// opened with dlopen, like the runtime opens them, so nothing links CUDA;
// the primary context of device 0, the one compiled code runs in, is made
// current. Failures throw std::runtime_error naming the driver call.
//
// Header-only; needs no test framework.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/MemRef.h"

#include <cstddef>
#include <cstdint>
#include <dlfcn.h>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace aot::testing {

/// The driver entry points, by their versioned names.
struct CudaDevice {
  using CUdeviceptr = unsigned long long;
  using CUresult = int;
  CUresult (*init)(unsigned);
  CUresult (*deviceGet)(int *, int);
  CUresult (*deviceGetName)(char *, int, int);
  CUresult (*primaryCtxRetain)(void **, int);
  CUresult (*ctxSetCurrent)(void *);
  CUresult (*memAlloc)(CUdeviceptr *, std::size_t);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*htod)(CUdeviceptr, const void *, std::size_t);
  CUresult (*dtoh)(void *, CUdeviceptr, std::size_t);
  CUresult (*dtodAsync)(CUdeviceptr, CUdeviceptr, std::size_t, void *);
  CUresult (*streamCreate)(void **, unsigned);
  CUresult (*streamSynchronize)(void *);
  CUresult (*streamDestroy)(void *);
  /// Device 0's name, e.g. "NVIDIA H100 80GB HBM3".
  std::string name;

  /// Throws unless `result` is CUDA_SUCCESS.
  static void check(CUresult result, const char *what) {
    if (result != 0)
      throw std::runtime_error(std::string(what) + " failed: CUresult " +
                               std::to_string(result));
  }
};

/// The driver, opened once, with device 0's primary context current on the
/// calling thread.
inline const CudaDevice &cudaDevice() {
  static const CudaDevice device = [] {
    CudaDevice c{};
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      throw std::runtime_error("libcuda.so.1 could not be loaded");
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
    bind(c.dtoh, "cuMemcpyDtoH_v2");
    bind(c.dtodAsync, "cuMemcpyDtoDAsync_v2");
    bind(c.streamCreate, "cuStreamCreate");
    bind(c.streamSynchronize, "cuStreamSynchronize");
    bind(c.streamDestroy, "cuStreamDestroy_v2");
    int ordinal = 0;
    void *context = nullptr;
    char name[256] = {};
    if (c.init(0) || c.deviceGet(&ordinal, 0) ||
        c.deviceGetName(name, sizeof name, ordinal) ||
        c.primaryCtxRetain(&context, ordinal) || c.ctxSetCurrent(context))
      throw std::runtime_error("cannot open the primary context of device 0");
    c.name = name;
    return c;
  }();
  return device;
}

/// A device copy of `host`, viewed as a row-major rows x cols tensor.
template <typename T>
abi::MemRef<T, 2> toDevice(const std::vector<T> &host, std::int64_t rows,
                           std::int64_t cols) {
  const CudaDevice &cuda = cudaDevice();
  CudaDevice::CUdeviceptr p = 0;
  CudaDevice::check(cuda.memAlloc(&p, host.size() * sizeof(T)), "cuMemAlloc");
  CudaDevice::check(cuda.htod(p, host.data(), host.size() * sizeof(T)),
                    "cuMemcpyHtoD");
  auto *data = reinterpret_cast<T *>(p);
  return {data, data, 0, {rows, cols}, {cols, 1}};
}

/// The elements of a contiguous rank-2 tensor in device memory.
template <typename T> std::vector<T> toHost(const abi::MemRef<T, 2> &m) {
  if (m.strides[1] != 1 || m.strides[0] != m.sizes[1])
    throw std::runtime_error("toHost: the tensor is not contiguous");
  std::vector<T> host(static_cast<std::size_t>(m.sizes[0] * m.sizes[1]));
  CudaDevice::check(cudaDevice().dtoh(host.data(),
                                      reinterpret_cast<CudaDevice::CUdeviceptr>(
                                          m.aligned + m.offset),
                                      host.size() * sizeof(T)),
                    "cuMemcpyDtoH");
  return host;
}

/// Frees what toDevice allocated.
template <typename T> void freeDevice(const abi::MemRef<T, 2> &m) {
  cudaDevice().memFree(reinterpret_cast<CudaDevice::CUdeviceptr>(m.allocated));
}

} // namespace aot::testing
