/* A stand-in for a compiled library, written by hand: results that borrow
 * an argument, point into constant data or carry no allocation, which
 * compiled code never returns (MLIR's buffer deallocation clones such
 * results) but the ABI allows and mlir_aot must handle. It follows the
 * calling convention of `_aot_invoke_NAME(void **slots)` and carries its
 * manifest in section `aot_manifest`, like the real thing.
 *
 * -DFAKE_CUDA: the module claims a cuda target and every call fails with
 * the runtime's status. -DFAKE_ABI_VERSION=N: a manifest of another ABI.
 * -DFAKE_TWO_MODULES: two manifests in one library. -DFAKE_BAD_WEIGHTS: a
 * malformed "weights" entry. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_ABI_VERSION
#define FAKE_ABI_VERSION 1
#endif
#ifdef FAKE_CUDA
#define TARGET "cuda:sm_90"
#else
#define TARGET "host"
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

#define T(dtype, shape) \
  "{\"kind\":\"tensor\",\"dtype\":\"" dtype "\",\"shape\":[" shape "]}"

__attribute__((used, section("aot_manifest"))) static const char manifest[] =
    "{\"abi_version\":" STR(FAKE_ABI_VERSION) ",\"module\":\"fake_abi\","
    "\"target\":\"" TARGET "\",\"link\":[],"
#ifdef FAKE_BAD_WEIGHTS
    "\"weights\":{\"file\":1,\"load\":\"load\"},"
#endif
    "\"functions\":["
    "{\"name\":\"identity\",\"symbol\":\"_mlir_ciface_identity\","
    "\"args\":[" T("f32", "3,4") "],\"results\":[" T("f32", "3,4") "]},"
    "{\"name\":\"identity_dyn\",\"symbol\":\"_mlir_ciface_identity_dyn\","
    "\"args\":[" T("i64", "-1") "],\"results\":[" T("i64", "-1") "]},"
    "{\"name\":\"tail\",\"symbol\":\"_mlir_ciface_tail\","
    "\"args\":[" T("f32", "8") "],\"results\":[" T("f32", "4") "]},"
    "{\"name\":\"same_twice\",\"symbol\":\"_mlir_ciface_same_twice\","
    "\"args\":[" T("i32", "4") "],\"results\":[" T("i32", "4") "," T("i32", "4") "]},"
    "{\"name\":\"swap\",\"symbol\":\"_mlir_ciface_swap\","
    "\"args\":[" T("f32", "2,3") "," T("i16", "5") "],"
    "\"results\":[" T("i16", "5") "," T("f32", "2,3") "]},"
    "{\"name\":\"pass_and_double\",\"symbol\":\"_mlir_ciface_pass_and_double\","
    "\"args\":[" T("i32", "4") "],\"results\":[" T("i32", "4") "," T("i32", "4") "]},"
    "{\"name\":\"constant\",\"symbol\":\"_mlir_ciface_constant\","
    "\"args\":[],\"results\":[" T("f32", "4") "]},"
    "{\"name\":\"unowned\",\"symbol\":\"_mlir_ciface_unowned\","
    "\"args\":[],\"results\":[" T("f32", "4") "]},"
    "{\"name\":\"noop\",\"symbol\":\"_mlir_ciface_noop\","
    "\"args\":[{\"kind\":\"scalar\",\"dtype\":\"f32\",\"shape\":[]}],"
    "\"results\":[]}"
    "]}"
#ifdef FAKE_TWO_MODULES
    "\0{\"abi_version\":1,\"module\":\"other\",\"target\":\"host\","
    "\"link\":[],\"functions\":[]}"
#endif
    ;

static const float table[4] = {1, 2, 3, 4};

/* A tensor argument's slot points at a variable holding its descriptor's
 * address; a tensor result's slot points at the descriptor to fill. */
static int64_t *argument(void **slots, int i) { return *(int64_t **)slots[i]; }
static int64_t *result(void **slots, int i) { return (int64_t *)slots[i]; }

static void copyDescriptor(int64_t *to, const int64_t *from, int rank) {
  memcpy(to, from, sizeof(int64_t) * (3 + 2 * (size_t)rank));
}

static void vector(int64_t *d, void *allocated, const void *aligned,
                   int64_t offset, int64_t size) {
  d[0] = (int64_t)(intptr_t)allocated;
  d[1] = (int64_t)(intptr_t)aligned;
  d[2] = offset;
  d[3] = size;
  d[4] = 1;
}

void _aot_invoke_identity(void **slots) {
  copyDescriptor(result(slots, 1), argument(slots, 0), 2);
}

void _aot_invoke_identity_dyn(void **slots) {
  copyDescriptor(result(slots, 1), argument(slots, 0), 1);
}

/* Elements 4..7 of the argument: a borrowed view at an offset. */
void _aot_invoke_tail(void **slots) {
  int64_t *x = argument(slots, 0);
  vector(result(slots, 1), (void *)(intptr_t)x[0], (void *)(intptr_t)x[1],
         x[2] + 4, 4);
}

void _aot_invoke_same_twice(void **slots) {
  copyDescriptor(result(slots, 1), argument(slots, 0), 1);
  copyDescriptor(result(slots, 2), argument(slots, 0), 1);
}

void _aot_invoke_swap(void **slots) {
  copyDescriptor(result(slots, 2), argument(slots, 1), 1);
  copyDescriptor(result(slots, 3), argument(slots, 0), 2);
}

void _aot_invoke_pass_and_double(void **slots) {
  int64_t *x = argument(slots, 0);
  const int32_t *in = (const int32_t *)(intptr_t)x[1] + x[2];
  int32_t *out = malloc(4 * sizeof(int32_t));
  for (int i = 0; i < 4; ++i)
    out[i] = 2 * in[i * x[4]];
  copyDescriptor(result(slots, 1), x, 1);
  vector(result(slots, 2), out, out, 0, 4);
}

/* What MLIR's lowering of memref.get_global returns. */
void _aot_invoke_constant(void **slots) {
  vector(result(slots, 0), (void *)(intptr_t)0xdeadbeef, table, 0, 4);
}

void _aot_invoke_unowned(void **slots) {
  vector(result(slots, 0), NULL, table, 0, 4);
}

void _aot_invoke_noop(void **slots) { (void)slots; }

#ifdef FAKE_CUDA
int aotCudaStatus(void) { return 2; }
const char *aotCudaLastError(void) {
  return "cuMemAlloc of 64 bytes: CUDA_ERROR_OUT_OF_MEMORY (out of memory)";
}
#endif
