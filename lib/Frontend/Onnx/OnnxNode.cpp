//===- OnnxNode.cpp - what a converter sees of one ONNX node --------------===//
#include "Frontend/Onnx/OnnxNode.h"
#include "Frontend/Onnx/OnnxFold.h"
#include "Frontend/Onnx/OnnxGraph.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace aot::onnx_import {

bool NodeContext::hasInput(int i) const {
  return i >= 0 && i < node_.input_size() && !node_.input(i).empty();
}

mlir::Value NodeContext::input(int i) {
  if (!hasInput(i)) {
    (void)fail("input " + llvm::Twine(i) + " is missing");
    return nullptr;
  }
  if (channelsLast_)
    if (mlir::Value v = graph_.channelsLastOf(node_.input(i)))
      return v;
  return graph_.valueOf(node_.input(i), loc);
}

mlir::RankedTensorType NodeContext::inputType(int i) {
  if (!hasInput(i)) {
    (void)fail("input " + llvm::Twine(i) + " is missing");
    return nullptr;
  }
  mlir::RankedTensorType type = graph_.typeOf(node_.input(i), loc);
  if (type && channelsLast_ && graph_.channelsLastOf(node_.input(i)))
    return permutedType(type, kToChannelsLast);
  return type;
}

mlir::LogicalResult
NodeContext::importSubgraph(const onnx::GraphProto &g, mlir::Block *block,
                            mlir::ValueRange args,
                            llvm::SmallVectorImpl<mlir::Value> &results) {
  GraphImporter inner(graph_, g);
  return inner.runIn(block, args, results);
}

bool NodeContext::isUnsigned(int i) const {
  return hasInput(i) && graph_.isUnsigned(node_.input(i));
}

bool NodeContext::outputIsUnsigned(int i) const {
  return i < numOutputs() && graph_.isUnsigned(node_.output(i));
}

mlir::Value NodeContext::channelsLastInput(int i) {
  return hasInput(i) ? graph_.channelsLastOf(node_.input(i)) : nullptr;
}

void NodeContext::setChannelsLastOutput(int i, mlir::Value nhwc,
                                        mlir::Value nchw) {
  if (!nhwc) {
    failed_ = true;
    return;
  }
  mlir::RankedTensorType want = graph_.typeOf(node_.output(i), loc);
  if (!want || want.getRank() != 4) {
    (void)fail("internal error: a channels-last output of rank other than 4");
    return;
  }
  auto wantLast = permutedType(want, kToChannelsLast);
  if (nhwc.getType() != wantLast)
    nhwc = mlir::tensor::CastOp::create(b, loc, wantLast, nhwc);
  if (nchw && nchw.getType() != want)
    nchw = mlir::tensor::CastOp::create(b, loc, want, nchw);
  graph_.defineChannelsLast(node_.output(i), nhwc, nchw);
}

std::optional<std::vector<std::int64_t>> NodeContext::knownInts(int i) {
  if (auto values = constantInts(i))
    return values;
  if (!hasInput(i))
    return std::nullopt;
  if (const std::vector<std::int64_t> *p =
          graph_.partialShapeDataOf(node_.input(i)))
    return *p;
  return std::nullopt;
}

std::optional<std::vector<std::int64_t>> NodeContext::constantInts(int i) {
  if (!hasInput(i))
    return std::nullopt;
  const std::string &name = node_.input(i);
  if (const onnx::TensorProto *t = graph_.constantOf(name)) {
    if (t->data_type() != onnx::TensorProto::INT64 &&
        t->data_type() != onnx::TensorProto::INT32)
      return std::nullopt;
    std::optional<std::string> bytes = graph_.tensorBytes(*t, loc);
    if (!bytes)
      return std::nullopt;
    std::vector<std::int64_t> values;
    bool wide = t->data_type() == onnx::TensorProto::INT64;
    for (std::size_t at = 0; at < bytes->size(); at += wide ? 8 : 4) {
      std::int64_t v = 0;
      if (wide) {
        std::memcpy(&v, bytes->data() + at, 8);
      } else {
        std::int32_t narrow;
        std::memcpy(&narrow, bytes->data() + at, 4);
        v = narrow;
      }
      values.push_back(v);
    }
    return values;
  }
  return graph_.shapeDataOf(name);
}

