//===- CudaEntryPoints.h - the GPU runtime functions compiled code calls --===//
//
// Host code compiled for a cuda target calls these by name: the `mgpu*`
// functions with the signatures of MLIR's gpu-to-llvm lowering and its
// translation of gpu.binary, and aotCudaConstant. Defined in
// CudaRuntime.cpp; the compiler's link table takes their addresses for
// in-process loads. aotCudaBegin and the status functions are public
// (aot/abi/CudaStatus.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" {
/// The device copy of a constant global, made on first use.
void *aotCudaConstant(const void *host, std::uint64_t bytes);
void *mgpuModuleLoad(void *data, std::uint64_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, std::intptr_t gridX, std::intptr_t gridY,
                      std::intptr_t gridZ, std::intptr_t blockX,
                      std::intptr_t blockY, std::intptr_t blockZ,
                      std::int32_t sharedBytes, void *stream, void **params,
                      void **extra, std::size_t paramCount);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void *mgpuMemAlloc(std::uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, std::size_t bytes, void *stream);
void mgpuMemset32(void *dst, unsigned value, std::size_t count, void *stream);
void mgpuSetDefaultDevice(std::int32_t device);
/// --trace-kernels-to (CudaTrace.cpp): a launch, each buffer it wrote as
/// a memref<?xindex> [aligned address, offset, sizes, strides], its end.
void aotCudaTraceLaunch(const char *dir, const char *kernel,
                        const char *location);
void aotCudaTraceBuffer(std::int32_t arg, std::int32_t dtype, std::int32_t rank,
                        std::int64_t *allocated, std::int64_t *aligned,
                        std::int64_t offset, std::int64_t size,
                        std::int64_t stride);
void aotCudaTraceEnd();
}
