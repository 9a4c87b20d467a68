//===- OnnxOneD.cpp - 1-D convolutions and pools as 2-D ones --------------===//
//
// A convolution or pool over N x C x W is the same op over N x C x 1 x W
// with a window of height 1: the converters of 2-D images (channels last,
// packed filters, Winograd where it pays) then serve 1-D models too (audio
// front ends, temporal convolutions) without a second implementation. The
// node is converted as a copy whose rank-3 inputs and outputs are named
// values of rank 4 (a unit dim 2 inserted) and whose window attributes gain
// a unit first entry; the results are collapsed back to rank 3. Constants
// keep their bytes: only their shape changes.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxGraph.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

namespace {

/// Rank 3 to 4 and back: dims 2 and 3 of the wide form are dim 2's.
const llvm::SmallVector<mlir::ReassociationIndices> kUnitDimGroups = {
    {0}, {1}, {2, 3}};

/// The attribute of a 2-D window made from the 1-D one.
void widenAttribute(onnx::AttributeProto &a) {
  const std::string &name = a.name();
  std::vector<std::int64_t> v(a.ints().begin(), a.ints().end());
  if (name == "kernel_shape" || name == "strides" || name == "dilations" ||
      name == "output_shape")
    v.insert(v.begin(), 1);
  else if (name == "output_padding")
    v.insert(v.begin(), 0);
  else if (name == "pads" && v.size() == 2)
    v = {0, v[0], 0, v[1]};
  else
    return;
  a.clear_ints();
  for (std::int64_t x : v)
    a.add_ints(x);
}

/// Type `t` (a tensor of rank 3) with a unit dim inserted at 2.
std::unique_ptr<onnx::TypeProto> withUnitDim(const onnx::TypeProto &t) {
  auto wide = std::make_unique<onnx::TypeProto>(t);
  auto *dims = wide->mutable_tensor_type()->mutable_shape()->mutable_dim();
  onnx::TensorShapeProto::Dimension unit;
  unit.set_dim_value(1);
  dims->Add(std::move(unit));
  // Move it from the end to position 2.
  for (int i = dims->size() - 1; i > 2; --i)
    dims->SwapElements(i, i - 1);
  return wide;
}

} // namespace

int GraphImporter::declaredRank(const std::string &name) const {
  if (auto it = types_.find(name); it != types_.end()) {
    const onnx::TypeProto &t = *it->second;
    return t.has_tensor_type() && t.tensor_type().has_shape()
               ? t.tensor_type().shape().dim_size()
               : -1;
  }
  if (const onnx::TensorProto *t = constantOf(name))
    return t->dims_size();
  return parent_ ? parent_->declaredRank(name) : -1;
}

std::string GraphImporter::freshName(const std::string &base) const {
  std::string name = base + " (2-D)";
  while (values_.count(name) || types_.count(name) || constants_.count(name) ||
         producers_.count(name))
    name += "'";
  return name;
}

mlir::LogicalResult GraphImporter::convertAsTwoD(const onnx::NodeProto &node,
                                                 const OpConverter &converter,
                                                 mlir::Location loc) {
  onnx::NodeProto wide = node;
  for (onnx::AttributeProto &a : *wide.mutable_attribute())
    widenAttribute(a);
  // Rank-3 inputs as rank-4 values: constants reshaped (their bytes
  // shared), the others expanded.
  for (int i = 0; i < node.input_size(); ++i) {
    const std::string &name = node.input(i);
    if (name.empty() || declaredRank(name) != 3)
      continue;
    std::string wideName = freshName(name);
    wide.set_input(i, wideName);
    if (const onnx::TensorProto *t = constantOf(name)) {
      std::optional<SharedBytes> bytes = tensorData(*t, loc);
      if (!bytes)
        return mlir::failure();
      auto reshaped = std::make_unique<onnx::TensorProto>();
      reshaped->set_name(t->name());
      reshaped->set_data_type(t->data_type());
      for (int d = 0; d < 3; ++d) {
        if (d == 2)
          reshaped->add_dims(1);
        reshaped->add_dims(t->dims(d));
      }
      taken_[reshaped.get()] = *bytes;
      constants_[wideName] = reshaped.get();
      ownedConstants_.push_back(std::move(reshaped));
      continue;
    }
    mlir::Value v = valueOf(name, loc);
    mlir::RankedTensorType type = typeOf(name, loc);
    if (!v || !type)
      return mlir::failure();
    llvm::SmallVector<int64_t> shape(type.getShape());
    shape.insert(shape.begin() + 2, 1);
    auto wideType = mlir::RankedTensorType::get(shape, type.getElementType());
    llvm::SmallVector<mlir::OpFoldResult> sizes;
    for (int64_t d = 0; d < 4; ++d)
      sizes.push_back(
          d == 2 ? mlir::OpFoldResult(builder_.getIndexAttr(1))
                 : mlir::tensor::getMixedSize(builder_, loc, v, d < 2 ? d : 2));
    values_[wideName] = mlir::tensor::ExpandShapeOp::create(
        builder_, loc, wideType, v, kUnitDimGroups, sizes);
    const onnx::TypeProto *decl = nullptr;
    for (const GraphImporter *g = this; g && !decl; g = g->parent_)
      if (auto it = g->types_.find(name); it != g->types_.end())
        decl = it->second;
    if (!decl)
      return mlir::emitError(loc) << "'" << name << "' has no declared type";
    std::unique_ptr<onnx::TypeProto> wideDecl = withUnitDim(*decl);
    types_[wideName] = wideDecl.get();
    ownedTypes_.push_back(std::move(wideDecl));
  }
  std::vector<std::pair<std::string, std::string>> narrowed;
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string &name = node.output(i);
    auto it = types_.find(name);
    if (name.empty() || it == types_.end() || declaredRank(name) != 3)
      continue;
    std::string wideName = freshName(name);
    wide.set_output(i, wideName);
    std::unique_ptr<onnx::TypeProto> wideDecl = withUnitDim(*it->second);
    types_[wideName] = wideDecl.get();
    ownedTypes_.push_back(std::move(wideDecl));
    narrowed.emplace_back(name, wideName);
  }
  NodeContext ctx(*this, wide, builder_, loc);
  if (mlir::failed(converter.convert(ctx)) || ctx.failed())
    return mlir::failure();
  for (const auto &[name, wideName] : narrowed) {
    mlir::Value v = valueOf(wideName, loc);
    mlir::RankedTensorType type = typeOf(name, loc);
    if (!v || !type)
      return mlir::failure();
    mlir::Value narrow =
        mlir::tensor::CollapseShapeOp::create(builder_, loc, v, kUnitDimGroups);
    if (narrow.getType() != type)
      narrow = mlir::tensor::CastOp::create(builder_, loc, type, narrow);
    values_[name] = narrow;
  }
  return mlir::success();
}

} // namespace aot::onnx_import
