//===- Eigen.h - Eigen tensor views of memrefs and tensors ----------------===//
//
// Zero-copy Eigen::TensorMap views, so results of compiled code can be
// checked or post-processed with Eigen expressions. An Eigen TensorMap has
// no strides, so only dense row-major memory can be viewed; anything else is
// an Error (make it contiguous first with Tensor::contiguous()).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/MemRef.h"
#include "aot/abi/Tensor.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdint>
#include <string>

AOT_ABI_BEGIN_NAMESPACE

/// The Eigen scalar that views an ABI element type: the type itself, except
/// that f16 and bf16 are viewed as Eigen::half and Eigen::bfloat16 (same
/// 16-bit IEEE / bfloat16 bits), so Eigen arithmetic works on them.
template <typename T> struct EigenScalar { using type = T; };
template <> struct EigenScalar<f16> { using type = Eigen::half; };
template <> struct EigenScalar<bf16> { using type = Eigen::bfloat16; };
template <typename T> using EigenScalarT = typename EigenScalar<T>::type;

static_assert(sizeof(Eigen::half) == sizeof(f16) &&
              alignof(Eigen::half) == alignof(f16));
static_assert(sizeof(Eigen::bfloat16) == sizeof(bf16) &&
              alignof(Eigen::bfloat16) == alignof(bf16));

/// A row-major Eigen view of rank R over elements of type T.
template <typename T, int R>
using EigenTensorMap =
    Eigen::TensorMap<Eigen::Tensor<EigenScalarT<T>, R, Eigen::RowMajor>>;

namespace detail {

/// Whether strides describe dense row-major memory. Strides of dimensions of
/// size 1 do not matter, and an empty tensor is dense whatever its strides.
inline bool isDenseRowMajor(const std::int64_t *sizes,
                            const std::int64_t *strides, int rank) {
  for (int i = 0; i < rank; ++i)
    if (sizes[i] == 0)
      return true;
  std::int64_t expected = 1;
  for (int i = rank - 1; i >= 0; --i) {
    if (sizes[i] != 1 && strides[i] != expected)
      return false;
    expected *= sizes[i];
  }
  return true;
}

template <typename T, int R>
EigenTensorMap<T, R> makeEigenMap(T *data, const std::int64_t *sizes) {
  Eigen::DSizes<Eigen::Index, R> dims;
  for (int i = 0; i < R; ++i)
    dims[i] = Eigen::Index(sizes[i]);
  return EigenTensorMap<T, R>(reinterpret_cast<EigenScalarT<T> *>(data), dims);
}

} // namespace detail

/// A view of `m`'s memory (which it borrows: `m`'s buffer must outlive it).
/// Throws Error when `m` is not dense row-major.
template <typename T, int R>
EigenTensorMap<T, R> asEigen(const MemRef<T, R> &m) {
  T *first = m.aligned + m.offset;
  if constexpr (R == 0) {
    return detail::makeEigenMap<T, 0>(first, nullptr);
  } else {
    if (!detail::isDenseRowMajor(m.sizes, m.strides, R))
      throw Error("asEigen: memref is not dense row-major (Eigen TensorMap "
                  "has no strides); copy it to a contiguous buffer first");
    return detail::makeEigenMap<T, R>(first, m.sizes);
  }
}

/// A view of `t`'s memory (borrowed: keep a copy of `t` alive while using
/// it). Throws Error when `t`'s dtype is not T, its rank is not R, or it is
/// not dense row-major.
template <typename T, int R> EigenTensorMap<T, R> asEigen(const Tensor &t) {
  if (t.dtype() != dtypeOf<T>)
    throw Error("asEigen: tensor holds " + std::string(dtypeName(t.dtype())) +
                ", not " + std::string(dtypeName(dtypeOf<T>)));
  if (t.rank() != R)
    throw Error("asEigen: tensor has rank " + std::to_string(t.rank()) +
                ", not " + std::to_string(R));
  if (!detail::isDenseRowMajor(t.shape().data(), t.strides().data(), R))
    throw Error("asEigen: tensor of shape " + shapeString(t.shape()) +
                " is not dense row-major (Eigen TensorMap has no strides); "
                "use Tensor::contiguous() first");
  return detail::makeEigenMap<T, R>(static_cast<T *>(t.rawData()),
                                    t.shape().data());
}

AOT_ABI_END_NAMESPACE
