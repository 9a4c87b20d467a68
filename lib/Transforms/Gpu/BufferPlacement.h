//===- BufferPlacement.h - where a buffer lives, for the GPU passes -------===//
#pragma once

#include "Transforms/Attributes.h"

#include "mlir/IR/Value.h"

namespace aot {

/// The buffer `value` is a view of: through casts, subviews, reshapes and
/// strided-metadata extraction, to the op or block argument that made it.
mlir::Value rootBuffer(mlir::Value value);

/// Whether `value` is host memory: a view of an unmarked allocation, or an
/// argument of a function that is not marked as taking device memory.
bool isHostMemory(mlir::Value value);

/// Whether `value` is a view of a constant global.
bool isConstantBuffer(mlir::Value value);

} // namespace aot
