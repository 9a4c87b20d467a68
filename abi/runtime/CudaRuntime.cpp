//===- CudaRuntime.cpp - what compiled GPU code calls ---------------------===//
//
// The host code of a cuda target calls the `mgpu*` functions (the names and
// signatures MLIR's gpu-to-llvm lowering and its translation of gpu.binary
// use) and `aotCuda*`. They run on the CUDA driver API, opened with dlopen
// on first use, so nothing links CUDA.
//
// Errors cannot unwind through compiled code, so they latch instead: the
// first failure of a call (no driver, out of memory, a kernel that fails)
// is recorded for the calling thread, and every later GPU operation of that
// call does nothing (allocations return a placeholder, copies and launches
// are skipped, frees still free what was really allocated). The call then
// returns normally; the caller asks aotCudaStatus() and, on failure,
// discards the results (aot::LoadedModule and the typed headers do this).
//
//===----------------------------------------------------------------------===//
#include "aot/abi/CudaStatus.h"
#include "aot/abi/KernelImage.h"
#include "runtime/CudaDriver.h"
#include "runtime/CudaEntryPoints.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace aot::cuda {

namespace {

template <typename Fn> bool bind(void *lib, Fn &slot, const char *name) {
  slot = reinterpret_cast<Fn>(dlsym(lib, name));
  return slot != nullptr;
}

/// Takes buffers from the device's default memory pool where the driver
/// and device have one, and keeps what is freed in the pool: a cuMemAlloc
/// and cuMemFree of a call's result or temporary cost about as much as an
/// elementwise kernel over it, a reuse from the pool next to nothing
/// (alloc_free_f32_8192 in bench/gpu/aot-bench-gpu; docs/performance.md,
/// "GPU").
void useMemoryPool(void *lib, Driver &d) {
  DriverApi &a = d.api;
  int supported = 0;
  CUmemoryPool pool = nullptr;
  std::uint64_t keepAll = ~std::uint64_t(0);
  if (!bind(lib, a.cuMemAllocAsync, "cuMemAllocAsync") ||
      !bind(lib, a.cuMemFreeAsync, "cuMemFreeAsync") ||
      !bind(lib, a.cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool") ||
      !bind(lib, a.cuMemPoolSetAttribute, "cuMemPoolSetAttribute") ||
      a.cuDeviceGetAttribute(&supported,
                             CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                             d.device) != CUDA_SUCCESS ||
      !supported ||
      a.cuDeviceGetDefaultMemPool(&pool, d.device) != CUDA_SUCCESS ||
      a.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                              &keepAll) != CUDA_SUCCESS)
    return;
  d.streamOrdered = true;
}

/// Opens and initialises the driver; `error` says why not.
std::unique_ptr<Driver> openDriver(std::string &error) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = std::string("no CUDA driver: libcuda.so.1 could not be loaded (") +
            (why ? why : "unknown reason") + ")";
    return nullptr;
  }
  auto d = std::make_unique<Driver>();
  DriverApi &a = d->api;
  const char *missing = nullptr;
