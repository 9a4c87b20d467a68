/* The memref descriptor of a rank-2 f32 tensor, as the C ABI passes it. */
#pragma once
#include <stdint.h>

typedef struct {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} MemRef2;
