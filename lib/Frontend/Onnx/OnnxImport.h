//===- OnnxImport.h - an ONNX model as a module of the input contract -----===//
#pragma once

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/MemoryBuffer.h"

#include <string>

namespace aot {

/// Whether this build reads ONNX (it was built with libonnx).
bool onnxSupported();

/// Imports the ONNX model in `buffer` (named `fileName` in locations) as a
/// module with one public function, named after the graph, taking the
/// graph's inputs and returning its outputs: linalg, tensor, arith and
/// math on ranked tensors, each op located at the node it comes from
/// (`loc("name (OpType, node N)"("model.onnx":N+1:1))`), initializers as
/// dense_resource blobs. On failure returns null: problems with the file as
/// a whole in `ioError`, problems of one node as diagnostics located there.
mlir::OwningOpRef<mlir::ModuleOp> importOnnx(const llvm::MemoryBuffer &buffer,
                                             llvm::StringRef fileName,
                                             mlir::MLIRContext &context,
                                             std::string &ioError);

} // namespace aot
