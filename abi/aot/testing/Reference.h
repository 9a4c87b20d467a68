//===- Reference.h - typed, checked access to a reference .npz ------------===//
//
// What a test of compiled code reads: the inputs and expected results of its
// functions, stored in an .npz archive (numpy.savez) under the keys of
// aot/abi/ReferenceKeys.h, read and checked against the functions'
// signatures by aot/abi/ReferenceFile.h. This adds what a test needs on
// top: private copies of arguments, result checks, the process's current
// reference.
//
// Header-only; needs the abi/ headers and libzip (MlirAot::abi), no test
// framework.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Compare.h"
#include "aot/abi/DType.h"
#include "aot/abi/Error.h"
#include "aot/abi/MemRef.h"
#include "aot/abi/Npy.h"
#include "aot/abi/Npz.h"
#include "aot/abi/Owned.h"
#include "aot/abi/ReferenceFile.h"
#include "aot/abi/Tensor.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace aot::testing {

using abi::signatureString;

/// The types of scalar arguments and results: what compiled code passes by
/// value.
template <typename T>
concept ScalarValue = std::is_arithmetic_v<T> || std::is_same_v<T, abi::f16> ||
    std::is_same_v<T, abi::bf16>;

/// A tensor argument for one call: a private contiguous copy of the stored
/// array, so compiled code gets fresh memory, plus the stored original to
/// check afterwards that the call left its argument alone. Owns both
/// buffers; copies of an Input share them. The descriptor desc() returns
/// points into the copy: keep the Input alive while the call and any result
/// that may alias the argument are in use.
template <typename T, int R> class Input {
public:
  Input(std::string key, abi::Tensor original)
      : key_(std::move(key)), original_(std::move(original)) {
    copy_ = abi::Tensor::zeros(original_.dtype(), original_.shape());
    abi::Tensor source = original_.contiguous();
    std::memcpy(copy_.rawData(), source.rawData(), byteSize());
  }

  /// The reference key the value was read from.
  const std::string &key() const { return key_; }

  /// A contiguous descriptor of the private copy, to pass to compiled code.
  abi::MemRef<T, R> desc() const {
    std::array<std::int64_t, R> shape{};
    for (int i = 0; i < R; ++i)
      shape[i] = copy_.shape()[i];
    return abi::MemRef<T, R>::contiguous(copy_.data<T>(), shape);
  }

  /// The private copy as passed to compiled code (shares its memory).
  const abi::Tensor &tensor() const { return copy_; }
  /// The array as stored in the reference.
  const abi::Tensor &original() const { return original_; }

  /// Whether the private copy still equals the stored original, bit for bit
  /// (a flipped zero sign or another NaN payload counts as a change). The
  /// message starts with the key.
  abi::Comparison unchanged() const {
    abi::Comparison c =
        abi::compare(copy_, original_, abi::Tolerance{0.0, 0.0, -1});
    if (c.ok && std::memcmp(copy_.rawData(), original_.contiguous().rawData(),
                            byteSize()) != 0) {
      c.ok = false;
      c.message = "the values compare equal but their bits differ (the sign "
                  "of a zero or the payload of a NaN changed)";
    }
    c.message = key_ + ": " +
                (c.ok ? "argument unchanged by the call"
                      : "the call modified its argument: " + c.message);
    return c;
  }

private:
  std::size_t byteSize() const {
    return std::size_t(original_.numElements()) * original_.elementSize();
  }

  std::string key_;
  abi::Tensor original_;
  abi::Tensor copy_;
};

/// Compares a tensor result, read through its strides and offset, with an
/// expected tensor (see abi::compare for the rules).
template <typename T, int R>
abi::Comparison compare(const abi::Owned<T, R> &actual,
                        const abi::Tensor &expected,
                        const abi::Tolerance &tolerance) {
  return abi::compare(actual.toTensor(), expected, tolerance);
}

/// Compares a scalar result with an expected 0-d tensor.
template <ScalarValue T>
abi::Comparison compare(T actual, const abi::Tensor &expected,
                        const abi::Tolerance &tolerance) {
  abi::Tensor t = abi::Tensor::zeros(abi::dtypeOf<T>, {});
  if constexpr (std::is_same_v<T, bool>)
    *static_cast<unsigned char *>(t.rawData()) = actual ? 1 : 0;
  else
    std::memcpy(t.rawData(), &actual, sizeof actual);
  return abi::compare(t, expected, tolerance);
}