std::optional<std::vector<double>> NodeContext::constantFloats(int i) {
  if (!hasInput(i))
    return std::nullopt;
  const onnx::TensorProto *t = graph_.constantOf(node_.input(i));
  if (!t)
    return std::nullopt;
  std::optional<std::string> bytes = graph_.tensorBytes(*t, loc);
  if (!bytes)
    return std::nullopt;
  std::vector<double> values;
  switch (t->data_type()) {
  case onnx::TensorProto::FLOAT:
    for (std::size_t at = 0; at < bytes->size(); at += 4) {
      float v;
      std::memcpy(&v, bytes->data() + at, 4);
      values.push_back(v);
    }
    return values;
  case onnx::TensorProto::DOUBLE:
    for (std::size_t at = 0; at < bytes->size(); at += 8) {
      double v;
      std::memcpy(&v, bytes->data() + at, 8);
      values.push_back(v);
    }
    return values;
  default:
    if (auto ints = constantInts(i))
      return std::vector<double>(ints->begin(), ints->end());
    return std::nullopt;
  }
}

std::optional<std::string> NodeContext::constantBytes(int i) {
  if (!hasInput(i))
    return std::nullopt;
  const onnx::TensorProto *t = graph_.constantOf(node_.input(i));
  if (!t)
    return std::nullopt;
  return graph_.tensorBytes(*t, loc);
}

mlir::Value NodeContext::constant(mlir::RankedTensorType type,
                                  const std::string &bytes) {
  return graph_.constantValue(type, bytes, loc);
}

mlir::RankedTensorType NodeContext::outputType(int i) {
  mlir::RankedTensorType type = graph_.typeOf(node_.output(i), loc);
  if (type && channelsLast_ && type.getRank() == 4)
    return permutedType(type, kToChannelsLast);
  return type;
}

void NodeContext::setOutput(int i, mlir::Value value) {
  if (!value) {
    // What made it null said why.
    failed_ = true;
    return;
  }
  if (channelsLast_ && outputType(i) && outputType(i).getRank() == 4)
    return setChannelsLastOutput(i, value);
  if (mlir::RankedTensorType want = outputType(i))
    if (!(value =
              castedTo(b, value, want, "its output '" + node_.output(i) + "'")))
      return;
  graph_.define(node_.output(i), value);
}

const std::vector<mlir::Value> *NodeContext::sequenceInput(int i) {
  if (!hasInput(i)) {
    (void)fail("needs its input " + llvm::Twine(i));
    return nullptr;
  }
  const std::vector<mlir::Value> *elements = graph_.sequenceOf(node_.input(i));
  if (!elements)
    (void)fail("input '" + node_.input(i) +
               "' is not a sequence or an optional known when the graph is "
               "imported (a graph's inputs and a loop's carried values "
               "cannot be sequences)");
  return elements;
}

bool NodeContext::inputIsSequence(int i) const {
  return hasInput(i) && graph_.sequenceOf(node_.input(i));
}

void NodeContext::setSequenceOutput(int i, std::vector<mlir::Value> elements) {
  graph_.defineSequence(node_.output(i), std::move(elements));
}

mlir::Value NodeContext::castedTo(mlir::OpBuilder &b, mlir::Value v,
                                  mlir::Type type, const llvm::Twine &what) {
  if (v.getType() == type)
    return v;
  auto from = llvm::dyn_cast<mlir::RankedTensorType>(v.getType());
  auto to = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!from || !to || !mlir::tensor::CastOp::areCastCompatible(from, to))
    return (void)fail(what + " is " + typeText(v.getType()) +
                      " where ONNX gives it " + typeText(type)),
           nullptr;
  return mlir::tensor::CastOp::create(b, loc, to, v);
}

std::string typeText(mlir::Type t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  t.print(os);
  return text;
}

const onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  for (const onnx::AttributeProto &a : node_.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

bool NodeContext::hasAttr(llvm::StringRef name) const {
  return attr(name) != nullptr;
}

std::int64_t NodeContext::intAttr(llvm::StringRef name,
                                  std::int64_t otherwise) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->i() : otherwise;
}

float NodeContext::floatAttr(llvm::StringRef name, float otherwise) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->f() : otherwise;
}

std::string NodeContext::stringAttr(llvm::StringRef name,
                                    const std::string &otherwise) const {
  const onnx::AttributeProto *a = attr(name);
  return a ? a->s() : otherwise;
}

