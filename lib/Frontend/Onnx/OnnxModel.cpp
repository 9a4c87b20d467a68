//===- OnnxModel.cpp - an ONNX model read, checked and normalised ---------===//
#include "Frontend/Onnx/OnnxModel.h"
#include "Frontend/Onnx/OnnxFold.h"
#include "Frontend/Onnx/OnnxSchemas.h"

#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include "google/protobuf/io/zero_copy_stream.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include <sys/mman.h>
#include <unistd.h>

namespace aot::onnx_import {

namespace {

/// The opset the model imports for the default domain ("" or "ai.onnx"),
/// or -1 when it names none.
int defaultOpset(const onnx::ModelProto &model) {
  for (const onnx::OperatorSetIdProto &set : model.opset_import())
    if (set.domain().empty() || set.domain() == "ai.onnx")
      return int(set.version());
  return -1;
}

/// The external-data file entries of the graph's initializers.
std::vector<std::pair<const std::string *, std::string *>>
externalLocations(onnx::ModelProto &model) {
  std::vector<std::pair<const std::string *, std::string *>> found;
  for (onnx::TensorProto &t : *model.mutable_graph()->mutable_initializer())
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
      for (onnx::StringStringEntryProto &e : *t.mutable_external_data())
        if (e.key() == "location")
          found.emplace_back(&t.name(), e.mutable_value());
  return found;
}

/// ONNX's checker on `model`, whose external data files it looks for in
/// `modelDir` (its model-level entry point looks in the working
/// directory): their names are made absolute while it runs. Throws what
/// the checker throws, and for a name that is not relative to the model.
void checkModel(onnx::ModelProto &model, const std::string &modelDir) {
  auto locations = externalLocations(model);
  std::vector<std::string> saved;
  for (auto &[tensor, location] : locations) {
    if (location->empty() || location->front() == '/')
      throw std::runtime_error(
          "constant '" + *tensor + "': its external data file '" + *location +
          "' must be named relative to the model's directory");
    saved.push_back(*location);
    *location = modelDir + "/" + *location;
  }
  auto restore = [&] {
    for (std::size_t i = 0; i < locations.size(); ++i)
      *locations[i].second = saved[i];
  };
  try {
    onnx::checker::check_model(model);
  } catch (...) {
    restore();
    throw;
  }
  restore();
}

/// Throws where `graph` (or a subgraph) reads a name nothing defines before
/// it: a graph input, an initializer, an earlier node's output or, in a
/// subgraph, a name of the graphs around it (`outer`). ONNX's checker lets
/// an undefined graph output through, and its version converter then
/// dereferences the missing value.
void checkNamesDefined(const onnx::GraphProto &graph,
                       std::set<std::string> outer) {
  std::set<std::string> &defined = outer;
  for (const onnx::ValueInfoProto &v : graph.input())
    defined.insert(v.name());
  for (const onnx::TensorProto &t : graph.initializer())
    defined.insert(t.name());
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &in : node.input())
      if (!in.empty() && !defined.count(in))
        throw std::runtime_error("node '" + node.name() + "' (" +
                                 node.op_type() + ") reads '" + in +
                                 "', which nothing defines before it");
    for (const onnx::AttributeProto &a : node.attribute()) {
      if (a.has_g())
        checkNamesDefined(a.g(), defined);
      for (const onnx::GraphProto &g : a.graphs())
        checkNamesDefined(g, defined);
    }
    for (const std::string &out : node.output())
      if (!out.empty())
        defined.insert(out);
  }
  for (const onnx::ValueInfoProto &v : graph.output())
    if (!defined.count(v.name()))
      throw std::runtime_error("graph '" + graph.name() + "' has output '" +
                               v.name() + "', which nothing defines");
}

/// The bytes of a model for the protobuf parser a slice at a time; with
/// `release`, the pages of each slice parsed are given back (the bytes are
/// a mapped file's: a page read again comes back from the file). The
/// parser copies what it keeps, so the file's pages and the parsed model
/// are not both resident, as the weights would be twice.
class SlicedInput : public google::protobuf::io::ZeroCopyInputStream {
public:
  SlicedInput(std::string_view bytes, bool release)
      : bytes_(bytes), release_(release) {}
  ~SlicedInput() override { releaseBefore(bytes_.size()); }