#define AOT_BIND(field, symbol)                                                \
  if (!missing && !bind(lib, a.field, symbol))                                 \
    missing = symbol;
  AOT_BIND(cuInit, "cuInit")
  AOT_BIND(cuDriverGetVersion, "cuDriverGetVersion")
  AOT_BIND(cuDeviceGetCount, "cuDeviceGetCount")
  AOT_BIND(cuDeviceGet, "cuDeviceGet")
  AOT_BIND(cuDeviceGetName, "cuDeviceGetName")
  AOT_BIND(cuDeviceGetAttribute, "cuDeviceGetAttribute")
  AOT_BIND(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
  AOT_BIND(cuCtxSetCurrent, "cuCtxSetCurrent")
  AOT_BIND(cuModuleLoadDataEx, "cuModuleLoadDataEx")
  AOT_BIND(cuModuleUnload, "cuModuleUnload")
  AOT_BIND(cuModuleGetFunction, "cuModuleGetFunction")
  AOT_BIND(cuLaunchKernel, "cuLaunchKernel")
  AOT_BIND(cuMemAlloc, "cuMemAlloc_v2")
  AOT_BIND(cuMemFree, "cuMemFree_v2")
  AOT_BIND(cuMemcpyAsync, "cuMemcpyAsync")
  AOT_BIND(cuMemsetD32Async, "cuMemsetD32Async")
  AOT_BIND(cuStreamCreate, "cuStreamCreate")
  AOT_BIND(cuStreamSynchronize, "cuStreamSynchronize")
  AOT_BIND(cuStreamDestroy, "cuStreamDestroy_v2")
  AOT_BIND(cuGetErrorName, "cuGetErrorName")
  AOT_BIND(cuGetErrorString, "cuGetErrorString")
#undef AOT_BIND
  if (missing) {
    error = std::string("the CUDA driver (libcuda.so.1) lacks ") + missing +
            ": it is older than this runtime supports";
    return nullptr;
  }
  if (CUresult r = a.cuInit(0); r != CUDA_SUCCESS) {
    error = "cuInit failed: " + describe(*d, r);
    return nullptr;
  }
  int count = 0;
  if (CUresult r = a.cuDeviceGetCount(&count);
      r != CUDA_SUCCESS || count == 0) {
    error = "no CUDA device: " + (r != CUDA_SUCCESS
                                      ? describe(*d, r)
                                      : std::string("the driver reports none"));
    return nullptr;
  }
  int ordinal = 0;
  if (const char *env = std::getenv("AOT_CUDA_DEVICE"); env && *env)
    ordinal = std::atoi(env);
  if (ordinal < 0 || ordinal >= count) {
    error = "AOT_CUDA_DEVICE=" + std::to_string(ordinal) + ": there are " +
            std::to_string(count) + " devices";
    return nullptr;
  }
  int major = 0, minor = 0;
  CUresult r = a.cuDeviceGet(&d->device, ordinal);
  if (r == CUDA_SUCCESS)
    r = a.cuDeviceGetAttribute(
        &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->device);
  if (r == CUDA_SUCCESS)
    r = a.cuDeviceGetAttribute(
        &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->device);
  if (r == CUDA_SUCCESS)
    r = a.cuDevicePrimaryCtxRetain(&d->context, d->device);
  if (r != CUDA_SUCCESS) {
    error = "cannot open CUDA device " + std::to_string(ordinal) + ": " +
            describe(*d, r);
    return nullptr;
  }
  d->arch = major * 10 + minor;
  useMemoryPool(lib, *d);
  return d;
}

/// A gpu.module's kernels, loaded on first use.
struct LazyModule {
  LazyModule(const void *blob, std::uint64_t size) : blob(blob), size(size) {}
  const void *blob;
  std::uint64_t size;
  std::mutex mutex;
  CUmodule module = nullptr;
  std::map<std::string, CUfunction, std::less<>> functions;
};

/// Loads the cubin if the driver takes it, else JIT-compiles the PTX.
bool load(const Driver &d, LazyModule &m) {
  if (m.module)
    return true;
  auto images = abi::unpackKernelImages(m.blob, m.size);
  if (!images) {
    fail(AOT_CUDA_BAD_IMAGE, "the kernels embedded in the compiled code are "
                             "damaged (not an AOTKIMG2 blob)");
    return false;
  }
  std::string errors;
  for (const abi::KernelImage &image : *images) {
    char log[4096] = {0};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                              CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1)};
    CUresult r = d.api.cuModuleLoadDataEx(&m.module, image.bytes.data(), 2,
                                          options, values);
    if (r == CUDA_SUCCESS)
      return true;
    errors += std::string(errors.empty() ? "" : "; ") +
              (image.kind == abi::KernelImageKind::Cubin ? "cubin" : "PTX") +
              ": " + describe(d, r) + (log[0] ? std::string(" ") + log : "");
    m.module = nullptr;
  }
  fail(CUDA_ERROR_NO_BINARY_FOR_GPU,
       "the GPU (sm_" + std::to_string(d.arch) +
           ") cannot load the compiled kernels: " + errors);
  return false;
}

/// The latched failure of the calling thread's current call.
struct CallState {
  int status = 0;
  std::string message;
};
thread_local CallState state;

/// A device pointer for a zero-byte buffer, or for an allocation made after
/// a failure: never dereferenced, never freed.
char placeholderByte;
void *const kPlaceholder = &placeholderByte;

/// The caller's stream for the current call of a device entry point, or
/// null for the thread's own.
thread_local CUstream callerStream = nullptr;

/// The per-thread stream compiled code runs on: made once, reused by every
/// call on the thread (MLIR's lowering makes and destroys one per function).
CUstream threadStream(const Driver &d) {
  thread_local CUstream stream = nullptr;
  if (!stream && !check(d, d.api.cuStreamCreate(&stream, 0), "cuStreamCreate"))
    return nullptr;
  return stream;
}

} // namespace

bool failed() { return state.status != 0; }

