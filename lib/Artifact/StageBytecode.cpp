//===- StageBytecode.cpp - the bytecode form of a stage's output ----------===//
#include "Artifact/StageBytecode.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Bytecode/Encoding.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

namespace aot {

/// The module as the compile compares it: generic form, with locations.
static std::string printForComparison(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, mlir::OpPrintingFlags()
                    .printGenericOpForm()
                    .enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
                    .useLocalScope());
  os.flush();
  return text;
}

/// The first line of `module` that reading `bytes` back changes, or "" when
/// the bytecode reads back to the same module.
static std::string firstChangedLine(mlir::ModuleOp module,
                                    llvm::StringRef bytes) {
  mlir::MLIRContext context(module.getContext()->getDialectRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  // Only whether it reads back the same matters; nothing goes to stderr.
  context.getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::Block block;
  if (mlir::failed(
          mlir::readBytecodeFile(llvm::MemoryBufferRef(bytes, "bytecode"),
                                 &block, mlir::ParserConfig(&context))) ||
      block.empty())
    return "(the bytecode does not read back)";
  std::string before = printForComparison(module.getOperation());
  std::string after = printForComparison(&block.front());
  if (before == after)
    return "";
  llvm::SmallVector<llvm::StringRef> a, b;
  llvm::StringRef(before).split(a, '\n');
  llvm::StringRef(after).split(b, '\n');
  for (size_t i = 0; i < a.size(); ++i)
    if (i >= b.size() || a[i] != b[i])
      return a[i].trim().str();
  return "(the end of the module)";
}

Expected<std::string> moduleBytecode(mlir::ModuleOp module, Stage stage,
                                     const DebugOptions &options) {
  std::string what = "stage '" + std::string(stageName(stage)) + "'";
  std::string flag;
  if (options.bytecodeVersion)
    flag =
        "--bytecode-version=" + std::to_string(*options.bytecodeVersion) + ": ";
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  mlir::BytecodeWriterConfig config;
  if (options.bytecodeVersion)
    config.setDesiredBytecodeVersion(*options.bytecodeVersion);
  if (mlir::failed(mlir::writeBytecodeToFile(module, os, config)))
    return Error::message(flag + "cannot write the output of " + what +
                          " as MLIR bytecode");
  os.flush();
  // Versions before kNativePropertiesEncoding store op properties as
  // attributes, and some do not come back (the LLVM dialect's overflow
  // flags): code compiled from such bytecode would differ from the text's.
  if (options.bytecodeVersion &&
      *options.bytecodeVersion < mlir::bytecode::kVersion) {
    std::string changed = firstChangedLine(module, bytes);
    if (!changed.empty())
      return Error::message(
          flag + "the output of " + what + " does not survive bytecode " +
          "version " + std::to_string(*options.bytecodeVersion) +
          " unchanged (read back, it differs at `" + changed +
          "`); versions before " +
          std::to_string(mlir::bytecode::kNativePropertiesEncoding) +
          " keep op properties as attributes and lose some of them");
  }
  return bytes;
}

} // namespace aot
