//===- OnnxNode.h - what a converter sees of one ONNX node ----------------===//
//
// A converter turns one node into ops of the input contract (linalg,
// tensor, arith, math on ranked tensors). It reads its inputs as values or,
// for the inputs that describe shapes and axes, as constants; it knows the
// type of each output from ONNX's shape inference; it reports what it
// cannot convert as an error at the node's location.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aot::onnx_import {

class GraphImporter;

class NodeContext {
public:
  /// With `channelsLast`, the node's rank-4 inputs and outputs are seen
  /// as N x H x W x C (see OpConverter::anyLayout).
  NodeContext(GraphImporter &graph, const onnx::NodeProto &node,
              mlir::OpBuilder &builder, mlir::Location loc,
              bool channelsLast = false)
      : graph_(graph), node_(node), channelsLast_(channelsLast), b(builder),
        loc(loc) {}

  const onnx::NodeProto &node() const { return node_; }

  /// Whether input `i` is given (ONNX leaves optional inputs out by an
  /// empty name, or by a short list).
  bool hasInput(int i) const;
  /// Input `i` as a value; null (after an error) when it has none.
  mlir::Value input(int i);
  /// The type of input `i`.
  mlir::RankedTensorType inputType(int i);
  /// Whether input `i` is unsigned (whose type here is signless: the
  /// converters that read it as a number ask).
  bool isUnsigned(int i) const;
  /// Whether output `i` is unsigned.
  bool outputIsUnsigned(int i) const;
  /// Input `i` as integers, when it is a constant (an initializer, a
  /// Constant node, or a shape that shape inference computed).
  std::optional<std::vector<std::int64_t>> constantInts(int i);
  /// Input `i` as integers where it is a constant or known but for some
  /// elements computed at run time (those kUnknownElement).
  std::optional<std::vector<std::int64_t>> knownInts(int i);
  /// Input `i` as floats, when it is a constant of a float type.
  std::optional<std::vector<double>> constantFloats(int i);
  /// The bytes of input `i` (packed, little-endian), when it is an
  /// initializer or a Constant node.
  std::optional<std::string> constantBytes(int i);
  /// A constant of `type` holding `bytes` (packed, little-endian), kept as
  /// raw bytes in a resource blob.
  mlir::Value constant(mlir::RankedTensorType type, const std::string &bytes);

  /// Input `i` laid out N x H x W x C, where its producer made it so (a
  /// convolution, or an op run channels last); null otherwise, without an
  /// error.
  mlir::Value channelsLastInput(int i);
  /// Defines output `i` (rank 4) by its N x H x W x C form `nhwc`. Its
  /// N x C x H x W form is `nchw` where given, or else a transpose made
  /// only if a consumer reads it.
  void setChannelsLastOutput(int i, mlir::Value nhwc,
                             mlir::Value nchw = nullptr);

  /// The elements of input `i`, a sequence or an optional known at import;
  /// null (after an error) where it is not one.
  const std::vector<mlir::Value> *sequenceInput(int i);
  /// Whether input `i` is a sequence or an optional known at import.
  bool inputIsSequence(int i) const;
  /// Defines output `i` as a sequence (or an optional) of `elements`.
  void setSequenceOutput(int i, std::vector<mlir::Value> elements);

  int numOutputs() const { return node_.output_size(); }
  /// The type shape inference gave output `i`.
  mlir::RankedTensorType outputType(int i);
  void setOutput(int i, mlir::Value value);
  /// `v` as `type`, where a tensor.cast can make it so (the same rank and
  /// element type, dims that agree where both are static), built by `b`;
  /// null after an error naming `what` and both types.
  mlir::Value castedTo(mlir::OpBuilder &b, mlir::Value v, mlir::Type type,
                       const llvm::Twine &what);

  bool hasAttr(llvm::StringRef name) const;
  std::int64_t intAttr(llvm::StringRef name, std::int64_t otherwise) const;
  float floatAttr(llvm::StringRef name, float otherwise) const;
  std::string stringAttr(llvm::StringRef name,
                         const std::string &otherwise) const;
  std::vector<std::int64_t>
  intsAttr(llvm::StringRef name,
           const std::vector<std::int64_t> &otherwise = {}) const;
  const onnx::AttributeProto *attr(llvm::StringRef name) const;

  /// Converts subgraph `g` (a graph attribute of the node) at the end of
  /// `block`, its inputs `args`, and sets `results` to its outputs. Fails
  /// after emitting located errors.
  mlir::LogicalResult
  importSubgraph(const onnx::GraphProto &g, mlir::Block *block,
                 mlir::ValueRange args,
                 llvm::SmallVectorImpl<mlir::Value> &results);

