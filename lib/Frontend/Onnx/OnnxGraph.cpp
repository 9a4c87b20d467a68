//===- OnnxGraph.cpp - one ONNX graph as one function ---------------------===//
#include "Frontend/Onnx/OnnxGraph.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "aot/Manifest.h"
#include "aot/abi/detail/InputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

namespace aot::onnx_import {

namespace {

/// Bytes per element of the ONNX data types the importer reads, 0 else.
std::size_t elementBytes(int dataType) {
  switch (dataType) {
  case onnx::TensorProto::BOOL:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return 1;
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    return 2;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::FLOAT:
    return 4;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
  case onnx::TensorProto::DOUBLE:
    return 8;
  default:
    return 0;
  }
}

/// Adds to `names` every name the subgraphs of `node` (and theirs) read:
/// those they do not define come from the graphs around them.
void subgraphReads(const onnx::NodeProto &node, std::set<std::string> &names) {
  auto add = [&](const onnx::GraphProto &graph) {
    for (const onnx::NodeProto &inner : graph.node()) {
      for (const std::string &in : inner.input())
        if (!in.empty())
          names.insert(in);
      subgraphReads(inner, names);
    }
  };
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.has_g())
      add(a.g());
    for (const onnx::GraphProto &g : a.graphs())
      add(g);
  }
}

/// A function name made of the graph's: letters, digits and '_', not
/// starting with a digit or with the compiler's own '__'.
std::string functionName(const std::string &graphName) {
  std::string name;
  for (char c : graphName)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  while (name.size() > 1 && name[0] == '_' && name[1] == '_')
    name.erase(0, 1);
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    name = "main" + (name.empty() ? "" : "_" + name);
  return name;
}

} // namespace

GraphImporter::GraphImporter(LoadedModel &model, mlir::ModuleOp module,
                             llvm::StringRef fileName, std::string modelDir)
    : model_(model), graph_(model.proto.graph()), module_(module),
      fileName_(fileName.str()), modelDir_(std::move(modelDir)),
      builder_(module.getContext()) {
  // The weights move from the protobuf into the blobs of their constants:
  // a network's weights are in memory once while it is imported, not twice.
  for (onnx::TensorProto &t :
       *model.proto.mutable_graph()->mutable_initializer())
    if (t.data_location() != onnx::TensorProto::EXTERNAL &&
        t.raw_data().size() >= kBlobBytes)
      taken_[&t] =
          std::make_shared<const std::string>(std::move(*t.mutable_raw_data()));
  index();
}

GraphImporter::GraphImporter(GraphImporter &parent,
                             const onnx::GraphProto &graph)
    : model_(parent.model_), graph_(graph), parent_(&parent),
      module_(parent.module_), fileName_(parent.fileName_),
      modelDir_(parent.modelDir_), builder_(parent.context()),
      blobCounter_(parent.blobCounter_) {
  index();
}

void GraphImporter::index() {
  for (const onnx::ValueInfoProto &v : graph_.input())
    types_[v.name()] = &v.type();
  for (const onnx::ValueInfoProto &v : graph_.value_info())
    types_[v.name()] = &v.type();
  for (const onnx::ValueInfoProto &v : graph_.output())
    types_[v.name()] = &v.type();
  for (const onnx::TensorProto &t : graph_.initializer())
    constants_[t.name()] = &t;
  for (const onnx::NodeProto &node : graph_.node()) {
    for (const std::string &out : node.output())
      producers_[out] = &node;
    if (node.op_type() != "Constant" || node.output_size() != 1 ||
        !(node.domain().empty() || node.domain() == "ai.onnx"))
      continue;
    for (const onnx::AttributeProto &a : node.attribute()) {
      auto owned = std::make_unique<onnx::TensorProto>();
      if (a.name() == "value") {
        *owned = a.t();
      } else if (a.name() == "value_float" || a.name() == "value_floats") {
        owned->set_data_type(onnx::TensorProto::FLOAT);
        if (a.name() == "value_float")
          owned->add_float_data(a.f());
        else
          for (float f : a.floats())
            owned->add_float_data(f);
        if (a.name() == "value_floats")
          owned->add_dims(a.floats_size());
      } else if (a.name() == "value_int" || a.name() == "value_ints") {
        owned->set_data_type(onnx::TensorProto::INT64);
        if (a.name() == "value_int")
          owned->add_int64_data(a.i());
        else
          for (std::int64_t i : a.ints())
            owned->add_int64_data(i);
        if (a.name() == "value_ints")
          owned->add_dims(a.ints_size());
      } else {
        continue; // strings and sparse tensors: the converter refuses
      }
      constants_[node.output(0)] = owned.get();
      ownedConstants_.push_back(std::move(owned));
    }
  }
}

