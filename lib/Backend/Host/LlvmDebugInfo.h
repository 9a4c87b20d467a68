//===- LlvmDebugInfo.h - keeping LLVM IR's debug info whole ---------------===//
//
// What the LLVM side of `-g` adds to MLIR's translation: the DWARF version,
// debug info for the entry points added after translation, and verification,
// so that debug info never makes the back end reject or drop the module.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <string>

namespace aot {

/// Sets the "Dwarf Version" module flag of a module with debug info; MLIR's
/// translation sets only "Debug Info Version", leaving the version of the
/// object's DWARF to the target's default.
void setDwarfVersion(llvm::Module &module);

/// Describes an entry point added after translation (`wrapper`, which calls
/// `callee`): an artificial DISubprogram at `callee`'s line and that line on
/// each of its instructions. Without them, inlining `callee` into `wrapper`
/// would leave instructions whose scope belongs to another function. Does
/// nothing when `callee` has no debug info.
void describeWrapper(llvm::Function &wrapper, const llvm::Function &callee);

/// LLVM's verifier, debug info included: an error "`what` fails LLVM's
/// verifier: why", rather than the back end or the parser's debug-info
/// upgrade stopping the process on a broken module later.
Status verifyLlvmIr(const llvm::Module &module, const std::string &what);

} // namespace aot
