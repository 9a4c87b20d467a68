//===- OnnxSchemas.cpp - ONNX's op schemas, with STFT's shapes mended -----===//
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
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxSchemas.h"

#include "onnx/defs/schema.h"
#include "onnx/defs/shape_inference.h"
#include "onnx/defs/tensor_proto_util.h"

#include <cstdint>
#include <optional>

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

class MendedRegistry final : public onnx::ISchemaRegistry {
public:
  MendedRegistry() {
    const onnx::OpSchema *stft =
        onnx::OpSchemaRegistry::Schema("STFT", 17, onnx::ONNX_DOMAIN);
    if (stft && stft->SinceVersion() == 17) {
      stft_ = *stft;
      stft_.TypeAndShapeInferenceFunction(inferStft);
      hasStft_ = true;
    }
  }

  const onnx::OpSchema *GetSchema(const std::string &key,
                                  const int maxInclusiveVersion,
                                  const std::string &domain) const override {
    const onnx::OpSchema *s = onnx::OpSchemaRegistry::Instance()->GetSchema(
        key, maxInclusiveVersion, domain);
    if (hasStft_ && s && s->Name() == "STFT" && s->domain() == stft_.domain() &&
        s->SinceVersion() == stft_.SinceVersion())
      return &stft_;
    return s;
  }

private:
  onnx::OpSchema stft_;
  bool hasStft_ = false;
};

} // namespace

const onnx::ISchemaRegistry *importSchemas() {
  static const MendedRegistry registry;
  return &registry;
}

} // namespace aot::onnx_import