mlir::Location GraphImporter::nodeLocation(const onnx::NodeProto &node,
                                           int index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "_" + std::to_string(index)
                         : node.name();
  name += " (" + node.op_type() + ", node " + std::to_string(index) + ")";
  return mlir::NameLoc::get(
      mlir::StringAttr::get(context(), name),
      mlir::FileLineColLoc::get(context(), fileName_, unsigned(index) + 1, 1));
}

mlir::Type GraphImporter::elementType(int dataType, mlir::Location loc,
                                      llvm::StringRef what) {
  mlir::Builder b(context());
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return b.getF32Type();
  case onnx::TensorProto::DOUBLE:
    return b.getF64Type();
  case onnx::TensorProto::FLOAT16:
    return b.getF16Type();
  case onnx::TensorProto::BFLOAT16:
    return b.getBF16Type();
  case onnx::TensorProto::BOOL:
    return b.getI1Type();
  // The unsigned types are signless integers, read unsigned where
  // isUnsigned says.
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return b.getI8Type();
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return b.getI16Type();
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return b.getI32Type();
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
    return b.getI64Type();
  default:
    break;
  }
  const char *name = onnx::TensorProto::DataType_IsValid(dataType)
                         ? onnx::TensorProto::DataType_Name(
                               onnx::TensorProto::DataType(dataType))
                               .c_str()
                         : "an unknown data type";
  mlir::InFlightDiagnostic diag = mlir::emitError(loc);
  if (!what.empty())
    diag << "'" << what << "': ";
  diag << "ONNX element type " << name << " (" << dataType
       << ") is not supported (supported: float, double, "
          "float16, bfloat16, bool, int8-int64, uint8-uint64)";
  return nullptr;
}

mlir::RankedTensorType GraphImporter::tensorType(const onnx::TypeProto &type,
                                                 llvm::StringRef what,
                                                 mlir::Location loc) {
  if (!type.has_tensor_type()) {
    mlir::emitError(loc) << "'" << what
                         << "' is not a tensor (sequences and optionals "
                            "live only inside a graph; maps are not "
                            "supported)";
    return nullptr;
  }
  const onnx::TypeProto::Tensor &t = type.tensor_type();
  mlir::Type element = elementType(t.elem_type(), loc, what);
  if (!element)
    return nullptr;
  if (!t.has_shape()) {
    mlir::emitError(loc) << "'" << what
                         << "' has no known rank: shape inference could not "
                            "give it one";
    return nullptr;
  }
  llvm::SmallVector<int64_t> shape;
  for (const onnx::TensorShapeProto::Dimension &d : t.shape().dim()) {
    if (d.has_dim_value() && d.dim_value() < 0) {
      mlir::emitError(loc) << "'" << what << "' has a negative dim ("
                           << d.dim_value() << ")";
      return nullptr;
    }
    shape.push_back(d.has_dim_value() ? d.dim_value()
                                      : mlir::ShapedType::kDynamic);
  }
  return mlir::RankedTensorType::get(shape, element);
}

