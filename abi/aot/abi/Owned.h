//===- Owned.h - typed results that own their buffers ---------------------===//
//
// What the generated typed C++ headers return: a memref descriptor filled in
// by compiled code plus the owner that frees its buffer (see Ownership.h for
// when a result owns memory at all).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/MemRef.h"
#include "aot/abi/Ownership.h"
#include "aot/abi/Tensor.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE

/// A rank-R result of element type T: the descriptor compiled code returned
/// and a share in its buffer. Copies share the buffer, which is freed once,
/// when the last copy (or Tensor made by toTensor()) goes. When the result
/// aliases the caller's own memory or a constant global, the owner is empty
/// and the Owned merely borrows: that memory must outlive it.
template <typename T, int R> class Owned {
  static_assert(!std::is_const_v<T>, "results are mutable buffers");

public:
  using element_type = T;
  static constexpr int rank = R;

  Owned() = default;
  /// Adopts `desc`; `owner` frees its buffer (empty: borrow).
  Owned(const MemRef<T, R> &desc, std::shared_ptr<void> owner)
      : desc_(desc), owner_(std::move(owner)) {}

  /// The descriptor, e.g. to pass the result on to another compiled call.
  const MemRef<T, R> &desc() const { return desc_; }
  /// The first element (aligned + offset).
  T *data() const { return desc_.aligned + desc_.offset; }
  const std::shared_ptr<void> &owner() const { return owner_; }
  bool ownsMemory() const { return owner_ != nullptr; }

  std::array<std::int64_t, R> shape() const {
    std::array<std::int64_t, R> s{};
    if constexpr (R > 0)
      for (int i = 0; i < R; ++i)
        s[i] = desc_.sizes[i];
    return s;
  }
  /// Strides in elements.
  std::array<std::int64_t, R> strides() const {
    std::array<std::int64_t, R> s{};
    if constexpr (R > 0)
      for (int i = 0; i < R; ++i)
        s[i] = desc_.strides[i];
    return s;
  }
  std::int64_t numElements() const { return desc_.numElements(); }

  /// The element at `idx` (unchecked, like MemRef::operator[]).
  T &operator[](const std::array<std::int64_t, R> &idx) const {
    return desc_[idx];
  }
  /// The element at (i, j, ...) (unchecked).
  template <typename... I> T &operator()(I... idx) const {
    static_assert(sizeof...(I) == R && (std::is_integral_v<I> && ...),
                  "one integer index per dimension");
    return desc_[{std::int64_t(idx)...}];
  }
  /// The element at `idx`; throws Error when an index is out of range.
  T &at(const std::array<std::int64_t, R> &idx) const {
    if constexpr (R > 0)
      for (int i = 0; i < R; ++i)
        if (idx[i] < 0 || idx[i] >= desc_.sizes[i])
          throw Error("index " + std::to_string(idx[i]) +
                      " out of range for dimension " + std::to_string(i) +
                      " of size " + std::to_string(desc_.sizes[i]));
    return desc_[idx];
  }

  /// A type-erased Tensor view of the same memory, sharing the owner.
  Tensor toTensor() const {
    std::array<std::int64_t, R> s = shape(), st = strides();
    return Tensor::view(dtypeOf<T>, data(), {s.begin(), s.end()},
                        {st.begin(), st.end()}, owner_);
  }

private:
  MemRef<T, R> desc_;
  std::shared_ptr<void> owner_;
};

namespace detail {
template <typename... Ms, std::size_t... Is>
std::tuple<Owned<typename Ms::element_type, Ms::rank>...>
adoptResultsImpl(ReleaseFn release, const std::vector<void *> &callerAllocated,
                 std::index_sequence<Is...>, const Ms &...descs) {
  std::vector<std::shared_ptr<void>> owners = adoptResultBuffers(
      {static_cast<void *>(descs.allocated)...}, callerAllocated, release);
  return {Owned<typename Ms::element_type, Ms::rank>(descs, owners[Is])...};
}
} // namespace detail

/// Adopts the results of one call: `descs` are the result descriptors the
/// compiled function filled in, `callerAllocated` the `allocated` pointers of
/// the caller's own arguments. Returns one Owned per result, in order;
/// results sharing a buffer share one owner, results in caller memory or in
/// a constant global own nothing. Use `release` for buffers not from malloc.
template <typename... Ms>
std::tuple<Owned<typename Ms::element_type, Ms::rank>...>
adoptResultsWith(ReleaseFn release, const std::vector<void *> &callerAllocated,
                 const Ms &...descs) {
  return detail::adoptResultsImpl(release, callerAllocated,
                                  std::index_sequence_for<Ms...>{}, descs...);
}

/// adoptResultsWith for malloc'ed result buffers (compiled CPU code).
template <typename... Ms>
std::tuple<Owned<typename Ms::element_type, Ms::rank>...>
adoptResults(const std::vector<void *> &callerAllocated, const Ms &...descs) {
  return adoptResultsWith(freeResultBuffer, callerAllocated, descs...);
}

/// Adopts a single result (see adoptResults).
template <typename T, int R>
Owned<T, R> adoptResult(const std::vector<void *> &callerAllocated,
                        const MemRef<T, R> &desc) {
  return std::get<0>(adoptResults(callerAllocated, desc));
}

AOT_ABI_END_NAMESPACE
