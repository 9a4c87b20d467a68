//===- BufferCache.cpp - memory for memref.alloc, kept across calls -------===//
//
// Compiled code allocates the buffers between its dispatches on every call
// and frees each right after its last use. Through malloc alone, large
// blocks go back to the system on free (glibc unmaps them, or trims the top
// of the heap) and come back as fresh pages on the next call: a transformer
// layer spent more time in page faults than in its arithmetic. These two
// functions, what MLIR's memref lowering calls with use-generic-functions,
// keep freed blocks of 64 KiB or more in a small per-thread cache and hand
// them out again. Every block comes from malloc, so a result the caller
// frees with free() is fine, and so is a block freed here that the caller
// allocated. Plain C data only: no C++ runtime needed.
//
//===----------------------------------------------------------------------===//

#include "aot/abi/Runtime.h"

#include <cstdlib>
#include <malloc.h>
#include <pthread.h>

namespace {

constexpr std::size_t kMinCached = std::size_t(64) << 10;
constexpr std::size_t kMaxCachedBytes = std::size_t(1) << 30;
constexpr int kSlots = 256;

struct Block {
  void *ptr;
  std::size_t size; // usable size
};

/// Zero-initialised, trivially destructible: a thread's cache.
struct Cache {
  Block blocks[kSlots]; // oldest first
  int count;
  std::size_t bytes;
  bool registered;
};

thread_local Cache cache;

void flush(Cache *c) {
  for (int i = 0; i < c->count; ++i)
    std::free(c->blocks[i].ptr);
  c->count = 0;
  c->bytes = 0;
}

pthread_key_t key;
pthread_once_t once = PTHREAD_ONCE_INIT;

/// Threads that end give their blocks back; so does the process at exit.
void makeKey() {
  pthread_key_create(&key, [](void *c) { flush(static_cast<Cache *>(c)); });
}

void evictOldest(Cache &c) {
  std::free(c.blocks[0].ptr);
  c.bytes -= c.blocks[0].size;
  for (int i = 1; i < c.count; ++i)
    c.blocks[i - 1] = c.blocks[i];
  --c.count;
}

} // namespace

extern "C" void *aot::abi::_mlir_memref_to_llvm_alloc(std::size_t size) {
  if (size >= kMinCached) {
    // The smallest cached block that fits without wasting half of itself.
    int best = -1;
    for (int i = 0; i < cache.count; ++i) {
      std::size_t have = cache.blocks[i].size;
      if (have >= size && have / 2 <= size &&
          (best < 0 || have < cache.blocks[best].size))
        best = i;
    }
    if (best >= 0) {
      void *ptr = cache.blocks[best].ptr;
      cache.bytes -= cache.blocks[best].size;
      for (int i = best + 1; i < cache.count; ++i)
        cache.blocks[i - 1] = cache.blocks[i];
      --cache.count;
      return ptr;
    }
  }
  return std::malloc(size);
}

extern "C" void aot::abi::_mlir_memref_to_llvm_free(void *ptr) {
  if (!ptr)
    return;
  std::size_t size = malloc_usable_size(ptr);
  if (size < kMinCached || size > kMaxCachedBytes) {
    std::free(ptr);
    return;
  }
  if (!cache.registered) {
    pthread_once(&once, [] {
      makeKey();
      std::atexit([] { flush(&cache); });
    });
    pthread_setspecific(key, &cache);
    cache.registered = true;
  }
  while (cache.count > 0 &&
         (cache.count == kSlots || cache.bytes + size > kMaxCachedBytes))
    evictOldest(cache);
  cache.blocks[cache.count++] = {ptr, size};
  cache.bytes += size;
}
