//===- SourceView.h - debug info and location snapshots of MLIR stages ----===//
//
// The MLIR side of `-g` and `--location-snapshot`: what the ops' locations
// become, so that the translation to LLVM IR turns them into DWARF line
// tables a debugger and a profiler can show.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Debug.h"
#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"

#include <string>
#include <vector>

namespace aot {

/// Checks debugInfo, locationSnapshot and bytecodeVersion against the stages
/// a compile from `first` to `last` runs.
Status validateSourceViewOptions(const DebugOptions &options, Stage first,
                                 Stage last, const Target &target);

/// How MLIR stage snapshots are printed: with locations when the compile
/// makes debug info, so that a later compile of the text keeps them.
mlir::OpPrintingFlags stagePrintingFlags(const DebugOptions &options);

/// Runs after an MLIR stage (the parsed input counts as stage `input`): takes
/// the location snapshot when `stage` is the one asked for, and after the
/// last MLIR stage (the LLVM dialect: `llvm` on the CPU) adds the debug-info
/// scopes that -g asks for.
Status afterMlirStage(mlir::ModuleOp module, Stage stage, bool lastMlirStage,
                      const DebugOptions &options);

/// True when some op inside a function has a file location (possibly under
/// a name, a fusion or a call site): what line tables are made of.
bool hasFileLocations(mlir::ModuleOp module);

/// With -g and no location snapshot, a warning about `sourceName` in
/// `warnings` when no op of the module as read has a file location. Checked
/// on the source, not later: lowering gives new ops the file locations of
/// function arguments, which would hide that the ops themselves have none.
void warnWithoutLocations(mlir::ModuleOp module, const DebugOptions &options,
                          const std::string &sourceName,
                          std::vector<Diagnostic> &warnings);

} // namespace aot
