//===- CudaStatus.h - how a call of GPU code reports failure --------------===//
//
// The host entry points of code compiled for a cuda target (`_mlir_ciface_F`,
// taking and returning host memory) cannot throw or abort. A failure of the
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

/// Starts a call: clears the calling thread's status. Compiled code calls it
/// on entry.
void aotCudaBegin(void);
/// 0 if the calling thread's last call succeeded; else the CUresult of the
/// first failure, or one of the AOT_CUDA_ codes above.
int aotCudaStatus(void);
/// What failed, naming the CUDA error ("cuMemAlloc of 4096 bytes:
/// CUDA_ERROR_OUT_OF_MEMORY (out of memory)"), or NULL after a success.
const char *aotCudaLastError(void);

#ifdef __cplusplus
}
#endif