mlir::RankedTensorType GraphImporter::typeOf(const std::string &name,
                                             mlir::Location loc) {
  if (auto it = types_.find(name); it != types_.end())
    return tensorType(*it->second, name, loc);
  if (parent_ && !constants_.count(name))
    return parent_->typeOf(name, loc);
  if (const onnx::TensorProto *t = constantOf(name)) {
    mlir::Type element = elementType(t->data_type(), loc, name);
    if (!element)
      return nullptr;
    return mlir::RankedTensorType::get(
        llvm::SmallVector<int64_t>(t->dims().begin(), t->dims().end()),
        element);
  }
  mlir::emitError(loc) << "'" << name
                       << "' has no type: shape inference could not give "
                          "it one";
  return nullptr;
}

const onnx::TensorProto *
GraphImporter::constantOf(const std::string &name) const {
  auto it = constants_.find(name);
  if (it != constants_.end())
    return it->second;
  // An outer constant, where no value of this graph shadows it.
  return parent_ && !types_.count(name) && !producers_.count(name)
             ? parent_->constantOf(name)
             : nullptr;
}

static bool isUnsignedType(int dataType) {
  return dataType == onnx::TensorProto::UINT8 ||
         dataType == onnx::TensorProto::UINT16 ||
         dataType == onnx::TensorProto::UINT32 ||
         dataType == onnx::TensorProto::UINT64;
}

bool GraphImporter::isUnsigned(const std::string &name) const {
  if (auto it = types_.find(name); it != types_.end())
    return it->second->has_tensor_type() &&
           isUnsignedType(it->second->tensor_type().elem_type());
  if (const onnx::TensorProto *t = constantOf(name))
    return isUnsignedType(t->data_type());
  return parent_ && parent_->isUnsigned(name);
}

std::optional<std::vector<std::int64_t>>
GraphImporter::shapeDataOf(const std::string &name) const {
  auto it = model_.shapeData.find(name);
  if (it == model_.shapeData.end())
    return std::nullopt;
  return it->second;
}

const std::vector<std::int64_t> *
GraphImporter::partialShapeDataOf(const std::string &name) const {
  auto it = model_.partialShapeData.find(name);
  return it == model_.partialShapeData.end() ? nullptr : &it->second;
}

void GraphImporter::define(const std::string &name, mlir::Value value) {
  values_[name] = value;
}

void GraphImporter::defineSequence(const std::string &name,
                                   std::vector<mlir::Value> elements) {
  sequences_[name] = std::move(elements);
}

const std::vector<mlir::Value> *
GraphImporter::sequenceOf(const std::string &name) const {
  if (auto it = sequences_.find(name); it != sequences_.end())
    return &it->second;
  return parent_ && !values_.count(name) ? parent_->sequenceOf(name) : nullptr;
}

mlir::Value GraphImporter::channelsLastOf(const std::string &name) const {
  auto it = channelsLast_.find(name);
  if (it != channelsLast_.end())
    return it->second;
  return parent_ && !values_.count(name) ? parent_->channelsLastOf(name)
                                         : nullptr;
}

void GraphImporter::defineChannelsLast(const std::string &name,
                                       mlir::Value nhwc, mlir::Value nchw) {
  channelsLast_[name] = nhwc;
  if (nchw)
    values_[name] = nchw;
  else
    values_.erase(name);
}

bool GraphImporter::runsChannelsLast(const onnx::NodeProto &node,
                                     const OpConverter &converter) {
  if (!converter.anyLayout || node.output_size() != 1)
    return false;
  auto out = types_.find(node.output(0));
  if (out == types_.end() || !out->second->has_tensor_type() ||
      out->second->tensor_type().shape().dim_size() != 4)
    return false;
  bool any = false;
  for (const std::string &in : node.input()) {
    if (in.empty())
      continue;
    if (channelsLast_.count(in)) {
      any = true;
      continue;
    }
    // Anything else must read the same in either layout: all its dims 1.
    const onnx::TypeProto *type = nullptr;
    if (auto it = types_.find(in); it != types_.end())
      type = it->second;
    if (type) {
      if (!type->has_tensor_type() || !type->tensor_type().has_shape())
        return false;
      for (const auto &d : type->tensor_type().shape().dim())
        if (!d.has_dim_value() || d.dim_value() != 1)
          return false;
    } else if (const onnx::TensorProto *t = constantOf(in)) {
      for (int64_t d : t->dims())
        if (d != 1)
          return false;
    } else {
      return false;
    }
  }
  return any;
}

