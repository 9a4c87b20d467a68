//===- CudaDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Compiled GPU code and the runtime link nothing of CUDA: the driver
// (libcuda.so.1) is opened with dlopen the first time a GPU is needed, so
// every binary builds and loads where no CUDA is installed, and the same
// binary runs where a GPU is. The few entry points the runtime calls are
// declared here, with the types and values of CUDA's public driver API.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>

namespace aot::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;
using CUmemoryPool = struct CUmemPoolHandle_st *;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;

inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;
inline constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

/// The driver's entry points, resolved by their versioned names.
struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, std::size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, std::size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, std::size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  // Stream-ordered allocation (CUDA 11.2 and later); null where the driver
  // lacks it.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *, std::size_t, CUstream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr, CUstream);
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *, CUdevice);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool, int, void *);
};

/// The driver, opened and initialised once per process, with the context
/// of the device calls run on (device 0, or $AOT_CUDA_DEVICE).
struct Driver {
  DriverApi api;
  CUdevice device;
  CUcontext context;
  /// Compute capability, e.g. 90 for sm_90.
  int arch;
  /// Buffers come from the device's memory pool, in stream order
  /// (cuMemAllocAsync), and go back to it without being released.
  bool streamOrdered = false;
};

/// The driver, or null with `error` saying why there is none (no
/// libcuda.so.1, no device, cuInit failed: each named).
const Driver *driver(std::string &error);

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for `result`.
std::string describe(const Driver &driver, CUresult result);

/// Whether the calling thread's current call has failed.
bool failed();
/// Latches the call's first failure (abi/aot/abi/CudaStatus.h).
void fail(int status, std::string message);
/// The driver with its context current on this thread, or null after
/// latching why not (or after an earlier failure of the call).
const Driver *ready();
/// True if `result` is success; otherwise latches "WHAT: CUDA_ERROR_...".
bool check(const Driver &driver, CUresult result, const char *what);
/// The stream the current call runs on: the caller's (device entry points)
/// or the thread's own.
CUstream callStream(const Driver &driver);

} // namespace aot::cuda
