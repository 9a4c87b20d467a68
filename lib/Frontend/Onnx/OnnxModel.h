//===- OnnxModel.h - an ONNX model read, checked and normalised -----------===//
//
// What the importer reads: the protobuf parsed from bytes (an ONNX file has
// no magic number, so the caller decides that the bytes are one), checked by
// ONNX's checker, upgraded to the opset the converters are written for, and
// given types by ONNX's shape inference with data propagation, which also
// computes the values of the small integer tensors that describe shapes
// (Shape -> Gather -> Concat -> Reshape chains).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aot::onnx_import {

/// The opset of the default domain the converters are written for; older
/// models are upgraded to it by ONNX's version converter.
inline constexpr int kOpset = 17;

/// A model ready to import.
struct LoadedModel {
  onnx::ModelProto proto;
  /// The opset of the default domain after the upgrade.
  int opset = kOpset;
  /// Values of integer tensors that shape inference computed (the shapes a
  /// Reshape or an Expand reads), by value name.
  std::map<std::string, std::vector<std::int64_t>> shapeData;
  /// Integer tensors computed at run time whose values are known but for
  /// some elements (kUnknownElement): a Reshape's target with a dynamic
  /// batch.
  std::map<std::string, std::vector<std::int64_t>> partialShapeData;
};

/// Parses the model in `bytes`, which it does not refer to afterwards;
/// bytes that are a `mapped` file's have their pages given back as they
/// are parsed. On failure returns nullopt with `error` saying why (the
/// bytes are not a model).
std::optional<LoadedModel> parseModel(std::string_view bytes, bool mapped,
                                      std::string &error);

/// Checks, upgrades and types a parsed model. `modelDir` is where external
/// data files are looked for. On failure returns false with `error` saying
/// why (the checker refused it, an opset newer than this importer reads...).
bool prepareModel(LoadedModel &model, const std::string &modelDir,
                  std::string &error);

} // namespace aot::onnx_import