std::optional<std::string>
GraphImporter::tensorBytes(const onnx::TensorProto &t, mlir::Location loc) {
  std::optional<SharedBytes> data = tensorData(t, loc);
  if (!data)
    return std::nullopt;
  return **data;
}

std::optional<SharedBytes> GraphImporter::tensorData(const onnx::TensorProto &t,
                                                     mlir::Location loc) {
  std::size_t size = elementBytes(t.data_type());
  if (!size) {
    elementType(t.data_type(), loc, t.name()); // says why
    return std::nullopt;
  }
  std::uint64_t count = 1;
  for (std::int64_t d : t.dims()) {
    if (d < 0 || (d && count > std::numeric_limits<std::uint64_t>::max() /
                                   std::uint64_t(d) / size)) {
      mlir::emitError(loc) << "constant '" << t.name()
                           << "' has an impossible shape";
      return std::nullopt;
    }
    count *= std::uint64_t(d);
  }
  std::uint64_t want = count * size;
  std::string bytes;
  if (auto it = taken_.find(&t); it != taken_.end()) {
    if (it->second->size() == want)
      return it->second;
    bytes = *it->second; // the size error below
  } else if (t.data_location() == onnx::TensorProto::EXTERNAL) {
    std::string location;
    std::uint64_t offset = 0, length = want;
    for (const onnx::StringStringEntryProto &e : t.external_data()) {
      bool numberOk = true;
      if (e.key() == "location")
        location = e.value();
      else if (e.key() == "offset")
        numberOk = llvm::to_integer(e.value(), offset, 10);
      else if (e.key() == "length")
        numberOk = llvm::to_integer(e.value(), length, 10);
      if (!numberOk) {
        mlir::emitError(loc)
            << "constant '" << t.name() << "': external data " << e.key()
            << " '" << e.value() << "' is not a byte count";
        return std::nullopt;
      }
    }
    llvm::SmallString<256> path(modelDir_);
    llvm::sys::path::append(path, location);
    auto fail = [&](const std::string &why) {
      mlir::emitError(loc) << "constant '" << t.name()
                           << "': cannot read its external data file '" << path
                           << "': " << why;
      return std::nullopt;
    };
    if (location.empty())
      return fail("the model names no file");
    if (length != want)
      return fail("it gives " + std::to_string(length) +
                  " bytes; the constant's shape needs " + std::to_string(want));
    try {
      // A regular file only: a FIFO or a device there would block or never
      // end.
      abi::detail::InputFile file(std::string(path), /*streams=*/false);
      if (offset > file.size() || length > file.size() - offset)
        return fail("bytes " + std::to_string(offset) + " to " +
                    std::to_string(offset + length) + " lie past its end (" +
                    std::to_string(file.size()) + " bytes)");
      auto slice = llvm::MemoryBuffer::getOpenFileSlice(
          file.fd(), path, length, offset, /*IsVolatile=*/false);
      if (!slice)
        return fail(slice.getError().message());
      bytes = (*slice)->getBuffer().str();
    } catch (const abi::Error &e) {
      return fail(abi::detail::withoutPath(e, std::string(path)));
    }
  } else if (t.has_raw_data()) {
    bytes = t.raw_data();
  } else {
    auto put = [&](auto value, std::size_t n) {
      bytes.append(reinterpret_cast<const char *>(&value), n);
    };
    switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
      for (float v : t.float_data())
        put(v, 4);
      break;
    case onnx::TensorProto::DOUBLE:
      for (double v : t.double_data())
        put(v, 8);
      break;
    case onnx::TensorProto::INT64:
      for (std::int64_t v : t.int64_data())
        put(v, 8);
      break;
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64:
      for (std::uint64_t v : t.uint64_data())
        put(v, size);
      break;
    default:
      // int32_data holds the narrower types, one value each (f16 and bf16
      // as their bits).
      for (std::int32_t v : t.int32_data())
        put(v, size);
      break;
    }
  }
  if (bytes.size() != want) {
    mlir::emitError(loc) << "constant '" << t.name() << "' holds "
                         << bytes.size() << " bytes; its shape needs " << want;
    return std::nullopt;
  }
  return std::make_shared<const std::string>(std::move(bytes));
}

