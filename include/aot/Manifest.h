//===- Manifest.h - the signatures of compiled functions ------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/abi/DType.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// One argument or result of an exported function.
struct ValueSig {
  enum class Kind { Tensor, Scalar };
  Kind kind = Kind::Tensor;
  abi::DType dtype = abi::DType::F32;
  std::vector<std::int64_t> shape; ///< -1 for a dynamic dim; empty for rank 0

  int rank() const { return int(shape.size()); }
  bool isScalar() const { return kind == Kind::Scalar; }
  /// "tensor<?x4xf32>" or "f32": how the value reads in the source.
  std::string str() const;
  bool operator==(const ValueSig &) const = default;
};

/// An exported function: `symbol` is the C entry point. It takes a pointer to
/// the result (a struct of results when there are several, a descriptor for
/// one tensor) first, then each tensor argument as a pointer to its
/// descriptor and each scalar by value.
struct FunctionSig {
  std::string name;
  std::string symbol;
  std::vector<ValueSig> args;
  std::vector<ValueSig> results;
  bool operator==(const FunctionSig &) const = default;
};

/// Everything a caller needs to know about an artifact's exports.
struct Manifest {
  std::string module; ///< the module's name (from the source file name)
  std::string target; ///< the target it was compiled for
  std::vector<FunctionSig> functions;
  /// Libraries the object code needs at link time, beyond libc
  /// ("aot_runtime" for MlirAot::runtime, "m" for libm).
  std::vector<std::string> link;

  const FunctionSig *find(std::string_view name) const;
  /// The manifest as JSON (the `.json` output of aot-compile); one line
  /// unless `pretty`.
  std::string toJson(bool pretty = true) const;
  /// Reads what toJson() writes; the error names the offending field. A
  /// manifest whose abi_version is missing or not this build's
  /// (AOT_ABI_VERSION) is refused.
  static Expected<Manifest> fromJson(std::string_view json);
};

} // namespace aot
