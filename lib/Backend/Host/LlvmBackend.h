//===- LlvmBackend.h - from the LLVM dialect to object code ---------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Manifest.h"
#include "aot/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace aot {

/// The prefix of the type-erased entry points the loader calls:
/// `_aot_invoke_NAME(void **slots)`, one slot per argument then per result.
inline constexpr const char *kInvokePrefix = "_aot_invoke_";

/// Registers every LLVM target once per process.
void initializeTargets();

/// A target machine for `target`, emitting position-independent code so the
/// same object serves static, shared and in-process linking.
Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const Target &target, int optLevel);

/// Translates an LLVM-dialect module to LLVM IR for `tm`.
Expected<std::unique_ptr<llvm::Module>>
translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &context,
                  llvm::TargetMachine &tm);

/// Parses LLVM IR text (a `--compile-from` input past the MLIR stages).
Expected<std::unique_ptr<llvm::Module>> parseLlvmIr(const std::string &text,
                                                    const std::string &name,
                                                    llvm::LLVMContext &context,
                                                    llvm::TargetMachine &tm);

/// Adds the `_aot_invoke_NAME` entry point of every function in
/// `functions` and gives every other defined function internal linkage.
Status finalizeExports(llvm::Module &module,
                       const std::vector<FunctionSig> &functions);

/// The section that holds embedded manifests: one NUL-terminated JSON line
/// per module, so a link of several modules keeps each one's.
inline constexpr llvm::StringLiteral kManifestSection = "aot_manifest";
/// The prefix of the embedded manifest's symbol, `aot_manifest_MODULE`.
inline constexpr llvm::StringLiteral kManifestSymbolPrefix = "aot_manifest_";

/// Embeds the manifest's module, target, functions and external weights in
/// the code: the exported constant `aot_manifest_MODULE` in section
/// kManifestSection, so that every .o, .a and .so describes itself and a
/// compile resumed from this LLVM IR (--compile-from=llvm-ir-opt and later)
/// still writes the header and the manifest. Its `link` is empty: what the
/// object needs is known once it is made, and readers derive it from the
/// object (embeddedManifests).
void embedManifest(llvm::Module &module, const Manifest &manifest);
/// The manifest embedManifest stored; empty when the module has none (LLVM
/// IR from elsewhere). An error names `sourceName` when it is malformed.
Expected<Manifest> loadEmbeddedManifest(const llvm::Module &module,
                                        const std::string &sourceName);

/// Runs the LLVM -O pipeline for `optLevel` (0..3).
void optimize(llvm::Module &module, llvm::TargetMachine &tm, int optLevel);

/// Target assembly or object code for `module` (which is left unchanged).
Expected<std::string> emitMachineCode(const llvm::Module &module,
                                      llvm::TargetMachine &tm, bool assembly);
/// The same for a module that code generation may change as it goes.
Expected<std::string> emitMachineCode(std::unique_ptr<llvm::Module> module,
                                      llvm::TargetMachine &tm, bool assembly);
/// Object code for `module`, which code generation may change, written to
/// `os` as it is made.
Status emitObject(std::unique_ptr<llvm::Module> module, llvm::TargetMachine &tm,
                  llvm::raw_pwrite_stream &os);

/// LLVM IR as text.
std::string printLlvmIr(const llvm::Module &module);

} // namespace aot
