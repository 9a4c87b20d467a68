//===- OnnxElementwise.h - elementwise ops with numpy broadcasting --------===//
#pragma once

#include "Frontend/Onnx/OnnxNode.h"

#include <functional>

namespace aot::onnx_import {

/// The scalar computation of an elementwise op: its inputs' elements and
/// the output's element type, to the output's element.
using ScalarBody = std::function<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                             mlir::ValueRange, mlir::Type)>;

/// One linalg.generic computing `body` over `resultType`'s shape, each
/// input broadcast to it as numpy does (aligned from the right, a dim of
/// size 1 read at index 0). A dynamic dim of the result is the size of an
/// input's dim that is not broadcast there, else `dims[d]` (an index value;
/// what an Expand's target gives). Null after an error at the node when
/// neither says.
mlir::Value elementwise(NodeContext &ctx, llvm::ArrayRef<mlir::Value> inputs,
                        mlir::RankedTensorType resultType,
                        const ScalarBody &body,
                        llvm::ArrayRef<mlir::Value> dims = {});

/// `v` (rank 0, or 1-D of n) as a tensor of rank `rank` that broadcasts
/// against one of that rank along dim `axis`: n there, 1 elsewhere (`v` as
/// it is where either rank is 0 or 1).
mlir::Value alongAxis(NodeContext &ctx, mlir::Value v, int64_t rank,
                      int64_t axis);

/// A scalar arith.constant of the float type `t`.
mlir::Value floatConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t,
                       double v);

/// `v` converted to `to` as ONNX's Cast does (floats truncated toward zero
/// to integers, anything non-zero true). An integer `v` is read unsigned
/// where `fromUnsigned` (uint8 is i8 here, uint16 i16 ...), and a float
/// converted to an unsigned integer where `toUnsigned`.
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                          mlir::Type to, bool fromUnsigned = false,
                          bool toUnsigned = false);

} // namespace aot::onnx_import
