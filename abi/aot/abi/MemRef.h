//===- MemRef.h - memref descriptors of the MLIR C ABI --------------------===//
//
// Layout-identical to MLIR's StridedMemRefType<T, N> for every rank: this is
// what `_mlir_ciface_*` functions take (by pointer) and fill in for results.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <array>
#include <cstdint>

AOT_ABI_BEGIN_NAMESPACE

/// A strided view of rank R over elements of type T. Borrows its memory: it
/// never allocates or frees. `allocated` is what malloc returned (the pointer
/// to free), `aligned` + `offset` is the first element, strides count elements.
template <typename T, int R> struct MemRef {
  static_assert(R >= 0, "rank must be non-negative");
  T *allocated = nullptr;
  T *aligned = nullptr;
  std::int64_t offset = 0;
  std::int64_t sizes[R] = {};
  std::int64_t strides[R] = {};

  static constexpr int rank = R;
  using element_type = T;

  /// A contiguous row-major view of `data` with the given shape.
  static MemRef contiguous(T *data, const std::array<std::int64_t, R> &shape) {
    MemRef m;
    m.allocated = m.aligned = data;
    std::int64_t stride = 1;
    for (int i = R - 1; i >= 0; --i) {
      m.sizes[i] = shape[i];
      m.strides[i] = stride;
      stride *= shape[i];
    }
    return m;
  }
  std::int64_t numElements() const {
    std::int64_t n = 1;
    for (int i = 0; i < R; ++i)
      n *= sizes[i];
    return n;
  }
  /// The element at `idx`, read through strides and offset.
  T &operator[](const std::array<std::int64_t, R> &idx) const {
    std::int64_t pos = offset;
    for (int i = 0; i < R; ++i)
      pos += idx[i] * strides[i];
    return aligned[pos];
  }
};

/// Rank 0: MLIR's descriptor has no size or stride arrays at all.
template <typename T> struct MemRef<T, 0> {
  T *allocated = nullptr;
  T *aligned = nullptr;
  std::int64_t offset = 0;

  static constexpr int rank = 0;
  using element_type = T;

  static MemRef contiguous(T *data, const std::array<std::int64_t, 0> & = {}) {
    MemRef m;
    m.allocated = m.aligned = data;
    return m;
  }
  std::int64_t numElements() const { return 1; }
  T &operator[](const std::array<std::int64_t, 0> &) const {
    return aligned[offset];
  }
};

static_assert(sizeof(MemRef<float, 0>) == 24);
static_assert(sizeof(MemRef<float, 2>) == 24 + 2 * 16);

AOT_ABI_END_NAMESPACE
