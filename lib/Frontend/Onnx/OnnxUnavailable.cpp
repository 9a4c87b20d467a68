//===- OnnxUnavailable.cpp - ONNX in a build without libonnx --------------===//
#include "Frontend/Onnx/OnnxImport.h"

namespace aot {

bool onnxSupported() { return false; }

mlir::OwningOpRef<mlir::ModuleOp> importOnnx(const llvm::MemoryBuffer &,
                                             llvm::StringRef,
                                             mlir::MLIRContext &,
                                             std::string &ioError) {
  ioError = "this mlir-aot was built without ONNX support (Debian: install "
            "libonnx-dev and libprotobuf-dev, then rebuild)";
  return nullptr;
}

} // namespace aot
