/* Calls kernels.mlir compiled to a shared library through the memref C ABI. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "memref2.h"

void _mlir_ciface_add(MemRef2 *result, MemRef2 *a, MemRef2 *b);
void _mlir_ciface_scale(MemRef2 *result, MemRef2 *x, float s, int32_t n);

static float at(const MemRef2 *m, int64_t i, int64_t j) {
  return m->aligned[m->offset + i * m->strides[0] + j * m->strides[1]];
}

int main(void) {
  float a[32], b[32], x[12];
  for (int i = 0; i < 32; ++i) {
    a[i] = (float)i;
    b[i] = 100.0f * (float)i;
  }
  for (int i = 0; i < 12; ++i)
    x[i] = (float)i;

  MemRef2 da = {a, a, 0, {4, 8}, {8, 1}};
  MemRef2 db = {b, b, 0, {4, 8}, {8, 1}};
  MemRef2 r;
  _mlir_ciface_add(&r, &da, &db);
  printf("add: sizes %lldx%lld strides %lld,%lld\n", (long long)r.sizes[0],
         (long long)r.sizes[1], (long long)r.strides[0],
         (long long)r.strides[1]);
  printf("add[0][0] = %g\n", at(&r, 0, 0));
  printf("add[3][5] = %g\n", at(&r, 3, 5));
  printf("add: %s\n", r.allocated == a || r.allocated == b ? "aliases an input"
                                                            : "fresh buffer");
  free(r.allocated);

  /* scale: x * 2 + 7 over a 3x4 tensor (the first dim is dynamic). */
  MemRef2 dx = {x, x, 0, {3, 4}, {4, 1}};
  MemRef2 s;
  _mlir_ciface_scale(&s, &dx, 2.0f, 7);
  printf("scale: sizes %lldx%lld strides %lld,%lld\n", (long long)s.sizes[0],
         (long long)s.sizes[1], (long long)s.strides[0],
         (long long)s.strides[1]);
  printf("scale[0][0] = %g\n", at(&s, 0, 0));
  printf("scale[2][3] = %g\n", at(&s, 2, 3));
  free(s.allocated);
  printf("done\n");
  return 0;
}
