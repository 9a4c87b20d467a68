//===- StageBytecode.h - the bytecode form of a stage's output ------------===//
#pragma once

#include "aot/Debug.h"
#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace aot {

/// The output of `stage` as MLIR bytecode, in the pinned version if one is
/// set. An older version than the newest must read back to the same module;
/// the error says where it does not, or that the writer failed.
Expected<std::string> moduleBytecode(mlir::ModuleOp module, Stage stage,
                                     const DebugOptions &options);

} // namespace aot
