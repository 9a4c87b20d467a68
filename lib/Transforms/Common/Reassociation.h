//===- Reassociation.h - groups of dims for collapse and expand -----------===//
#pragma once

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

namespace aot {

/// All `rank` dims as one group: the reassociation of a collapse to one dim
/// or an expand from it.
inline mlir::ReassociationIndices allDims(int64_t rank) {
  mlir::ReassociationIndices dims;
  for (int64_t i = 0; i < rank; ++i)
    dims.push_back(i);
  return dims;
}

} // namespace aot
