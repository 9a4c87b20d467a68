//===- MemrefCopy.cpp - the strided copy that memref.copy lowers to -------===//
//
// Same contract as MLIR's CRunnerUtils memrefCopy: the shape comes from the
// source, each side is addressed through its own offset and strides (any
// sign, zero included), and nothing is copied when a dimension is empty.
// The innermost dimensions that are dense on both sides are copied as one
// block; the outer ones are walked recursively (depth = rank, no
// allocation).
//
//===----------------------------------------------------------------------===//

#include "aot/abi/MemRef.h"
#include "aot/abi/Runtime.h"

#include <cstring>

namespace {

using aot::abi::MemRef;
using aot::abi::UnrankedMemRef;

/// A ranked descriptor read through the unranked one: the fixed prefix is
/// MemRef<char, 0>, sizes[rank] and strides[rank] follow it.
struct Side {
  char *first;
  const std::int64_t *sizes;
  const std::int64_t *strides;
};

Side sideOf(const UnrankedMemRef &m, std::int64_t elemSize) {
  auto *prefix = static_cast<const MemRef<char, 0> *>(m.descriptor);
  auto *sizes = reinterpret_cast<const std::int64_t *>(
      static_cast<const char *>(m.descriptor) + sizeof(MemRef<char, 0>));
  return {prefix->aligned + prefix->offset * elemSize, sizes, sizes + m.rank};
}

struct Copy {
  const std::int64_t *sizes;
  const std::int64_t *srcStrides; // in elements
  const std::int64_t *dstStrides; // in elements
  std::int64_t elemSize;
  int blockedRank;        // dimensions walked one by one
  std::size_t blockBytes; // bytes copied at once below them

  void run(int axis, const char *src, char *dst) const {
    if (axis == blockedRank) {
      std::memmove(dst, src, blockBytes);
      return;
    }
    std::int64_t srcStep = srcStrides[axis] * elemSize;
    std::int64_t dstStep = dstStrides[axis] * elemSize;
    for (std::int64_t i = 0; i < sizes[axis]; ++i)
      run(axis + 1, src + i * srcStep, dst + i * dstStep);
  }
};

} // namespace

AOT_ABI_BEGIN_NAMESPACE

extern "C" void memrefCopy(std::int64_t elemSize, UnrankedMemRef *src,
                           UnrankedMemRef *dst) {
  if (!src || !dst || elemSize <= 0 || src->rank < 0)
    return;
  int rank = int(src->rank);
  Side s = sideOf(*src, elemSize), d = sideOf(*dst, elemSize);
  for (int i = 0; i < rank; ++i)
    if (s.sizes[i] == 0)
      return;

  // Peel off the innermost dimensions that are dense on both sides (a
  // dimension of size 1 is dense whatever its stride): they are copied as
  // one block per index of the outer dimensions.
  std::size_t blockBytes = std::size_t(elemSize);
  int blockedRank = rank;
  while (blockedRank > 0) {
    int i = blockedRank - 1;
    bool dense = s.sizes[i] == 1 ||
                 (s.strides[i] * elemSize == std::int64_t(blockBytes) &&
                  d.strides[i] * elemSize == std::int64_t(blockBytes));
    if (!dense)
      break;
    blockBytes *= std::size_t(s.sizes[i]);
    --blockedRank;
  }

  Copy{s.sizes, s.strides, d.strides, elemSize, blockedRank, blockBytes}.run(
      0, s.first, d.first);
}

AOT_ABI_END_NAMESPACE
