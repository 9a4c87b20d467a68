/* Calls the device entry point of kernels.mlir compiled for a cuda target
 * (_mlir_ciface_add$device: descriptors of device memory, then a CUstream)
 * where there is no CUDA driver: the call returns, the status names the
 * missing driver, and aotCudaFree takes what the failed call returned. */
#include <stdint.h>
#include <stdio.h>

#include "aot/abi/CudaStatus.h"

#include "memref2.h"

void add_device(MemRef2 *result, MemRef2 *a, MemRef2 *b, void *stream)
    __asm__("_mlir_ciface_add$device");

int main(void) {
  /* Never dereferenced: without a driver nothing reaches the GPU. */
  float *fake = (float *)0x1000;
  MemRef2 a = {fake, fake, 0, {4, 8}, {8, 1}};
  MemRef2 b = a;
  MemRef2 r = {0};
  for (int attempt = 0; attempt < 2; ++attempt) {
    add_device(&r, &a, &b, NULL);
    printf("status %d: %s\n", aotCudaStatus(),
           aotCudaLastError() ? aotCudaLastError() : "(none)");
    aotCudaFree(r.allocated);
  }
  printf("unavailable: %s\n", aotCudaUnavailable() ? "yes" : "no");
  return 0;
}
