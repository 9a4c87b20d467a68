//===- OnnxImport.cpp - an ONNX model as a module of the input contract ---===//
#include "Frontend/Onnx/OnnxImport.h"
#include "Frontend/Onnx/OnnxGraph.h"
#include "Frontend/Onnx/OnnxModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <string_view>

namespace aot {

bool onnxSupported() { return true; }

mlir::OwningOpRef<mlir::ModuleOp> importOnnx(const llvm::MemoryBuffer &buffer,
                                             llvm::StringRef fileName,
                                             mlir::MLIRContext &context,
                                             std::string &ioError) {
  // External data files are named relative to the model's directory.
  llvm::SmallString<256> path(fileName);
  llvm::sys::path::remove_filename(path);
  std::string dir = path.empty() ? "." : std::string(path);
  llvm::StringRef bytes = buffer.getBuffer();
  std::optional<onnx_import::LoadedModel> model = onnx_import::parseModel(
      std::string_view(bytes.data(), bytes.size()),
      buffer.getBufferKind() == llvm::MemoryBuffer::MemoryBuffer_MMap, ioError);
  if (!model || !onnx_import::prepareModel(*model, dir, ioError))
    return nullptr;
  context.loadDialect<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                      mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                      mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(
      mlir::FileLineColLoc::get(&context, fileName, 0, 0));
  onnx_import::GraphImporter graph(*model, *module, fileName, dir);
  if (mlir::failed(graph.run()) || mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

} // namespace aot
