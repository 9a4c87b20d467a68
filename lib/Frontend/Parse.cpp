//===- Parse.cpp - reading text or bytecode modules -----------------------===//
#include "Frontend/BytecodeGuard.h"
#include "Frontend/Frontend.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>

namespace aot {

namespace {
std::unique_ptr<llvm::MemoryBuffer>
alignedCopy(llvm::StringRef bytes, llvm::StringRef name, std::string &ioError) {
  auto buffer = llvm::WritableMemoryBuffer::getNewUninitMemBuffer(
      bytes.size(), name, kBytecodeBufferAlignment);
  if (!buffer) {
    ioError = "out of memory for a copy of the source";
    return nullptr;
  }
  std::copy(bytes.begin(), bytes.end(), buffer->getBufferStart());
  return buffer;
}
} // namespace

std::unique_ptr<llvm::MemoryBuffer> openSource(const Source &source,
                                               std::string &ioError) {
  // Aligned for bytecode, whose reader refuses a buffer less aligned than its
  // resources ask (MemoryBuffer's own copies are aligned to 16 bytes, and
  // standard input is read without regard to the alignment asked).
  if (!source.isFile())
    return alignedCopy(source.contents(), source.name(), ioError);
  auto buffer =
      mlir::openInputFile(source.name(), kBytecodeBufferAlignment, &ioError);
  if (!buffer ||
      llvm::isAddrAligned(kBytecodeBufferAlignment, buffer->getBufferStart()))
    return buffer;
  return alignedCopy(buffer->getBuffer(), buffer->getBufferIdentifier(),
                     ioError);
}

namespace {
/// Parses and verifies text or bytecode (told apart by content).
mlir::OwningOpRef<mlir::ModuleOp>
parseAndVerify(std::unique_ptr<llvm::MemoryBuffer> buffer,
               mlir::MLIRContext &context) {
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
} // namespace

mlir::OwningOpRef<mlir::ModuleOp> parseModule(const Source &source,
                                              mlir::MLIRContext &context,
                                              std::string &ioError) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = openSource(source, ioError);
  if (!buffer)
    return nullptr;
  // MLIR 22's bytecode reader can crash or hang on corrupt input; text input
  // has no such history and is parsed directly.
  if (mlir::isBytecode(buffer->getMemBufferRef()))
    return parseUntrustedBytecode(*buffer, context, parseAndVerify, ioError);
  return parseAndVerify(std::move(buffer), context);
}

} // namespace aot