void fail(int status, std::string message) {
  if (failed())
    return;
  state.status = status;
  state.message = std::move(message);
}

const Driver *ready() {
  if (failed())
    return nullptr;
  std::string error;
  const Driver *d = driver(error);
  if (!d) {
    fail(AOT_CUDA_NO_DRIVER, error);
    return nullptr;
  }
  thread_local bool current = false;
  if (!current) {
    if (CUresult r = d->api.cuCtxSetCurrent(d->context); r != CUDA_SUCCESS) {
      fail(r, "cuCtxSetCurrent: " + describe(*d, r));
      return nullptr;
    }
    current = true;
  }
  return d;
}

bool check(const Driver &d, CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  fail(r, std::string(what) + ": " + describe(d, r));
  return false;
}

CUstream callStream(const Driver &d) {
  return callerStream ? callerStream : threadStream(d);
}

namespace {
/// `stream` (a stream the compiled code passes), or the call's if null.
CUstream orCallStream(const Driver &d, void *stream) {
  return stream ? static_cast<CUstream>(stream) : callStream(d);
}
} // namespace

const Driver *driver(std::string &error) {
  static std::once_flag once;
  static std::unique_ptr<Driver> instance;
  static std::string why;
  std::call_once(once, [] { instance = openDriver(why); });
  if (!instance)
    error = why;
  return instance.get();
}

std::string describe(const Driver &d, CUresult r) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (d.api.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
    name = "CUDA_ERROR_UNKNOWN";
  std::string out = name;
  if (d.api.cuGetErrorString(r, &text) == CUDA_SUCCESS && text)
    out += std::string(" (") + text + ")";
  return out;
}

} // namespace aot::cuda

using namespace aot::cuda;

extern "C" {

void aotCudaBegin() { aotCudaBeginOn(nullptr); }

void aotCudaBeginOn(void *stream) {
  state.status = 0;
  state.message.clear();
  callerStream = static_cast<CUstream>(stream);
}

int aotCudaStatus() { return state.status; }

const char *aotCudaLastError() {
  return state.status ? state.message.c_str() : nullptr;
}

const char *aotCudaUnavailable() {
  static std::string why;
  static std::once_flag once;
  std::call_once(once, [] { driver(why); });
  return why.empty() ? nullptr : why.c_str();
}

void aotCudaFree(void *ptr) {
  if (!ptr || ptr == kPlaceholder)
    return;
  std::string error;
  if (const Driver *d = driver(error);
      d && d->api.cuCtxSetCurrent(d->context) == CUDA_SUCCESS)
    d->api.cuMemFree(reinterpret_cast<CUdeviceptr>(ptr));
}

void *mgpuModuleLoad(void *data, std::uint64_t size) {
  // Runs from a global constructor when the compiled code is loaded: no
  // driver call here, so loading never fails and never waits on a GPU.
  return new LazyModule(data, size);
}

void *mgpuModuleLoadJIT(void *data, int) {
  return new LazyModule(data, std::strlen(static_cast<const char *>(data)));
}

void mgpuModuleUnload(void *handle) {
  auto *m = static_cast<LazyModule *>(handle);
  if (!m)
    return;
  std::string error;
  if (const Driver *d = driver(error); d && m->module)
    d->api.cuModuleUnload(m->module);
  delete m;
}

void *mgpuModuleGetFunction(void *handle, const char *name) {
  const Driver *d = ready();
  if (!d)
    return nullptr;
  auto *m = static_cast<LazyModule *>(handle);
  std::lock_guard<std::mutex> lock(m->mutex);
  if (!load(*d, *m))
    return nullptr;
  if (auto it = m->functions.find(name); it != m->functions.end())
    return it->second;
  CUfunction fn = nullptr;
  if (!check(*d, d->api.cuModuleGetFunction(&fn, m->module, name),
             ("cuModuleGetFunction(" + std::string(name) + ")").c_str()))
    return nullptr;
  m->functions.emplace(name, fn);
  return fn;
}

void mgpuLaunchKernel(void *fn, std::intptr_t gx, std::intptr_t gy,
                      std::intptr_t gz, std::intptr_t bx, std::intptr_t by,
                      std::intptr_t bz, std::int32_t smem, void *stream,
                      void **params, void **extra, std::size_t) {
  const Driver *d = ready();
  if (!d || !fn)
    return;
  if (gx <= 0 || gy <= 0 || gz <= 0)
    return; // an empty grid: a dimension of size 0, nothing to compute
  check(*d,
        d->api.cuLaunchKernel(static_cast<CUfunction>(fn), unsigned(gx),
                              unsigned(gy), unsigned(gz), unsigned(bx),
                              unsigned(by), unsigned(bz), unsigned(smem),
                              static_cast<CUstream>(stream), params, extra),
        "cuLaunchKernel");
}

void *mgpuStreamCreate() {
  const Driver *d = ready();
  return d ? callStream(*d) : nullptr;
}

// The stream is the thread's or the caller's: neither is this call's to end.
void mgpuStreamDestroy(void *) {}

void mgpuStreamSynchronize(void *stream) {
  const Driver *d = ready();
  if (d)
    check(*d, d->api.cuStreamSynchronize(static_cast<CUstream>(stream)),
          "a kernel or copy on the GPU failed");
}

void *mgpuMemAlloc(std::uint64_t bytes, void *stream, bool) {
  const Driver *d = ready();
  if (!d || bytes == 0)
    return kPlaceholder;
  CUdeviceptr ptr = 0;
  // Stream-ordered on the call's stream (every copy and kernel of the call
  // runs there, and the call has finished with it when it returns).
  if (!check(*d,
             d->streamOrdered
                 ? d->api.cuMemAllocAsync(&ptr, bytes, orCallStream(*d, stream))
                 : d->api.cuMemAlloc(&ptr, bytes),
             ("cuMemAlloc of " + std::to_string(bytes) + " bytes").c_str()))
    return kPlaceholder;
  return reinterpret_cast<void *>(ptr);
}

void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || ptr == kPlaceholder)
    return;
  std::string error;
  const Driver *d = driver(error);
  if (!d)
    return;
  CUresult r;
  if (d->streamOrdered) {
    // Back to the pool once the work queued on the buffer is done.
    r = d->api.cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(ptr),
                              orCallStream(*d, stream));
  } else {
    // What was queued on the buffer finishes first.
    if (stream)
      d->api.cuStreamSynchronize(static_cast<CUstream>(stream));
    r = d->api.cuMemFree(reinterpret_cast<CUdeviceptr>(ptr));
  }
  if (!failed())
    check(*d, r, "cuMemFree");
}

