//===- Ownership.h - who frees the buffers a compiled function returns ----===//
//
// Compiled code mallocs its result buffers and hands them to the caller. A
// result may also be the caller's own buffer (a function that returns its
// argument) or the same buffer as another result. This decides, once per
// call, which results own memory and shares one owner among aliases, so each
// buffer is freed exactly once and caller memory never.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <cstdlib>
#include <memory>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE

/// What MLIR's lowering of memref.get_global stores as `allocated`: a result
/// that points into a constant global must never be freed.
inline void *const kGlobalSentinel = reinterpret_cast<void *>(0xdeadbeef);

/// How a result buffer is released: compiled CPU code allocates with malloc.
using ReleaseFn = void (*)(void *);

/// The default ReleaseFn: std::free.
inline void freeResultBuffer(void *p) { std::free(p); }

/// For each result's `allocated` pointer, the owner that frees it: empty when
/// the pointer is null, a global, or one of the caller's own `allocated`
/// pointers, and the same shared owner for results that share a pointer.
/// The owner calls `release` (std::free unless told otherwise, e.g. for a
/// device allocation) exactly once, when its last copy goes.
inline std::vector<std::shared_ptr<void>>
adoptResultBuffers(const std::vector<void *> &resultAllocated,
                   const std::vector<void *> &callerAllocated,
                   ReleaseFn release = freeResultBuffer) {
  std::vector<std::shared_ptr<void>> owners(resultAllocated.size());
  for (std::size_t i = 0; i < resultAllocated.size(); ++i) {
    void *p = resultAllocated[i];
    if (!p || p == kGlobalSentinel)
      continue;
    bool callers = false;
    for (void *c : callerAllocated)
      callers |= (c == p);
    if (callers)
      continue;
    for (std::size_t j = 0; j < i && !owners[i]; ++j)
      if (resultAllocated[j] == p)
        owners[i] = owners[j];
    if (!owners[i])
      owners[i] = std::shared_ptr<void>(p, release);
  }
  return owners;
}

AOT_ABI_END_NAMESPACE
