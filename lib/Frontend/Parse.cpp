//===- Parse.cpp - reading text or bytecode modules -----------------------===//
#include "Frontend/Frontend.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace aot {

std::unique_ptr<llvm::MemoryBuffer> openSource(const Source &source,
                                               std::string &ioError) {
  if (source.isFile())
    return mlir::openInputFile(source.name(), &ioError);
  return llvm::MemoryBuffer::getMemBufferCopy(source.contents(),
                                              source.name());
}

mlir::OwningOpRef<mlir::ModuleOp> parseModule(const Source &source,
                                              mlir::MLIRContext &context,
                                              std::string &ioError) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = openSource(source, ioError);
  if (!buffer)
    return nullptr;
  // Shared so that bytecode resources referring into the buffer stay valid.
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  // Verification happens below, after parsing, so that a verifier failure
  // and a parse failure read the same way to the caller.
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module || mlir::failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

} // namespace aot
