//===- OnnxSchemas.cpp - ONNX's op schemas, mended where they fail --------===//
//
// ONNX 1.12's inference of STFT (opset 17) reads `onesided` as 0 where the
// attribute is absent, while its default is 1, so it gives all frame_length
// bins instead of frame_length / 2 + 1; and where `onesided` is set it
// counts the frames with the halved length. Either way a model whose STFT
// has constant sizes gets a shape its STFT does not have. The registry here
// is ONNX's but for STFT, whose inference it replaces by the definition's:
// frames = (length - frame_length) / frame_step + 1, bins frame_length or
// frame_length / 2 + 1.
//
// Some of its inferences crash the process on inputs they do not check:
// the convolutions read the weights' dims by the input's rank (weights of
// another rank: a read past their shape) and, with the pools, divide by
// their strides (0: a division by zero), LayerNormalization reads the dim
// its axis names (out of range: a read past the shape), SplitToSequence
// divides by its split, MaxUnpool reads its indices' channels and takes its
// window as valid, GatherND takes its batch_dims as valid. Here each first
// checks what it relies on, and fails as ONNX's inference fails (an
// exception the importer reports) when it does not hold.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxSchemas.h"

#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"
#include "onnx/defs/tensor_proto_util.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace aot::onnx_import {

namespace {

/// The integers of constant input `i` (int64 or int32), where it is one;
/// `rank` set to its rank.
std::optional<std::vector<std::int64_t>>
constantInts(onnx::InferenceContext &ctx, std::size_t i, int *rank = nullptr) {
  const onnx::TensorProto *t =
      ctx.getNumInputs() > i ? ctx.getInputData(i) : nullptr;
  if (!t)
    return std::nullopt;
  std::vector<std::int64_t> values;
  if (t->data_type() == onnx::TensorProto::INT64)
    values = onnx::ParseData<std::int64_t>(t);
  else if (t->data_type() == onnx::TensorProto::INT32)
    for (std::int32_t v : onnx::ParseData<std::int32_t>(t))
      values.push_back(v);
  else
    return std::nullopt;
  if (rank)
    *rank = t->dims_size();
  return values;
}

/// The one integer a constant input holds, if it is one.
std::optional<std::int64_t> constantScalar(onnx::InferenceContext &ctx,
                                           std::size_t i) {
  std::optional<std::vector<std::int64_t>> values = constantInts(ctx, i);
  if (!values || values->size() != 1)
    return std::nullopt;
  return values->front();
}

void inferStft(onnx::InferenceContext &ctx) {
  onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
  if (!onnx::hasInputShape(ctx, 0))
    return;
  const onnx::TensorShapeProto &signal = onnx::getInputShape(ctx, 0);
  if (signal.dim_size() != 3)
    fail_shape_inference("STFT's signal must have rank 3");
  // The frame length: frame_length where given, else the window's.
  std::optional<std::int64_t> length = constantScalar(ctx, 3);
  if (!length && ctx.getNumInputs() > 2 && onnx::hasInputShape(ctx, 2)) {
    const onnx::TensorShapeProto &window = onnx::getInputShape(ctx, 2);
    if (window.dim_size() == 1 && window.dim(0).has_dim_value())
      length = window.dim(0).dim_value();
  }
  std::optional<std::int64_t> step = constantScalar(ctx, 1);
  const bool onesided = onnx::getAttribute(ctx, "onesided", 1) != 0;

  onnx::TensorShapeProto out;
  *out.add_dim() = signal.dim(0);
  onnx::TensorShapeProto::Dimension *frames = out.add_dim();
  if (length && step && *step > 0 && signal.dim(1).has_dim_value() &&
      signal.dim(1).dim_value() >= *length)
    frames->set_dim_value((signal.dim(1).dim_value() - *length) / *step + 1);
  onnx::TensorShapeProto::Dimension *bins = out.add_dim();
  if (length)
    bins->set_dim_value(onesided ? *length / 2 + 1 : *length);
  out.add_dim()->set_dim_value(2);
  onnx::updateOutputShape(ctx, 0, out);
}

/// Fails unless the input (`x`) and the weights (`w`) of a convolution,
/// where both have a shape, have the same rank of 3 or more.
void checkWindowRanks(onnx::InferenceContext &ctx, std::size_t x,
                      std::size_t w) {
  if (ctx.getNumInputs() <= std::max(x, w) || !onnx::hasInputShape(ctx, x) ||
      !onnx::hasInputShape(ctx, w))
    return;
  int xRank = onnx::getInputShape(ctx, x).dim_size();
  int wRank = onnx::getInputShape(ctx, w).dim_size();
  if (xRank != wRank || xRank < 3)
    fail_shape_inference("the input (rank ", xRank, ") and the weights (rank ",
                         wRank,
                         ") must have the same rank, 3 or more: batch or "
                         "filters, channels, then the spatial dims");
}

/// Fails unless LayerNormalization's axis names a dim of its input.
void checkNormAxis(onnx::InferenceContext &ctx) {
  if (ctx.getNumInputs() < 1 || !onnx::hasInputShape(ctx, 0))
    return;
  std::int64_t rank = onnx::getInputShape(ctx, 0).dim_size();
  std::int64_t axis = onnx::getAttribute(ctx, "axis", -1);
  if (axis < -rank || axis >= rank)
    fail_shape_inference("axis ", axis, " names no dim of the input (rank ",
                         rank, ")");
}

/// Fails unless SplitToSequence's split, where a constant, is a positive
/// size or a list of sizes of 0 or more.
void checkSplitSizes(onnx::InferenceContext &ctx) {
  int rank = 0;
  std::optional<std::vector<std::int64_t>> split = constantInts(ctx, 1, &rank);
  if (!split)
    return;
  for (std::int64_t v : *split)
    if (v < 0 || (rank == 0 && v == 0))
      fail_shape_inference("split ", v, " is not a size");
}

/// Fails unless MaxUnpool's window has an entry of 1 or more per spatial
/// dim of its input (kernel_shape and strides; pads two per dim), and,
/// where no output_shape is given, its indices the input's rank (ONNX reads
/// their channels).
void checkUnpoolWindow(onnx::InferenceContext &ctx) {
  if (ctx.getNumInputs() < 1 || !onnx::hasInputShape(ctx, 0))
    return;
  int rank = onnx::getInputShape(ctx, 0).dim_size();
  if (ctx.getNumInputs() == 2 &&
      (!onnx::hasInputShape(ctx, 1) ||
       onnx::getInputShape(ctx, 1).dim_size() != rank))
    fail_shape_inference("the indices must have a shape of the input's rank (",
                         rank, ")");
  std::size_t spatial = std::max(rank, 2) - 2;
  for (const char *name : {"kernel_shape", "strides", "pads"}) {
    std::vector<std::int64_t> v;
    if (!onnx::getRepeatedAttribute(ctx, name, v))
      continue;
    bool pads = std::string(name) == "pads";
    if (v.size() != (pads ? 2 : 1) * spatial)
      fail_shape_inference(name, " has ", v.size(), " entries for ", spatial,
                           " spatial dims");
    for (std::int64_t e : v)
      if (e < (pads ? 0 : 1))
        fail_shape_inference(name, " holds ", e);
  }
}

/// Fails unless GatherND's batch_dims counts leading dims of both inputs
/// and its index tuples fit the data's other dims.
void checkGatherNdDims(onnx::InferenceContext &ctx) {
  if (ctx.getNumInputs() < 2 || !onnx::hasInputShape(ctx, 0) ||
      !onnx::hasInputShape(ctx, 1))
    return;
  const onnx::TensorShapeProto &data = onnx::getInputShape(ctx, 0);
  const onnx::TensorShapeProto &indices = onnx::getInputShape(ctx, 1);
  std::int64_t batch = onnx::getAttribute(ctx, "batch_dims", 0);
  if (batch < 0 || batch >= std::min(data.dim_size(), indices.dim_size()))
    fail_shape_inference("batch_dims ", batch,
                         " must be 0 or more and below both ranks (",
                         data.dim_size(), " and ", indices.dim_size(), ")");
  const onnx::TensorShapeProto::Dimension &tuple =
      indices.dim(indices.dim_size() - 1);
  if (tuple.has_dim_value() &&
      (tuple.dim_value() < 1 || batch + tuple.dim_value() > data.dim_size()))
    fail_shape_inference("index tuples of ", tuple.dim_value(),
                         " do not fit the data's ", data.dim_size() - batch,
                         " dims after the batch dims");
}

/// Fails unless a window's kernel_shape, strides and dilations, where
/// given, hold sizes of 1 or more (ONNX divides by the strides).
void checkWindowSizes(onnx::InferenceContext &ctx) {
  for (const char *name : {"kernel_shape", "strides", "dilations"}) {
    std::vector<std::int64_t> v;
    if (onnx::getRepeatedAttribute(ctx, name, v))
      for (std::int64_t e : v)
        if (e < 1)
          fail_shape_inference(name, " holds ", e, "; sizes are 1 or more");
  }
}

class MendedRegistry final : public onnx::ISchemaRegistry {
public:
  MendedRegistry() {
    const onnx::OpSchema *stft =
        onnx::OpSchemaRegistry::Schema("STFT", 17, onnx::ONNX_DOMAIN);
    if (stft && stft->SinceVersion() == 17)
      mend(*stft, inferStft);
    // The convolutions, by where their weights are.
    for (auto [op, w] : {std::pair<const char *, std::size_t>{"Conv", 1},
                         {"ConvTranspose", 1},
                         {"ConvInteger", 1},
                         {"QLinearConv", 3}})
      guard(op, [w = w](onnx::InferenceContext &ctx) {
        checkWindowRanks(ctx, 0, w);
        checkWindowSizes(ctx);
      });
    for (const char *op : {"MaxPool", "AveragePool", "LpPool"})
      guard(op, checkWindowSizes);
    guard("LayerNormalization", checkNormAxis);
    guard("SplitToSequence", checkSplitSizes);
    guard("MaxUnpool", checkUnpoolWindow);
    guard("GatherND", checkGatherNdDims);
  }

