//===- ConstantBytes.h - the bytes of a constant, without a copy ----------===//
//
// Large constants travel from the parsed module to the object (or to an
// external weights file) as the bytes the parser stored, never element by
// element. This is the one place that decides which constants qualify and
// where their bytes are.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Transforms/Attributes.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace aot {

/// Where a constant came from, as users name it: a NameLoc's name, else
/// "file.mlir:LINE:COL"; "" when the location says nothing.
std::string weightName(mlir::Location loc);

/// The bytes of a constant as memory holds them (row-major, little-endian,
/// one element after another).
struct WeightBytes {
  mlir::ShapedType type;
  /// All the bytes, or for a splat the one element's.
  llvm::ArrayRef<char> data;
  bool splat = false;
  /// The size of the whole constant in bytes.
  uint64_t size = 0;

  /// Writes the whole constant into `out` (size bytes).
  void copyTo(char *out) const;
};

/// The bytes of `value` when it is a dense or dense_resource array of
/// integers, index or floats of whole bytes each, at least `minBytes` long
/// and not a splat of zeros; std::nullopt otherwise (i1 is stored packed by
/// the parser; a zero splat costs nothing as it is).
std::optional<WeightBytes> weightBytes(mlir::Attribute value,
                                       uint64_t minBytes);

} // namespace aot