void mgpuMemcpy(void *dst, void *src, std::size_t bytes, void *stream) {
  const Driver *d = ready();
  if (!d || bytes == 0 || dst == kPlaceholder || src == kPlaceholder)
    return;
  check(*d,
        d->api.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                             reinterpret_cast<CUdeviceptr>(src), bytes,
                             static_cast<CUstream>(stream)),
        "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned value, std::size_t count, void *stream) {
  const Driver *d = ready();
  if (!d || count == 0 || dst == kPlaceholder)
    return;
  check(*d,
        d->api.cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                count, static_cast<CUstream>(stream)),
        "cuMemsetD32Async");
}

void mgpuSetDefaultDevice(std::int32_t) {}

void *aotCudaConstant(const void *host, std::uint64_t bytes) {
  const Driver *d = ready();
  if (!d || bytes == 0)
    return kPlaceholder;
  // The copies live as long as the process; freed at its exit, before the
  // driver (opened before the first copy was made) is torn down.
  struct Copies {
    std::mutex mutex;
    std::map<std::pair<const void *, std::uint64_t>, void *> map;
    ~Copies() {
      std::string error;
      if (const Driver *d = driver(error);
          d && d->api.cuCtxSetCurrent(d->context) == CUDA_SUCCESS)
        for (auto &entry : map)
          d->api.cuMemFree(reinterpret_cast<CUdeviceptr>(entry.second));
    }
  };
  static Copies copies;
  std::lock_guard<std::mutex> lock(copies.mutex);
  if (auto it = copies.map.find({host, bytes}); it != copies.map.end())
    return it->second;
  CUdeviceptr ptr = 0;
  if (!check(*d, d->api.cuMemAlloc(&ptr, bytes), "cuMemAlloc of a constant"))
    return kPlaceholder;
  CUstream stream = callStream(*d);
  if (!stream ||
      !check(*d,
             d->api.cuMemcpyAsync(ptr, reinterpret_cast<CUdeviceptr>(host),
                                  bytes, stream),
             "copying a constant to the GPU") ||
      !check(*d, d->api.cuStreamSynchronize(stream),
             "copying a constant to the GPU")) {
    d->api.cuMemFree(ptr);
    return kPlaceholder;
  }
  void *device = reinterpret_cast<void *>(ptr);
  copies.map.emplace(std::make_pair(host, bytes), device);
  return device;
}

} // extern "C"
