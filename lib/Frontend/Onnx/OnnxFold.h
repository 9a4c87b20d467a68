//===- OnnxFold.h - shape arithmetic folded to constants ------------------===//
#pragma once

#include "onnx/defs/shape_inference.h"
#include "onnx/onnx_pb.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace aot::onnx_import {

/// An element of a partly known shape value that is computed at run time.
inline constexpr std::int64_t kUnknownElement =
    std::numeric_limits<std::int64_t>::min();

/// Runs ONNX's shape inference on `model` and replaces each node that
/// computes a small integer tensor from static shapes and constants
/// (Shape, Gather, Add, Sub, Mul, Div, Concat, Unsqueeze, Squeeze, Slice,
/// Cast, Identity over such values) by a Constant node holding its value,
/// again until nothing more folds. A Reshape whose target is known but for
/// dynamic dims gets its output's type. Returns the values computed at run
/// time that are partly known (unknown elements kUnknownElement), by name.
/// Throws what shape inference throws.
std::map<std::string, std::vector<std::int64_t>>
foldShapeArithmetic(onnx::ModelProto &model,
                    const onnx::ShapeInferenceOptions &options);

} // namespace aot::onnx_import
