//===- OnnxIndexing.h - helpers of the converters that compute positions --===//
//
// What the indexing, scatter and selection converters share: index
// constants, iterator lists, normalized axes and the dynamic sizes of a
// result shaped like an input.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Frontend/Onnx/OnnxNode.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace aot::onnx_import {

/// An index constant.
mlir::Value indexConst(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Input `i`, a scalar or a tensor of one element, as a value of `to`
/// (index, i64 or f64): a constant where it is known, else read at run
/// time. Null after an error naming `what`.
mlir::Value scalarOperand(NodeContext &ctx, int i, mlir::Type to,
                          llvm::StringRef what);

/// `n` parallel iterators.
llvm::SmallVector<mlir::utils::IteratorType> parallelIterators(int64_t n);

/// The dynamic dims of `out` from `like`, a tensor of the same shape.
llvm::SmallVector<mlir::Value>
dynamicDimsOf(NodeContext &ctx, mlir::RankedTensorType out, mlir::Value like);

/// A normalized axis of a rank-`rank` tensor, or nullopt after an error
/// naming the node.
std::optional<int64_t> axisOf(NodeContext &ctx, int64_t axis, int64_t rank);

/// Loops over every position of a tensor of sizes `sizes` (index values,
/// outermost first) in row-major order, carrying `acc`: `body` gets the
/// position and the values so far and returns the next. Returns the values
/// after the last position.
using PositionBody = llvm::function_ref<llvm::SmallVector<mlir::Value>(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange position,
    mlir::ValueRange acc)>;
llvm::SmallVector<mlir::Value>
forEachPosition(mlir::OpBuilder &b, mlir::Location loc,
                llvm::ArrayRef<mlir::Value> sizes, mlir::ValueRange acc,
                PositionBody body);

} // namespace aot::onnx_import
