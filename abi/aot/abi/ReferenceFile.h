//===- ReferenceFile.h - checked reading of a reference .npz -------------===//
//
// The arguments and expected results of compiled functions, read from an
// .npz archive (numpy.savez) and checked against the functions' signatures
// before use, so that a stale or mismatched reference fails with a message
// naming the file and the key instead of feeding compiled code memory of
// the wrong size. bf16 arrays are accepted as numpy uint16 bit patterns (see
// Npy.h), i1 as numpy bool. Used by the test runtime
// (aot/testing/Reference.h) and by --bisect-actions.
//
// Header-only; needs libzip (MlirAot::abi).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/DType.h"
#include "aot/abi/Error.h"
#include "aot/abi/Npy.h"
#include "aot/abi/Npz.h"
#include "aot/abi/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE

/// "tensor<?x4xf32>" for a tensor signature (-1: a dynamic dim), "f32" for a
/// scalar one: how the value reads in the MLIR source.
inline std::string signatureString(DType dtype,
                                   const std::vector<std::int64_t> &shape,
                                   bool scalar = false) {
  if (scalar)
    return std::string(dtypeName(dtype));
  std::string s = "tensor<";
  for (std::int64_t d : shape)
    s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s + std::string(dtypeName(dtype)) + ">";
}

/// A reference .npz opened for reading: the arrays of compiled functions
/// (keys: ReferenceKeys.h), each checked against a signature when read. Arrays
/// are read when asked for, so one corrupt array fails only the values that use
/// it. Every problem throws Error with a message that names the file and the
/// key. Movable, not copyable; not for use by two threads at once.
class ReferenceFile {
public:
  /// Opens the .npz at `path`. Throws Error naming `path` when it is
  /// missing or not a valid archive of .npy arrays.
  static ReferenceFile open(const std::string &path) {
    return ReferenceFile(NpzFile(path));
  }

  /// The path given to open().
  const std::string &path() const { return npz_.name(); }
  /// The keys of all arrays, in archive order.
  const std::vector<std::string> &keys() const { return npz_.keys(); }
  bool has(const std::string &key) const { return npz_.contains(key); }

  /// The array stored under `key`, checked against a signature of element
  /// type `dtype` and shape `signatureShape` (-1: a dynamic dim, which takes
  /// the stored size): same dtype (bf16 from uint16 bits), same rank, same
  /// size in every static dim. The tensor owns its memory.
  Tensor tensor(const std::string &key, DType dtype,
                const std::vector<std::int64_t> &signatureShape) const {
    std::string sig = signatureString(dtype, signatureShape);
    Tensor t = typed(key, dtype, sig);
    if (t.rank() != int(signatureShape.size()))
      throw Error(where(key) + "has shape " + shapeString(t.shape()) +
                  " (rank " + std::to_string(t.rank()) + "), but " + sig +
                  " has rank " + std::to_string(signatureShape.size()));
    for (std::size_t d = 0; d < signatureShape.size(); ++d)
      if (signatureShape[d] >= 0 && signatureShape[d] != t.shape()[d])
        throw Error(where(key) + "has shape " + shapeString(t.shape()) +
                    ", but " + sig + " needs dim " + std::to_string(d) +
                    " to be " + std::to_string(signatureShape[d]));
    return t;
  }

  /// A scalar argument of type T from the 0-d array stored under `key`.
  template <typename T> T scalar(const std::string &key) const {
    DType dtype = dtypeOf<T>;
    Tensor t = typed(key, dtype, signatureString(dtype, {}, true));
    if (t.rank() != 0)
      throw Error(where(key) + "has shape " + shapeString(t.shape()) +
                  ", but a scalar " + std::string(dtypeName(dtype)) +
                  " is stored as a 0-d array");
    return detail::loadElement<T>(t.rawData());
  }

  /// The expected value of a result with the given signature, checked like
  /// tensor(). A scalar result is stored as a 0-d array: pass `{}`.
  Tensor expected(const std::string &key, DType dtype,
                  const std::vector<std::int64_t> &signatureShape) const {
    return tensor(key, dtype, signatureShape);
  }

protected:
  explicit ReferenceFile(NpzFile npz) : npz_(std::move(npz)) {}

  std::string where(const std::string &key) const {
    return path() + ": array '" + key + "' ";
  }

  /// The array under `key` with dtype `dtype`; `sig` names the signature in
  /// messages.
  Tensor typed(const std::string &key, DType dtype,
               const std::string &sig) const {
    if (!has(key))
      throw Error(where(key) + "is missing (needed for " + sig +
                  "); the reference holds " + keyList());
    Tensor t = npz_.read(key);
    // bf16 has no numpy dtype: references store its bits as uint16.
    t = asDType(t, dtype);
    if (t.dtype() != dtype)
      throw Error(where(key) + "holds " + std::string(dtypeName(t.dtype())) +
                  " data, but the signature is " + sig + storedAs(dtype));
    return t;
  }

  /// How numpy stores the dtypes it has no exact equivalent for.
  static std::string storedAs(DType dtype) {
    switch (dtype) {
    case DType::I1:
      return " (i1 is stored as numpy bool)";
    case DType::BF16:
      return " (bf16 is stored as numpy uint16 bit patterns)";
    case DType::I4:
      return " (i4 is stored as numpy int8 values)";
    case DType::F8E4M3FN:
    case DType::F8E5M2:
    case DType::F8E4M3FNUZ:
    case DType::F8E5M2FNUZ:
      return " (" + std::string(dtypeName(dtype)) +
             " is stored as numpy uint8 bit patterns)";
    default:
      return "";
    }
  }

  /// "3 arrays: a, b, c" (the first few keys) for a missing-key message.
  std::string keyList() const {
    const std::vector<std::string> &all = keys();
    if (all.empty())
      return "no arrays";
    constexpr std::size_t shown = 8;
    std::string s = std::to_string(all.size()) +
                    (all.size() == 1 ? " array: " : " arrays: ");
    for (std::size_t i = 0; i < all.size() && i < shown; ++i)
      s += (i ? ", " : "") + all[i];
    if (all.size() > shown)
      s += ", ...";
    return s;
  }

private:
  NpzFile npz_;
};

AOT_ABI_END_NAMESPACE