  bool Next(const void **data, int *size) override {
    // Before the slice handed out last, the parser has read all: it can
    // only back up into that slice.
    releaseBefore(last_);
    if (at_ >= bytes_.size())
      return false;
    std::size_t n = std::min(kSlice, bytes_.size() - at_);
    *data = bytes_.data() + at_;
    *size = int(n);
    last_ = at_;
    at_ += n;
    return true;
  }
  void BackUp(int count) override { at_ -= std::size_t(count); }
  bool Skip(int count) override {
    if (std::size_t(count) > bytes_.size() - at_) {
      at_ = bytes_.size();
      return false;
    }
    at_ += std::size_t(count);
    return true;
  }
  int64_t ByteCount() const override { return int64_t(at_); }

private:
  static constexpr std::size_t kSlice = std::size_t(8) << 20;

  void releaseBefore(std::size_t end) {
    if (!release_)
      return;
    const auto page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
    auto base = reinterpret_cast<std::uintptr_t>(bytes_.data());
    // Whole pages of the bytes only: the mapping may begin before them.
    std::uintptr_t first = (base + released_ + page - 1) / page * page;
    std::uintptr_t last = (base + end) / page * page;
    if (last > first)
      (void)::madvise(reinterpret_cast<void *>(first), last - first,
                      MADV_DONTNEED);
    released_ = std::max(released_, end);
  }

  std::string_view bytes_;
  bool release_;
  std::size_t at_ = 0, last_ = 0, released_ = 0;
};

} // namespace

std::optional<LoadedModel> parseModel(std::string_view bytes, bool mapped,
                                      std::string &error) {
  LoadedModel m;
  if (bytes.size() > std::size_t(std::numeric_limits<int>::max())) {
    error = "the model is over 2 GiB in one file; keep its weights in "
            "external data files (torch.onnx.export does for large models)";
    return std::nullopt;
  }
  SlicedInput input(bytes, mapped);
  if (!m.proto.ParseFromZeroCopyStream(&input)) {
    error = "not an ONNX model (the protobuf does not parse)";
    return std::nullopt;
  }
  if (!m.proto.has_graph()) {
    error = "not an ONNX model: it has no graph";
    return std::nullopt;
  }
  return m;
}

bool prepareModel(LoadedModel &m, const std::string &modelDir,
                  std::string &error) {
  // ONNX reports what it refuses as exceptions (ValidationError,
  // InferenceError, ConvertError, all std::exception).
  try {
    int opset = defaultOpset(m.proto);
    if (opset < 0) {
      error = "the model imports no opset of the default ONNX domain";
      return false;
    }
    if (opset > kOpset) {
      error = "the model uses opset " + std::to_string(opset) +
              " of the default domain; this importer reads opsets up to " +
              std::to_string(kOpset);
      return false;
    }
    checkModel(m.proto, modelDir);
    checkNamesDefined(m.proto.graph(), {});
    if (opset < kOpset) {
      m.proto = onnx::version_conversion::ConvertVersion(m.proto, kOpset);
      checkModel(m.proto, modelDir);
    }
    m.opset = kOpset;
    std::unordered_map<std::string, onnx::TensorShapeProto> data;
    onnx::ShapeInferenceOptions options(/*check_type=*/true,
                                        /*strict_mode=*/1,
                                        /*data_prop=*/true);
    m.partialShapeData = foldShapeArithmetic(m.proto, options);
    onnx::shape_inference::InferShapes(m.proto, importSchemas(), options,
                                       &data);

    for (const auto &[name, shape] : data) {
      std::vector<std::int64_t> values;
      bool known = true;
      for (const onnx::TensorShapeProto::Dimension &d : shape.dim()) {
        known &= d.has_dim_value();
        values.push_back(d.dim_value());
      }
      if (known)
        m.shapeData.emplace(name, std::move(values));
    }
  } catch (const std::exception &e) {
    // ONNX's messages span lines (a node printed in the middle): one line.
    error.clear();
    for (char c : std::string(e.what())) {
      if (c == '\n')
        c = ' ';
      if (c != ' ' || (!error.empty() && error.back() != ' '))
        error += c;
    }
    while (!error.empty() && error.back() == ' ')
      error.pop_back();
    return false;
  }
  return true;
}

} // namespace aot::onnx_import