mlir::Value GraphImporter::constantValue(mlir::RankedTensorType type,
                                         std::string bytes,
                                         mlir::Location loc) {
  return constantValue(
      type, std::make_shared<const std::string>(std::move(bytes)), loc);
}

mlir::Value GraphImporter::constantValue(mlir::RankedTensorType type,
                                         SharedBytes shared,
                                         mlir::Location loc) {
  const std::string &bytes = *shared;
  mlir::Attribute value;
  if (type.getElementType().isInteger(1)) {
    llvm::SmallVector<bool> bits;
    for (char c : bytes)
      bits.push_back(c != 0);
    value = mlir::DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
  } else if (bytes.size() < kBlobBytes) {
    value = mlir::DenseElementsAttr::getFromRawBuffer(
        type, llvm::ArrayRef<char>(bytes.data(), bytes.size()));
  } else {
    // Raw bytes all the way: a resource blob, never decimal text. It keeps
    // the bytes alive rather than copying them, where they are aligned for
    // any element type (a string's heap storage is, as malloc's).
    llvm::ArrayRef<char> data(bytes.data(), bytes.size());
    constexpr std::size_t align = alignof(std::max_align_t);
    mlir::AsmResourceBlob blob =
        reinterpret_cast<std::uintptr_t>(bytes.data()) % align == 0
            ? mlir::AsmResourceBlob(
                  data, align,
                  [keep = std::move(shared)](void *, size_t, size_t) {},
                  /*dataIsMutable=*/false)
            : mlir::HeapAsmResourceBlob::allocateAndCopyWithAlign(data, 64);
    value = mlir::DenseResourceElementsAttr::get(
        type, "onnx_" + std::to_string((*blobCounter_)++), std::move(blob));
  }
  // At the top of the function, so that every later use sees it.
  mlir::OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToStart(builder_.getInsertionBlock());
  return mlir::arith::ConstantOp::create(builder_, loc, type,
                                         llvm::cast<mlir::TypedAttr>(value));
}

mlir::Value GraphImporter::materialize(const std::string &name,
                                       const onnx::TensorProto &tensor,
                                       mlir::Location loc) {
  mlir::RankedTensorType type = typeOf(name, loc);
  if (!type)
    return nullptr;
  std::optional<SharedBytes> bytes = tensorData(tensor, loc);
  if (!bytes)
    return nullptr;
  mlir::Value v = constantValue(type, std::move(*bytes), loc);
  values_[name] = v;
  return v;
}

mlir::Value GraphImporter::valueOf(const std::string &name,
                                   mlir::Location loc) {
  if (auto it = values_.find(name); it != values_.end())
    return it->second;
  if (mlir::Value nhwc = channelsLastOf(name)) {
    // Made once, right after the value it transposes, so that it
    // dominates every later reader wherever the first one builds.
    mlir::OpBuilder::InsertionGuard guard(builder_);
    builder_.setInsertionPointAfterValue(nhwc);
    mlir::Value v = transposed(builder_, nhwc.getLoc(), nhwc, kToChannelsFirst);
    values_[name] = v;
    return v;
  }
  if (auto it = constants_.find(name); it != constants_.end())
    return materialize(name, *it->second, loc);
  if (sequences_.count(name)) {
    mlir::emitError(loc) << "'" << name
                         << "' is a sequence or an optional, read where a "
                            "tensor is expected";
    return nullptr;
  }
  if (parent_)
    return parent_->valueOf(name, loc);
  mlir::emitError(loc) << "'" << name << "' has no value (internal error)";
  return nullptr;
}

