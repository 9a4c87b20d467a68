//===- HostPath.h - from the LLVM dialect to host object code -------------===//
//
// Host code generation, which the CPU back end runs whole and a device back
// end runs on its host code: translate the LLVM dialect (exports,
// signatures), then the -O pipeline, assembly and object code. Between the
// two steps a device back end adds what its host code needs (its kernels,
// embedded as globals).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Backend/Backend.h"
#include "Backend/Host/EmbeddedWeights.h"
#include "Backend/Host/Partitions.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace aot {

/// The dialects and LLVM IR translations host code needs (the LLVM dialect,
/// OpenMP, the conversion interfaces its lowering uses).
void registerHostDialects(mlir::DialectRegistry &registry);

class HostPath {
public:
  /// A host path for `hostTarget` (a CPU target) at the pipeline's -O level.
  static Expected<HostPath> create(const Target &hostTarget, int optLevel);

  /// Stage llvm-ir: translates `module` (the LLVM dialect), adds the entry
  /// points of the manifest's functions and records their signatures in the
  /// IR. Keeps the stage's text when it runs.
  Expected<std::unique_ptr<llvm::Module>> translate(mlir::ModuleOp module,
                                                    CodegenContext &ctx);
  /// Reads LLVM IR text (a compile resumed past the MLIR stages) and the
  /// signatures recorded in it.
  Expected<std::unique_ptr<llvm::Module>>
  parse(std::string_view text, const std::string &name, CodegenContext &ctx);
  /// Stages llvm-ir-opt, asm and object, those in the context's range; the
  /// object's link requirements are looked up in `linkTable`.
  Status finish(llvm::Module &module, CodegenContext &ctx,
                std::span<const LinkSymbol> linkTable);

  /// The whole path for `module` (the LLVM dialect) on `hostTarget`:
  /// translate(), then finish().
  static Status compile(mlir::ModuleOp module, const Target &hostTarget,
                        CodegenContext &ctx,
                        std::span<const LinkSymbol> linkTable);

  llvm::LLVMContext &context() { return *context_; }
  llvm::TargetMachine &targetMachine() { return *tm_; }

private:
  HostPath() = default;
  /// Stage object when the pipeline names an object file: the object goes
  /// to that file as it is made.
  Status writeObjectFile(llvm::Module &module, const PartitionWork &work,
                         CodegenContext &ctx,
                         std::span<const LinkSymbol> linkTable);
  /// LLVM IR text, the weights shown with their bytes.
  std::string printWithWeights(llvm::Module &module) const;
  std::unique_ptr<llvm::LLVMContext> context_;
  std::unique_ptr<llvm::TargetMachine> tm_;
  int optLevel_ = 2;
  /// The CPU target the host code is for (a device back end's compile
  /// target is the device).
  Target target_;
  /// Large constants, declarations of the LLVM module until its object.
  EmbeddedWeights weights_;
};

} // namespace aot
