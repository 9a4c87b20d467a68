//===- CudaStatus.h - how a call of GPU code reports failure --------------===//
//
// The entry points of code compiled for a cuda target (`_mlir_ciface_F`,
// taking and returning host memory, and `_mlir_ciface_F$device`, taking and
// returning device memory) cannot throw or abort. A failure of the
// GPU side (no driver, no device, out of device memory, a kernel that fails,
// kernels the GPU cannot load) is kept for the calling thread until its next
// call: after each call, aotCudaStatus() is 0 on success. On failure the
// results' contents are undefined; they are still the caller's to free.
//
//===----------------------------------------------------------------------===//
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Not a CUresult: the driver could not be loaded or has no device.
#define AOT_CUDA_NO_DRIVER (-1)
/// Not a CUresult: the embedded kernel blob is damaged.
#define AOT_CUDA_BAD_IMAGE (-2)
/// Not a CUresult: code compiled with --trace-kernels-to could not write
/// its trace.
#define AOT_CUDA_TRACE_FAILED (-3)

/// Starts a call: clears the calling thread's status. Compiled code calls it
/// on entry.
void aotCudaBegin(void);
/// Starts a call of a device entry point (`_mlir_ciface_F$device`): clears
/// the status, and runs the call's copies and kernels on `stream` (a
/// CUstream of the primary context; NULL for the runtime's own stream).
void aotCudaBeginOn(void *stream);
/// 0 if the calling thread's last call succeeded; else the CUresult of the
/// first failure, or one of the AOT_CUDA_ codes above.
int aotCudaStatus(void);
/// What failed, naming the CUDA error ("cuMemAlloc of 4096 bytes:
/// CUDA_ERROR_OUT_OF_MEMORY (out of memory)"), or NULL after a success.
const char *aotCudaLastError(void);
/// Frees a result buffer of a device entry point (cuMemFree in the primary
/// context the runtime uses); NULL and the placeholders a failed call
/// returns are ignored. The runtime latches nothing: safe after a failure.
void aotCudaFree(void *device);
/// NULL when compiled GPU code can run here: the driver loads and has a
/// device. Otherwise why not ("no CUDA driver: libcuda.so.1 could not be
/// loaded (...)", "no CUDA device: ..."), the same for the whole process.
/// Opens the driver on first use; needs no call in flight.
const char *aotCudaUnavailable(void);

#ifdef __cplusplus
}
#endif