std::vector<std::int64_t>
NodeContext::intsAttr(llvm::StringRef name,
                      const std::vector<std::int64_t> &otherwise) const {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return otherwise;
  return std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
}

mlir::LogicalResult NodeContext::fail(const llvm::Twine &why) {
  failed_ = true;
  return mlir::emitError(loc) << "ONNX node '" << node_.name() << "' ("
                              << node_.op_type() << "): " << why;
}

mlir::RankedTensorType permutedType(mlir::RankedTensorType type,
                                    llvm::ArrayRef<std::int64_t> perm) {
  llvm::SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  return mlir::RankedTensorType::get(shape, type.getElementType());
}

mlir::Value transposed(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       llvm::ArrayRef<std::int64_t> perm) {
  auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
  llvm::SmallVector<mlir::Value> dims;
  for (int64_t p : perm)
    if (t.isDynamicDim(p))
      dims.push_back(mlir::tensor::DimOp::create(b, loc, v, p));
  mlir::RankedTensorType type = permutedType(t, perm);
  mlir::Value init = mlir::tensor::EmptyOp::create(b, loc, type.getShape(),
                                                   type.getElementType(), dims);
  return mlir::linalg::TransposeOp::create(b, loc, v, init, perm)
      .getResult()[0];
}

mlir::Value NodeContext::dim(mlir::Value v, int64_t d) {
  return mlir::tensor::DimOp::create(b, loc, v, d);
}

mlir::Value NodeContext::empty(mlir::RankedTensorType type,
                               llvm::ArrayRef<mlir::Value> dims) {
  llvm::SmallVector<mlir::Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamic.push_back(dims[d]);
  return mlir::tensor::EmptyOp::create(b, loc, type.getShape(),
                                       type.getElementType(), dynamic);
}

mlir::Value NodeContext::filled(mlir::RankedTensorType type, mlir::Value value,
                                llvm::ArrayRef<mlir::Value> dims) {
  mlir::Value init = empty(type, dims);
  return mlir::linalg::FillOp::create(b, loc, mlir::ValueRange{value},
                                      mlir::ValueRange{init})
      .getResult(0);
}

mlir::Value NodeContext::scalar(mlir::Type type, double value) {
  if (auto f = llvm::dyn_cast<mlir::FloatType>(type))
    return mlir::arith::ConstantOp::create(b, loc, b.getFloatAttr(f, value));
  return mlir::arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type, static_cast<int64_t>(value)));
}

mlir::Value wrappedIndex(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value element, mlir::Value size) {
  mlir::Value i =
      mlir::arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
  mlir::Value zero = mlir::arith::ConstantIndexOp::create(b, loc, 0);
  mlir::Value negative = mlir::arith::CmpIOp::create(
      b, loc, mlir::arith::CmpIPredicate::slt, i, zero);
  return mlir::arith::SelectOp::create(
      b, loc, negative, mlir::arith::AddIOp::create(b, loc, i, size), i);
}

std::string transposedBytes(const std::string &bytes, int64_t rows,
                            int64_t cols, std::size_t size) {
  std::string out(bytes.size(), '\0');
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      std::memcpy(&out[std::size_t(c * rows + r) * size],
                  &bytes[std::size_t(r * cols + c) * size], size);
  return out;
}

const OpConverter *findConverter(llvm::StringRef opType) {
  static const llvm::StringMap<OpConverter> table = [] {
    llvm::StringMap<OpConverter> t;
    for (auto part :
         {elementwiseConverters, linearConverters,     recurrentConverters,
          convolutionConverters, shapeConverters,      normalizationConverters,
          indexingConverters,    scatterConverters,    selectionConverters,
          resizeConverters,      gridSampleConverters, quantizationConverters,
          controlFlowConverters, signalConverters,     lossConverters,
          detectionConverters,   uniqueConverters,     sequenceConverters,
          randomConverters,      ngramConverters})
      for (OpConverter &c : part())
        t.try_emplace(c.opType, c);
    // Ops that move elements without reading them take unsigned integers
    // as they are.
    for (llvm::StringRef op :
         {"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose",
          "Concat", "Split", "Slice", "Gather", "Expand", "Tile", "Shape",
          "Compress", "ReverseSequence"})
      if (auto it = t.find(op); it != t.end())
        it->second.readsUnsigned = true;
    return t;
  }();
  auto it = table.find(opType);
  return it == table.end() ? nullptr : &it->second;
}

} // namespace aot::onnx_import
