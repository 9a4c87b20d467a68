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
// Its inference of the convolutions reads the weights' dims by the input's
// rank: weights of another rank make it read past their shape and crash the
// process. Here their inference first checks the two ranks agree, and fails
// as ONNX's inference fails (an exception the importer reports) when not.
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

/// The one integer a constant input holds, if it is one.
std::optional<std::int64_t> constantScalar(onnx::InferenceContext &ctx,
                                           std::size_t i) {
  if (ctx.getNumInputs() <= i)
    return std::nullopt;
  const onnx::TensorProto *t = ctx.getInputData(i);
  if (!t)
    return std::nullopt;
  std::vector<std::int64_t> values;
  if (t->data_type() == onnx::TensorProto::INT64)
    values = onnx::ParseData<std::int64_t>(t);
  else if (t->data_type() == onnx::TensorProto::INT32)
    for (std::int32_t v : onnx::ParseData<std::int32_t>(t))
      values.push_back(v);
  if (values.size() != 1)
    return std::nullopt;
  return values[0];
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

class MendedRegistry final : public onnx::ISchemaRegistry {
public:
  MendedRegistry() {
    const onnx::OpSchema *stft =
        onnx::OpSchemaRegistry::Schema("STFT", 17, onnx::ONNX_DOMAIN);
    if (stft && stft->SinceVersion() == 17)
      mend(*stft, inferStft);
    // Every version of the convolutions, by where their weights are.
    for (auto [op, w] : {std::pair<const char *, std::size_t>{"Conv", 1},
                         {"ConvTranspose", 1},
                         {"ConvInteger", 1},
                         {"QLinearConv", 3}})
      for (int version = 1; version <= 17; ++version) {
        const onnx::OpSchema *s =
            onnx::OpSchemaRegistry::Schema(op, version, onnx::ONNX_DOMAIN);
        if (!s || mended_.count(s))
          continue;
        onnx::InferenceFunction original =
            s->GetTypeAndShapeInferenceFunction();
        mend(*s, [original, w = w](onnx::InferenceContext &ctx) {
          checkWindowRanks(ctx, 0, w);
          if (original)
            original(ctx);
        });
      }
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
