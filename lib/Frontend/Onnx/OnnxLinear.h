//===- OnnxLinear.h - what other converters take from MatMul --------------===//
#pragma once

#include "Frontend/Onnx/OnnxNode.h"

namespace aot::onnx_import {

/// `a` @ `b` as ONNX's MatMul (numpy's matmul: 1-D operands a row or a
/// column, batch dims broadcast) into `out`, whose element type the
/// products accumulate in (an integer type wider than the operands' extends
/// them signed). Null after an error at the node.
mlir::Value matMulOf(NodeContext &ctx, mlir::Value a, mlir::Value b,
                     mlir::RankedTensorType out);

} // namespace aot::onnx_import