/// A reference .npz opened for reading (see abi::ReferenceFile), with what
/// a generated test needs on top: private copies of tensor arguments and
/// checks of results. Every problem throws abi::Error with a message that
/// names the file and the key. Movable, not copyable; not for use by two
/// threads at once.
class Reference : public abi::ReferenceFile {
public:
  /// Opens the .npz at `path`. Throws abi::Error naming `path` when it is
  /// missing or not a valid archive of .npy arrays.
  static Reference open(const std::string &path) {
    return Reference(abi::ReferenceFile::open(path));
  }

  /// A tensor argument of element type T and rank R read from `key` and
  /// checked like tensor(), in a private copy (see Input).
  template <typename T, int R>
  Input<T, R> input(const std::string &key,
                    const std::array<std::int64_t, R> &signatureShape) const {
    return Input<T, R>(key,
                       tensor(key, abi::dtypeOf<T>,
                              {signatureShape.begin(), signatureShape.end()}));
  }

  /// Compares a tensor result with the expected value stored under `key`
  /// for a result signature of shape `signatureShape`. The result is read
  /// through its strides and offset. The message starts with the key.
  template <typename T, int R>
  abi::Comparison check(const std::string &key, const abi::Owned<T, R> &actual,
                        const std::array<std::int64_t, R> &signatureShape,
                        const abi::Tolerance &tolerance) const {
    return named(key, testing::compare(actual,
                                       expected(key, abi::dtypeOf<T>,
                                                {signatureShape.begin(),
                                                 signatureShape.end()}),
                                       tolerance));
  }

  /// Compares a scalar result with the 0-d array stored under `key`.
  template <ScalarValue T>
  abi::Comparison check(const std::string &key, T actual,
                        const abi::Tolerance &tolerance) const {
    return named(key,
                 testing::compare(actual, expected(key, abi::dtypeOf<T>, {}),
                                  tolerance));
  }

private:
  explicit Reference(abi::ReferenceFile file)
      : abi::ReferenceFile(std::move(file)) {}

  static abi::Comparison named(const std::string &key, abi::Comparison c) {
    c.message = key + ": " + c.message;
    return c;
  }
};

/// Why the tests of this program cannot run on this machine (code for a
/// GPU where none is usable), or null when they can.
using SkipCheck = const char *(*)();

/// The exit status of a test program that ran nothing because its
/// SkipCheck failed; CTest counts it as skipped (SKIP_RETURN_CODE).
inline constexpr int kSkipExitCode = 77;

namespace detail {
inline std::unique_ptr<Reference> &currentReferenceSlot() {
  static std::unique_ptr<Reference> slot;
  return slot;
}
inline SkipCheck &skipCheckSlot() {
  static SkipCheck slot = nullptr;
  return slot;
}
} // namespace detail

/// Makes the test main ask `check` before any test runs; a reason it gives
/// is printed and the program exits with kSkipExitCode. Generated tests of
/// code for a GPU set it from a static initializer; returns true so that
/// they can.
inline bool setSkipCheck(SkipCheck check) {
  detail::skipCheckSlot() = check;
  return true;
}

/// Why this program's tests cannot run here, or null.
inline const char *skipReason() {
  SkipCheck check = detail::skipCheckSlot();
  return check ? check() : nullptr;
}

/// Opens `path` as the reference of this process, replacing any earlier
/// one, and returns it. Throws abi::Error naming `path` when it cannot be
/// opened (the earlier reference then stays). The test main calls this with
/// the file named on its command line.
inline const Reference &setCurrentReference(const std::string &path) {
  auto opened = std::make_unique<Reference>(Reference::open(path));
  detail::currentReferenceSlot() = std::move(opened);
  return *detail::currentReferenceSlot();
}

/// The reference of this process. Throws abi::Error when none was set.
inline const Reference &currentReference() {
  const std::unique_ptr<Reference> &slot = detail::currentReferenceSlot();
  if (!slot)
    throw abi::Error("no reference .npz was given: run the test with "
                     "--reference=FILE.npz or set AOT_REFERENCE");
  return *slot;
}

} // namespace aot::testing
