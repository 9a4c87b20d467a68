/* Opens a library compiled with external weights, calls f (weights_model.py)
 * through the memref C ABI and checks every element against the model's
 * formula, computed here in double.
 * usage: call_weights LIB MANIFEST [WEIGHTS]
 * With WEIGHTS, loads that file through the load function the manifest
 * names, printing its error if it refuses; without, the first call loads
 * the default file. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Desc2;

/* The value of "load" in the manifest's "weights" object. */
static char *loadSymbol(const char *manifest) {
  static char text[1 << 16], symbol[256];
  FILE *in = fopen(manifest, "rb");
  if (!in)
    return NULL;
  size_t n = fread(text, 1, sizeof text - 1, in);
  fclose(in);
  text[n] = '\0';
  const char *key = strstr(text, "\"load\": \"");
  if (!key)
    return NULL;
  key += strlen("\"load\": \"");
  size_t len = strcspn(key, "\"");
  if (len >= sizeof symbol)
    return NULL;
  memcpy(symbol, key, len);
  symbol[len] = '\0';
  return symbol;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 2;
  }
  if (argc > 3) {
    char *symbol = loadSymbol(argv[2]);
    int32_t (*load)(const char *, char *, uint64_t) =
        symbol ? (int32_t(*)(const char *, char *, uint64_t))dlsym(lib, symbol)
               : NULL;
    if (!load) {
      printf("no load function in the manifest or the library\n");
      return 2;
    }
    char error[1024];
    if (load(argv[3], error, sizeof error) != 0) {
      printf("load refused: %s\n", error);
      return 1;
    }
    printf("loaded %s\n", argv[3]);
  }
  void (*f)(Desc2 *, Desc2 *) =
      (void (*)(Desc2 *, Desc2 *))dlsym(lib, "_mlir_ciface_f");
  if (!f)
    return 2;
  float x[4 * 64];
  for (int i = 0; i < 4 * 64; ++i)
    x[i] = (float)(i % 13 - 6) / 8.0f;
  Desc2 in = {x, x, 0, {4, 64}, {64, 1}}, out;
  f(&out, &in);
  int wrong = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 32; ++j) {
      double ref = j;
      for (int k = 0; k < 64; ++k)
        ref += (double)x[i * 64 + k] * (((k * 32 + j) * 37 % 101 - 50) / 64.0);
      double got = out.aligned[out.offset + i * out.strides[0] + j];
      double diff = got > ref ? got - ref : ref - got;
      if (diff > 1e-4 * (1 + (ref < 0 ? -ref : ref)))
        ++wrong;
    }
  printf("%d of 128 elements wrong\n", wrong);
  free(out.allocated);
  return wrong != 0;
}
