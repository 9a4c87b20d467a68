//===- Weights.h - external weights: the table and its loader -------------===//
//
// A module compiled with external weights (aot-compile --external-weights)
// keeps its large constants in a safetensors file beside the code. The code
// holds one WeightsTable and reads each constant through the address a load
// put in its slot. The loader (MlirAot::runtime) maps the file read-only,
// checks every tensor's name, dtype, shape and content hash (XXH3-64)
// against the table, and fills the slots; nothing is copied.
//
// Every exported function makes sure the weights are loaded before it runs:
// the first call loads the default file (see aotWeightsLoad), and if that
// fails prints why and aborts, as the C ABI has no way to return an error.
// Call the module's load function (its name is the manifest's
// weights.load) first to choose the file and to get errors as values.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <cstdint>

AOT_ABI_BEGIN_NAMESPACE

/// The layout version of WeightsTable this runtime reads.
inline constexpr std::uint32_t kWeightsTableVersion = 1;

/// What compiled code keeps for its external weights; one per module.
struct WeightsTable {
  std::uint32_t version; ///< kWeightsTableVersion
  std::uint32_t state;   ///< 0 until a load succeeds, then 1 (atomic)
  /// The file named at compile time, as given there.
  const char *file;
  /// The module's name, for messages.
  const char *module;
  /// What the file must hold, as JSON: [{"name": "m.mlir:3:8", "dtype":
  /// "F32", "shape": [64, 64], "bytes": 16384, "xxh3": "0123456789abcdef"}].
  const char *tensors;
  std::uint64_t count;
  /// count addresses, filled by a load: where each tensor's bytes start.
  void **slots;
  /// The mapping of the loaded file (owned by the table once loaded).
  void *mapping;
  std::uint64_t mappingSize;
};

extern "C" {
/// Maps the safetensors file at `path` and points the table's slots at its
/// tensors. A null or empty `path` means the default: the compile-time
/// file's name in the directory of the library or executable holding the
/// table, else the compile-time path itself. Returns 0 on success; else 1
/// with a message naming the file and the first tensor that is missing or
/// differs written to `error` (at most errorSize bytes, NUL-terminated) and
/// the table left as it was. Not safe to call while the module's functions
/// run on other threads.
std::int32_t aotWeightsLoad(WeightsTable *table, const char *path, char *error,
                            std::uint64_t errorSize);
/// Loads the default file once, if no load has succeeded yet; on failure
/// prints the message to stderr and aborts. Exported functions call it
/// first. Thread-safe.
void aotWeightsEnsure(WeightsTable *table);
}

AOT_ABI_END_NAMESPACE
