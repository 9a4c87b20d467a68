//===- OnnxGraph.h - one ONNX graph as one function -----------------------===//
//
// The importer works in two passes over the nodes, which ONNX keeps in
// topological order. Backwards from the graph's outputs it marks the nodes
// whose results are used, and through them the inputs they read as values:
// an input a converter reads only as a constant (a Reshape's target shape,
// an Unsqueeze's axes) does not make its producer needed when its value is
// known, so the Shape -> Gather -> Concat chains that compute static shapes
// are never emitted. Forwards it converts the needed nodes. Constants
// (initializers and Constant nodes) become ops only where a value of them
// is used.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Frontend/Onnx/OnnxModel.h"
#include "Frontend/Onnx/OnnxNode.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace aot::onnx_import {

/// Constants of at least this many bytes are resource blobs.
inline constexpr std::size_t kBlobBytes = 64;

/// Bytes that a resource blob may keep alive without copying them.
using SharedBytes = std::shared_ptr<const std::string>;

class GraphImporter {
public:
  /// Takes the bytes of `model`'s large initializers (their constants
  /// share them instead of copying them).
  GraphImporter(LoadedModel &model, mlir::ModuleOp module,
                llvm::StringRef fileName, std::string modelDir);

  /// The importer of `graph`, a subgraph of `parent`'s (an If's branch, a
  /// Loop's body): names it does not define are looked up in the graphs
  /// around it.
  GraphImporter(GraphImporter &parent, const onnx::GraphProto &graph);

  /// Builds the function; fails after emitting located errors.
  mlir::LogicalResult run();
  /// Converts this subgraph at the end of `block`, its inputs `args`;
  /// sets `results` to its outputs (of their ONNX types where given). Fails
  /// after emitting located errors.
  mlir::LogicalResult runIn(mlir::Block *block, mlir::ValueRange args,
                            llvm::SmallVectorImpl<mlir::Value> &results);

  // What NodeContext reads.
  mlir::Value valueOf(const std::string &name, mlir::Location loc);
  mlir::RankedTensorType typeOf(const std::string &name, mlir::Location loc);
  const onnx::TensorProto *constantOf(const std::string &name) const;
  /// Whether the value `name` is unsigned (uint8 to uint64: signless
  /// integers of the same width in its MLIR type).
  bool isUnsigned(const std::string &name) const;
  std::optional<std::vector<std::int64_t>>
  shapeDataOf(const std::string &name) const;
  /// A value computed at run time of which some elements are known (the
  /// others kUnknownElement), from the shape arithmetic folding.
  const std::vector<std::int64_t> *
  partialShapeDataOf(const std::string &name) const;
  void define(const std::string &name, mlir::Value value);
  /// A sequence (or an optional: a sequence of 0 or 1) known at import:
  /// its elements' values. Sequences live only inside a graph: what makes
  /// one knows its length, and what reads one reads known positions.
  void defineSequence(const std::string &name,
                      std::vector<mlir::Value> elements);
  /// The elements of sequence `name`, or null where it is not one.
  const std::vector<mlir::Value> *sequenceOf(const std::string &name) const;
  /// The N x H x W x C form of a rank-4 value, where it has one; else null.
  mlir::Value channelsLastOf(const std::string &name) const;
  /// Defines a value by its N x H x W x C form, and its N x C x H x W form
  /// where given (else made when first read).
  void defineChannelsLast(const std::string &name, mlir::Value nhwc,
                          mlir::Value nchw);
  mlir::MLIRContext *context() { return module_.getContext(); }

  /// The bytes of a constant tensor, little-endian and packed, or nullopt
  /// after an error at `loc` (unreadable external data, a size that does
  /// not match the shape).
  std::optional<std::string> tensorBytes(const onnx::TensorProto &t,
                                         mlir::Location loc);
  /// tensorBytes, shared rather than copied where the importer holds them.
  std::optional<SharedBytes> tensorData(const onnx::TensorProto &t,
                                        mlir::Location loc);
  /// An arith.constant of `type` holding `bytes`, at the top of the
  /// function: a resource blob (which shares `bytes`), or a dense attribute
  /// when small or i1.
  mlir::Value constantValue(mlir::RankedTensorType type, SharedBytes bytes,
                            mlir::Location loc);
  mlir::Value constantValue(mlir::RankedTensorType type, std::string bytes,
                            mlir::Location loc);
  /// The MLIR element type of ONNX `dataType`; an error at `loc` naming
  /// `what` (a value's name) and null where it has none.
  mlir::Type elementType(int dataType, mlir::Location loc,
                         llvm::StringRef what = {});

private:
  /// Indexes the graph's value types, initializers, producers and
  /// Constant nodes.
  void index();
  /// Converts the needed nodes in order at the builder's insertion point.
  mlir::LogicalResult convertNodes();
  mlir::Location nodeLocation(const onnx::NodeProto &node, int index);
  mlir::Value materialize(const std::string &name,
                          const onnx::TensorProto &tensor, mlir::Location loc);
  std::set<const onnx::NodeProto *> neededNodes();
  /// Whether `node`, of an anyLayout op, is better converted channels
  /// last: an input comes so, and its other inputs are scalars.
  bool runsChannelsLast(const onnx::NodeProto &node,
                        const OpConverter &converter);
  /// Converts `node`, an op over 1-D images (N x C x W), by `converter`
  /// as the same op over 2-D images of height 1 (N x C x 1 x W): its rank-3
  /// inputs and outputs seen with a unit dim 2, its windows with a unit
  /// first entry (OnnxOneD.cpp).
  mlir::LogicalResult convertAsTwoD(const onnx::NodeProto &node,
                                    const OpConverter &converter,
                                    mlir::Location loc);
  /// The rank of value `name` as shape inference or the graph declares it
  /// (of this graph or one around it), or -1 where it gives none.
  int declaredRank(const std::string &name) const;
  /// A name no value of this graph has, from `base`.
  std::string freshName(const std::string &base) const;
  /// The first unsigned input or output of `node`, or null.
  const std::string *unsignedValueOf(const onnx::NodeProto &node) const;
  mlir::RankedTensorType tensorType(const onnx::TypeProto &type,
                                    llvm::StringRef what, mlir::Location loc);

  const LoadedModel &model_;
  const onnx::GraphProto &graph_;
  /// The importer of the graph around this one; null for the main graph.
  GraphImporter *parent_ = nullptr;
  mlir::ModuleOp module_;
  std::string fileName_;
  std::string modelDir_;
  mlir::OpBuilder builder_;
  std::map<std::string, mlir::Value> values_;
  std::map<std::string, mlir::Value> channelsLast_;
  std::map<std::string, std::vector<mlir::Value>> sequences_;
  std::map<std::string, const onnx::TypeProto *> types_;
  std::map<std::string, const onnx::TensorProto *> constants_;
  /// Constant nodes' value_float(s)/value_int(s), as tensors, and the
  /// constants reshaped by convertAsTwoD.
  std::vector<std::unique_ptr<onnx::TensorProto>> ownedConstants_;
  /// The types of the values convertAsTwoD makes.
  std::vector<std::unique_ptr<onnx::TypeProto>> ownedTypes_;
  std::map<std::string, const onnx::NodeProto *> producers_;
  /// The raw bytes taken from the large initializers, by tensor.
  std::map<const onnx::TensorProto *, SharedBytes> taken_;
  int blobCount_ = 0;
  /// Where the blob count lives: the main graph's, so that every blob of
  /// the module has its own name.
  int *blobCounter_ = &blobCount_;
};

} // namespace aot::onnx_import