  /// Emits an error at the node naming it and says why; returns failure.
  mlir::LogicalResult fail(const llvm::Twine &why);
  /// Whether fail() was called, or an output was set to null after an
  /// error, even where the converter went on to return success.
  bool failed() const { return failed_; }

  /// A tensor of `type` to write into, sized at run time by `dims` where
  /// the type has a dynamic dim (dims[d] is an index value; ignored where
  /// the dim is static).
  mlir::Value empty(mlir::RankedTensorType type,
                    llvm::ArrayRef<mlir::Value> dims = {});
  /// The size of dim `d` of `v` as an index value.
  mlir::Value dim(mlir::Value v, int64_t d);
  /// `empty(type, dims)` filled with `value` (of the element type).
  mlir::Value filled(mlir::RankedTensorType type, mlir::Value value,
                     llvm::ArrayRef<mlir::Value> dims = {});
  /// A scalar constant of `type` (float or integer).
  mlir::Value scalar(mlir::Type type, double value);

private:
  GraphImporter &graph_;
  const onnx::NodeProto &node_;
  bool channelsLast_;
  bool failed_ = false;

public:
  mlir::OpBuilder &b;
  mlir::Location loc;
};

/// Converts one node; emits an error and fails when it cannot.
using Converter = mlir::LogicalResult (*)(NodeContext &);

/// How an op type is converted, and which of its inputs it reads only as
/// constants (shapes, axes, pads): the producers of those need not be
/// converted when their values are known.
struct OpConverter {
  llvm::StringRef opType;
  Converter convert;
  std::vector<int> constantInputs = {};
  /// Elementwise: the converter is right for rank-4 operands permuted
  /// alike, so the importer runs it channels last where its image inputs
  /// come channels last from a convolution (and the others are scalars).
  /// Chains of convolutions and activations then need no transposes.
  bool anyLayout = false;
  /// The converter reads unsigned inputs and makes unsigned outputs as what
  /// they are: it moves elements without reading them, or asks isUnsigned.
  /// Other converters refuse them rather than read uint8 as int8.
  bool readsUnsigned = false;
  /// A converter of 2-D images (Conv, pools) that also takes 1-D ones
  /// (N x C x W) seen as images of height 1 (GraphImporter::convertAsTwoD).
  bool takesOneD = false;
};

/// `t` as MLIR prints it, for messages.
std::string typeText(mlir::Type t);

/// Whether `t` is a floating-point type.
inline bool isFloatType(mlir::Type t) { return llvm::isa<mlir::FloatType>(t); }

/// N x C x H x W to N x H x W x C, and back.
inline constexpr std::int64_t kToChannelsLast[4] = {0, 2, 3, 1};
inline constexpr std::int64_t kToChannelsFirst[4] = {0, 3, 1, 2};

/// `type` with its dims reordered: result dim i is dim perm[i].
mlir::RankedTensorType permutedType(mlir::RankedTensorType type,
                                    llvm::ArrayRef<std::int64_t> perm);
/// `v` transposed by `perm` (result dim i is dim perm[i]).
mlir::Value transposed(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       llvm::ArrayRef<std::int64_t> perm);

/// The bytes of a `rows` x `cols` matrix of `size`-byte elements,
/// transposed (weights laid out for the matmul that reads them).
std::string transposedBytes(const std::string &bytes, int64_t rows,
                            int64_t cols, std::size_t size);

/// An index read from the integer tensor element `element`, counted from
/// the end of a dim of `size` when negative (as Gather and its kin read).
mlir::Value wrappedIndex(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value element, mlir::Value size);

/// The converter of `opType` in the default domain, or null.
const OpConverter *findConverter(llvm::StringRef opType);

/// The tables of the converter files, one function each.
std::vector<OpConverter> elementwiseConverters();
std::vector<OpConverter> linearConverters();
std::vector<OpConverter> recurrentConverters();
std::vector<OpConverter> convolutionConverters();
std::vector<OpConverter> shapeConverters();
std::vector<OpConverter> normalizationConverters();
std::vector<OpConverter> indexingConverters();
std::vector<OpConverter> scatterConverters();
std::vector<OpConverter> selectionConverters();
std::vector<OpConverter> resizeConverters();
std::vector<OpConverter> gridSampleConverters();
std::vector<OpConverter> quantizationConverters();
std::vector<OpConverter> controlFlowConverters();
std::vector<OpConverter> signalConverters();
std::vector<OpConverter> lossConverters();
std::vector<OpConverter> detectionConverters();
std::vector<OpConverter> uniqueConverters();
std::vector<OpConverter> sequenceConverters();
std::vector<OpConverter> randomConverters();
std::vector<OpConverter> ngramConverters();

} // namespace aot::onnx_import