std::set<const onnx::NodeProto *> GraphImporter::neededNodes() {
  std::set<std::string> needed;
  for (const onnx::ValueInfoProto &out : graph_.output())
    needed.insert(out.name());
  std::set<const onnx::NodeProto *> nodes;
  for (int i = graph_.node_size() - 1; i >= 0; --i) {
    const onnx::NodeProto &node = graph_.node(i);
    bool used = false;
    for (const std::string &out : node.output())
      used |= needed.count(out) != 0;
    if (!used || constantOf(node.output_size() ? node.output(0) : ""))
      continue;
    nodes.insert(&node);
    // What its subgraphs read of the graphs around them is needed too.
    subgraphReads(node, needed);
    const OpConverter *converter =
        node.domain().empty() || node.domain() == "ai.onnx"
            ? findConverter(node.op_type())
            : nullptr;
    for (int k = 0; k < node.input_size(); ++k) {
      const std::string &in = node.input(k);
      bool asConstant =
          converter && llvm::is_contained(converter->constantInputs, k);
      if (in.empty() || (asConstant && (constantOf(in) || shapeDataOf(in))))
        continue;
      needed.insert(in);
    }
  }
  return nodes;
}

const std::string *
GraphImporter::unsignedValueOf(const onnx::NodeProto &node) const {
  for (const std::string &name : node.input())
    if (!name.empty() && isUnsigned(name))
      return &name;
  for (const std::string &name : node.output())
    if (!name.empty() && isUnsigned(name))
      return &name;
  return nullptr;
}

mlir::LogicalResult GraphImporter::convertNodes() {
  std::set<const onnx::NodeProto *> needed = neededNodes();
  for (int i = 0; i < graph_.node_size(); ++i) {
    const onnx::NodeProto &node = graph_.node(i);
    if (!needed.count(&node))
      continue;
    mlir::Location loc = nodeLocation(node, i);
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    const OpConverter *converter =
        defaultDomain ? findConverter(node.op_type()) : nullptr;
    if (!converter) {
      std::string opset = "none imported";
      for (const onnx::OperatorSetIdProto &set : model_.proto.opset_import())
        if (set.domain() == node.domain() ||
            (defaultDomain && set.domain() == "ai.onnx"))
          opset = std::to_string(set.version());
      return mlir::emitError(loc)
             << "ONNX node '" << node.name() << "': op '" << node.op_type()
             << "' (domain '"
             << (node.domain().empty() ? "ai.onnx" : node.domain())
             << "', opset " << opset << ") is not supported";
    }
    if (!converter->readsUnsigned)
      if (const std::string *name = unsignedValueOf(node))
        return mlir::emitError(loc)
               << "ONNX node '" << node.name() << "' (" << node.op_type()
               << "): unsigned value '" << *name
               << "' is not supported by this op (unsigned integers are "
                  "read by Cast, arithmetic, comparisons, the quantization "
                  "ops and the ops that move elements)";
    if (converter->takesOneD && node.input_size() &&
        declaredRank(node.input(0)) == 3) {
      if (mlir::failed(convertAsTwoD(node, *converter, loc)))
        return mlir::failure();
    } else {
      NodeContext ctx(*this, node, builder_, loc,
                      runsChannelsLast(node, *converter));
      if (mlir::failed(converter->convert(ctx)) || ctx.failed())
        return mlir::failure();
    }
    for (const std::string &out : node.output())
      if (!out.empty() && !values_.count(out) && !channelsLast_.count(out) &&
          !sequences_.count(out) && !constantOf(out))
        return mlir::emitError(loc)
               << "internal error: the converter of '" << node.op_type()
               << "' left output '" << out << "' without a value";
  }
  return mlir::success();
}

