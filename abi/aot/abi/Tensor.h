//===- Tensor.h - type-erased tensors for calls and .npz I/O ---------------===//
#pragma once

#include "aot/abi/DType.h"
#include "aot/abi/Error.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE

/// Row-major strides (in elements) of a contiguous tensor of `shape`.
inline std::vector<std::int64_t>
contiguousStrides(const std::vector<std::int64_t> &shape) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

inline std::int64_t numElementsOf(const std::vector<std::int64_t> &shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t(1),
                         std::multiplies<>());
}

/// "[2, ?, 4]"-style rendering used in error messages.
inline std::string shapeString(const std::vector<std::int64_t> &shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += shape[i] < 0 ? std::string("?") : std::to_string(shape[i]);
  }
  return s + "]";
}

/// The number of elements of `shape`, or an Error naming `what` when a
/// dimension is negative or the element count or byte size (for elements of
/// `elementSize` bytes) does not fit in 63 bits. Use this on any shape that
/// comes from outside the program (a file, a manifest).
inline std::int64_t checkedNumElements(const std::vector<std::int64_t> &shape,
                                       std::size_t elementSize,
                                       std::string_view what) {
  auto fail = [&](const char *problem) {
    std::string dims;
    for (std::size_t i = 0; i < shape.size(); ++i)
      dims += (i ? ", " : "") + std::to_string(shape[i]);
    return Error(std::string(what) + ": shape [" + dims + "] " + problem);
  };
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    if (d < 0)
      throw fail("has a negative dimension");
  for (std::int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n))
      throw fail("has too many elements");
  std::int64_t bytes;
  if (__builtin_mul_overflow(n, std::int64_t(elementSize), &bytes))
    throw fail("is too large in bytes");
  return n;
}

/// A tensor of any dtype and rank: a strided view plus a share in whatever
/// keeps its memory alive. Copies share the memory (like a shared_ptr); the
/// memory is released when the last copy goes. A Tensor whose owner is empty
/// borrows memory that someone else (the caller) must keep alive.
class Tensor {
public:
  Tensor() = default;

  /// A new zero-filled contiguous tensor that owns its memory.
  /// Throws Error for a negative dimension or a size that overflows.
  static Tensor zeros(DType dtype, std::vector<std::int64_t> shape) {
    std::size_t bytes =
        std::size_t(checkedNumElements(shape, dtypeSize(dtype), "tensor")) *
        dtypeSize(dtype);
    std::shared_ptr<void> owner(std::calloc(bytes ? bytes : 1, 1), std::free);
    if (!owner)
      throw Error("out of memory allocating " + std::to_string(bytes) +
                  " bytes");
    Tensor t;
    t.dtype_ = dtype;
    t.data_ = owner.get();
    t.strides_ = contiguousStrides(shape);
    t.shape_ = std::move(shape);
    t.owner_ = std::move(owner);
    return t;
  }

  /// A view of memory described by data pointer (first element), shape and
  /// strides in elements. `owner` keeps it alive; pass nullptr to borrow.
  static Tensor view(DType dtype, void *data, std::vector<std::int64_t> shape,
                     std::vector<std::int64_t> strides,
                     std::shared_ptr<void> owner = nullptr) {
    if (strides.size() != shape.size())
      throw Error("tensor view: " + std::to_string(strides.size()) +
                  " strides for rank " + std::to_string(shape.size()));
    Tensor t;
    t.dtype_ = dtype;
    t.data_ = data;
    t.shape_ = std::move(shape);
    t.strides_ = std::move(strides);
    t.owner_ = std::move(owner);
    return t;
  }

  /// A borrowed contiguous view of a std::vector-like buffer.
  template <typename T>
  static Tensor borrow(T *data, std::vector<std::int64_t> shape) {
    auto strides = contiguousStrides(shape);
    return view(dtypeOf<T>, data, std::move(shape), std::move(strides));
  }

  DType dtype() const { return dtype_; }
  int rank() const { return int(shape_.size()); }
  const std::vector<std::int64_t> &shape() const { return shape_; }
  const std::vector<std::int64_t> &strides() const { return strides_; }
  std::int64_t numElements() const { return numElementsOf(shape_); }
  std::size_t elementSize() const { return dtypeSize(dtype_); }
  void *rawData() const { return data_; }
  bool ownsMemory() const { return owner_ != nullptr; }
  const std::shared_ptr<void> &owner() const { return owner_; }

  bool isContiguous() const { return strides_ == contiguousStrides(shape_); }

  /// Typed pointer to the first element; throws if T is not the dtype.
  template <typename T> T *data() const {
    if (dtypeOf<T> != dtype_)
      throw Error("tensor holds " + std::string(dtypeName(dtype_)) +
                  ", not " + std::string(dtypeName(dtypeOf<T>)));
    return static_cast<T *>(data_);
  }

  /// Pointer to the element at a flat row-major index, read through strides.
  void *elementAt(std::int64_t flat) const {
    std::int64_t pos = 0;
    for (std::size_t i = shape_.size(); i-- > 0;) {
      pos += (flat % shape_[i]) * strides_[i];
      flat /= shape_[i];
    }
    return static_cast<char *>(data_) + pos * std::int64_t(elementSize());
  }

  /// A contiguous copy that owns its memory (a plain share if already so).
  Tensor contiguous() const {
    if (isContiguous() && owner_)
      return *this;
    Tensor out = zeros(dtype_, shape_);
    std::size_t es = elementSize();
    char *dst = static_cast<char *>(out.data_);
    for (std::int64_t i = 0, n = numElements(); i < n; ++i)
      std::memcpy(dst + i * es, elementAt(i), es);
    return out;
  }

private:
  DType dtype_ = DType::F32;
  void *data_ = nullptr;
  std::vector<std::int64_t> shape_;
  std::vector<std::int64_t> strides_;
  std::shared_ptr<void> owner_;
};

AOT_ABI_END_NAMESPACE