  const onnx::OpSchema *GetSchema(const std::string &key,
                                  const int maxInclusiveVersion,
                                  const std::string &domain) const override {
    const onnx::OpSchema *s = onnx::OpSchemaRegistry::Instance()->GetSchema(
        key, maxInclusiveVersion, domain);
    auto it = mended_.find(s);
    return it == mended_.end() ? s : &it->second;
  }

private:
  /// Every version of `op`, its inference run after `check`.
  void guard(const char *op, onnx::InferenceFunction check) {
    for (int version = 1; version <= 17; ++version) {
      const onnx::OpSchema *s =
          onnx::OpSchemaRegistry::Schema(op, version, onnx::ONNX_DOMAIN);
      if (!s || mended_.count(s))
        continue;
      onnx::InferenceFunction original = s->GetTypeAndShapeInferenceFunction();
      mend(*s, [check, original](onnx::InferenceContext &ctx) {
        check(ctx);
        if (original)
          original(ctx);
      });
    }
  }

  void mend(const onnx::OpSchema &schema, onnx::InferenceFunction inference) {
    onnx::OpSchema &copy = mended_[&schema];
    copy = schema;
    copy.TypeAndShapeInferenceFunction(std::move(inference));
  }

  /// ONNX's schemas whose inference is replaced, and their replacements.
  std::map<const onnx::OpSchema *, onnx::OpSchema> mended_;
};

} // namespace

const onnx::ISchemaRegistry *importSchemas() {
  static const MendedRegistry registry;
  return &registry;
}

} // namespace aot::onnx_import
