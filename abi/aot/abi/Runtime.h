//===- Runtime.h - the C runtime that compiled code calls -----------------===//
//
// Functions that MLIR's lowering emits calls to and that mlir-aot provides in
// the MlirAot::runtime library (aot_runtime), so compiled objects link
// without MLIR's own runtime libraries. Link MlirAot::runtime when you call
// them or link compiled code. Deliberately not part of Abi.h: MLIR's
// CRunnerUtils.h declares the same C symbols with its own types.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <cstddef>
#include <cstdint>

AOT_ABI_BEGIN_NAMESPACE

/// MLIR's UnrankedMemRefType<char>: a rank and a pointer to a ranked
/// descriptor {char *allocated; char *aligned; int64_t offset;
/// int64_t sizes[rank]; int64_t strides[rank]} (MemRef<char, rank>).
struct UnrankedMemRef {
  std::int64_t rank;
  void *descriptor;
};

extern "C" {
/// What `memref.copy` lowers to when it cannot emit a plain memcpy: copies
/// every element of `src` (shape taken from `src`) to the same index of
/// `dst`, following each side's offset and strides. Elements are `elemSize`
/// bytes. Same symbol and semantics as MLIR's CRunnerUtils memrefCopy.
void memrefCopy(std::int64_t elemSize, UnrankedMemRef *src,
                UnrankedMemRef *dst);
/// What `memref.alloc` lowers to: malloc, except that a block of 64 KiB or
/// more that compiled code freed before on this thread is handed out again
/// (up to 256 blocks, 1 GiB per thread: one call of a network frees a
/// hundred buffers or more), so buffers allocated on every call do not
/// come back as fresh pages each time. The memory is uninitialised. Always
/// memory that free() accepts.
void *_mlir_memref_to_llvm_alloc(std::size_t size);
/// What `memref.dealloc` lowers to: keeps a large block for the next
/// allocation on this thread, or frees it. Cached blocks are freed when the
/// thread or the process ends. Accepts any pointer from malloc.
void _mlir_memref_to_llvm_free(void *ptr);
}

AOT_ABI_END_NAMESPACE