mlir::LogicalResult GraphImporter::run() {
  mlir::Location graphLoc =
      mlir::FileLineColLoc::get(context(), fileName_, 0, 0);
  llvm::SmallVector<mlir::Type> argTypes, resultTypes;
  std::vector<std::string> argNames;
  for (const onnx::ValueInfoProto &in : graph_.input()) {
    if (constantOf(in.name()))
      continue; // an initializer listed as an input (IR version < 4)
    mlir::RankedTensorType t = tensorType(in.type(), in.name(), graphLoc);
    if (!t)
      return mlir::failure();
    argTypes.push_back(t);
    argNames.push_back(in.name());
  }
  for (const onnx::ValueInfoProto &out : graph_.output()) {
    mlir::RankedTensorType t = tensorType(out.type(), out.name(), graphLoc);
    if (!t)
      return mlir::failure();
    resultTypes.push_back(t);
  }
  builder_.setInsertionPointToEnd(module_.getBody());
  auto fn = mlir::func::FuncOp::create(
      builder_, graphLoc, functionName(graph_.name()),
      builder_.getFunctionType(argTypes, resultTypes));
  // Unsigned at the ABI where ONNX says so: callers pass and get numpy's
  // uint8 (an image's bytes) to uint64, not their signed reinterpretation.
  const llvm::StringRef unsignedName(kUnsignedAttrName);
  mlir::UnitAttr unsignedAttr = builder_.getUnitAttr();
  for (std::size_t i = 0; i < argNames.size(); ++i)
    if (isUnsigned(argNames[i]))
      fn.setArgAttr(i, unsignedName, unsignedAttr);
  for (int i = 0; i < graph_.output_size(); ++i)
    if (isUnsigned(graph_.output(i).name()))
      fn.setResultAttr(i, unsignedName, unsignedAttr);
  mlir::Block *entry = fn.addEntryBlock();
  builder_.setInsertionPointToEnd(entry);
  for (std::size_t i = 0; i < argNames.size(); ++i)
    values_[argNames[i]] = entry->getArgument(i);

  if (mlir::failed(convertNodes()))
    return mlir::failure();
  llvm::SmallVector<mlir::Value> results;
  for (const onnx::ValueInfoProto &out : graph_.output()) {
    mlir::Value v = valueOf(out.name(), graphLoc);
    if (!v)
      return mlir::failure();
    mlir::Type want = resultTypes[results.size()];
    if (v.getType() != want)
      v = mlir::tensor::CastOp::create(builder_, graphLoc, want, v);
    results.push_back(v);
  }
  mlir::func::ReturnOp::create(builder_, graphLoc, results);
  return mlir::success();
}

mlir::LogicalResult
GraphImporter::runIn(mlir::Block *block, mlir::ValueRange args,
                     llvm::SmallVectorImpl<mlir::Value> &results) {
  mlir::Location graphLoc = mlir::NameLoc::get(
      mlir::StringAttr::get(context(), "subgraph '" + graph_.name() + "'"),
      mlir::FileLineColLoc::get(context(), fileName_, 0, 0));
  if (int64_t(args.size()) != graph_.input_size())
    return mlir::emitError(graphLoc)
           << "takes " << graph_.input_size() << " inputs; the op gives it "
           << args.size();
  builder_.setInsertionPointToEnd(block);
  for (int i = 0; i < graph_.input_size(); ++i) {
    // Seen as the subgraph declares it, where it gives a shape (its
    // converters read the declared types): the value cast to it, which
    // must be possible (same element type and rank, no static dim that
    // differs); else the subgraph does not fit the op.
    const onnx::ValueInfoProto &in = graph_.input(i);
    mlir::Value v = args[i];
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
      mlir::RankedTensorType t = tensorType(in.type(), in.name(), graphLoc);
      if (!t)
        return mlir::failure();
      if (t != v.getType()) {
        if (!mlir::tensor::CastOp::areCastCompatible(v.getType(), t))
          return mlir::emitError(graphLoc)
                 << "input '" << in.name() << "' is declared " << t
                 << "; the op gives it " << v.getType();
        v = mlir::tensor::CastOp::create(builder_, graphLoc, t, v);
      }
    }
    values_[in.name()] = v;
  }
  if (mlir::failed(convertNodes()))
    return mlir::failure();
  for (const onnx::ValueInfoProto &out : graph_.output()) {
    mlir::Value v = valueOf(out.name(), graphLoc);
    if (!v)
      return mlir::failure();
    results.push_back(v);
  }
  return mlir::success();
}

} // namespace aot::onnx_import
