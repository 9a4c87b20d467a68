//===- ExternalWeights.h - constants moved into a safetensors file --------===//
//
// With Pipeline::externalWeights, the large constants of the LLVM-dialect
// module leave it on the way to LLVM IR: their bytes go into a safetensors
// file, written straight from the parsed attributes, and the code reads
// each one through a slot that the runtime's loader fills when it maps the
// file (aot/abi/Weights.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"

namespace aot {

/// Writes the constant globals of at least `minBytes` into `file` and
/// makes the code read them through slots; returns what the manifest says
/// of them (empty when no constant qualifies: no file is written then).
Expected<ExternalWeights> externalizeWeights(mlir::ModuleOp module,
                                             const std::string &file,
                                             std::uint64_t minBytes,
                                             const std::string &moduleName);

/// In the translated LLVM IR of a module that externalizeWeights changed:
/// defines the weights table and the exported load function, and makes
/// every exported function load the weights before it runs.
Status addWeightsLoader(llvm::Module &module, const Manifest &manifest);

} // namespace aot
