//===- Manifest.h - the signatures of compiled functions ------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/abi/DType.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// The unit attribute on an argument or result of a public function that
/// makes an integer tensor unsigned at the ABI: `%x: tensor<4xi8>
/// {aot.unsigned}` is `u8` in the manifest, the typed header and Python.
/// MLIR's integers are signless; the body computes on them as ever, and the
/// attribute says how callers read the bits (an ONNX uint8 input, an
/// image's bytes). Allowed on tensors of i8, i16, i32 and i64.
inline constexpr std::string_view kUnsignedAttrName = "aot.unsigned";

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
  std::string symbol; ///< the entry point on host memory
  /// The entry point on device memory, for a GPU target
  /// (`_mlir_ciface_NAME$device`: the same arguments, then a CUstream);
  /// empty for the CPU.
  std::string deviceSymbol;
  std::vector<ValueSig> args;
  std::vector<ValueSig> results;
  bool operator==(const FunctionSig &) const = default;
};

/// A constant that the compile moved into the external weights file.
struct WeightSig {
  std::string name; ///< its key in the file: where the constant came from
  abi::DType dtype = abi::DType::F32;
  std::vector<std::int64_t> shape;
  std::uint64_t bytes = 0;
  std::string xxh3; ///< XXH3-64 of its bytes, 16 hex digits
  bool operator==(const WeightSig &) const = default;
};

/// The external weights of an artifact (none unless the compile asked).
struct ExternalWeights {
  std::string file; ///< the safetensors file, as the compile named it
  /// The C function that loads them: `int32_t load(const char *path, char
  /// *error, uint64_t errorSize)` (aot/abi/Weights.h).
  std::string load;
  std::vector<WeightSig> tensors;
  bool empty() const { return tensors.empty(); }
  bool operator==(const ExternalWeights &) const = default;
};

/// Everything a caller needs to know about an artifact's exports.
struct Manifest {
  std::string module; ///< the module's name (from the source file name)
  std::string target; ///< the target it was compiled for
  std::vector<FunctionSig> functions;
  /// Libraries the object code needs at link time, beyond libc
  /// ("aot_runtime" for MlirAot::runtime, "m" for libm).
  std::vector<std::string> link;
  /// Constants kept beside the code; the manifest's "weights" when any.
  ExternalWeights weights;

  const FunctionSig *find(std::string_view name) const;
  bool operator==(const Manifest &) const = default;
  /// The manifest as JSON (the `.json` output of aot-compile); one line
  /// unless `pretty`.
  std::string toJson(bool pretty = true) const;
  /// Reads what toJson() writes; the error names the offending field. A
  /// manifest whose abi_version is missing or not this build's
  /// (AOT_ABI_VERSION) is refused.
  static Expected<Manifest> fromJson(std::string_view json);
};

} // namespace aot
