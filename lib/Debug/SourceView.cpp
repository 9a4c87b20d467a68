//===- SourceView.cpp - debug info and location snapshots of MLIR stages --===//
#include "Debug/SourceView.h"

#include "Artifact/Writers.h"
#include "Backend/Backend.h"

#include "mlir/Bytecode/Encoding.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/IR/Location.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/LocationSnapshot.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace aot {

Status validateSourceViewOptions(const DebugOptions &options, Stage first,
                                 Stage last, const Target &target) {
  if (options.bytecodeVersion) {
    int version = *options.bytecodeVersion;
    if (version < mlir::bytecode::kMinSupportedVersion ||
        version > mlir::bytecode::kVersion)
      return Error::message(
          "--bytecode-version=" + std::to_string(version) +
          ": MLIR 22 writes bytecode versions " +
          std::to_string(mlir::bytecode::kMinSupportedVersion) + " to " +
          std::to_string(mlir::bytecode::kVersion));
  }
  if (options.locationSnapshot) {
    Stage stage = *options.locationSnapshot;
    std::string flag = "--location-snapshot=" + std::string(stageName(stage));
    const Backend &backend = backendFor(target);
    if (!backend.isMlirStage(stage)) {
      std::string mlirStages;
      for (const StageInfo &info : backend.stages())
        if (info.form == StageForm::Mlir)
          mlirStages +=
              (mlirStages.empty() ? "" : ", ") + std::string(info.stage.name());
      return Error::message(flag + ": only the output of an MLIR stage (" +
                            mlirStages +
                            ") can be the source of the locations");
    }
    int index = backend.indexOf(stage);
    if (index < backend.indexOf(first) || index > backend.indexOf(last))
      return Error::message(flag + ": stage '" + std::string(stageName(stage)) +
                            "' does not run in this compile, which runs '" +
                            std::string(stageName(first)) + "' to '" +
                            std::string(stageName(last)) + "'");
    if (options.locationSnapshotTo.empty())
      return Error::message(flag + ": no file to write the snapshot to "
                                   "(DebugOptions::locationSnapshotTo)");
  }
  return Status::ok();
}

mlir::OpPrintingFlags stagePrintingFlags(const DebugOptions &options) {
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(options.debugInfo != DebugInfo::None,
                        /*prettyForm=*/false);
  return flags;
}

static bool containsFileLocation(mlir::Location loc) {
  bool found = false;
  loc->walk([&](mlir::Location inner) {
    if (llvm::isa<mlir::FileLineColLoc>(inner)) {
      found = true;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

bool hasFileLocations(mlir::ModuleOp module) {
  mlir::Operation *top = module.getOperation();
  // Functions and globals themselves make no line table rows: only the ops
  // in their bodies do.
  return module
      ->walk([&](mlir::Operation *op) {
        if (op == top || op->getParentOp() == top ||
            !containsFileLocation(op->getLoc()))
          return mlir::WalkResult::advance();
        return mlir::WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// Rewrites every op's location to its line in the module's printout and
/// writes that printout to `path`.
static Status snapshotLocations(mlir::ModuleOp module,
                                const std::string &path) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Each op's old location stays on its line (`loc("conv1")`), so the source
  // view still shows the names an importer gave the ops.
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false).useLocalScope();
  mlir::generateLocationsFromIR(os, path, module.getOperation(), flags);
  os.flush();
  return writeFile(path, text);
}

/// LLVM's verifier rejects a call without a location to a function with
/// debug info, inside a function with debug info; calls whose location has
/// no file (names only) get their function's line, keeping the name.
static void locateCalls(mlir::ModuleOp module) {
  mlir::MLIRContext *context = module.getContext();
  module.walk([&](mlir::LLVM::LLVMFuncOp func) {
    auto scope = func.getLoc()
                     ->findInstanceOf<
                         mlir::FusedLocWith<mlir::LLVM::DISubprogramAttr>>();
    if (!scope || !scope.getMetadata().getFile())
      return;
    mlir::LLVM::DISubprogramAttr subprogram = scope.getMetadata();
    mlir::LLVM::DIFileAttr file = subprogram.getFile();
    llvm::SmallString<256> path(file.getDirectory().getValue());
    llvm::sys::path::append(path, file.getName().getValue());
    mlir::Location line = mlir::FileLineColLoc::get(
        context, path.str(), subprogram.getLine(), /*column=*/0);
    func.walk([&](mlir::Operation *op) {
      if (!llvm::isa<mlir::LLVM::CallOp, mlir::LLVM::InvokeOp>(op) ||
          containsFileLocation(op->getLoc()))
        return;
      if (auto name = llvm::dyn_cast<mlir::NameLoc>(op->getLoc()))
        op->setLoc(mlir::NameLoc::get(name.getName(), line));
      else
        op->setLoc(line);
    });
  });
}

/// Gives every llvm.func a DISubprogram in one DICompileUnit, which is what
/// makes the translation turn op locations into line info.
static Status addDebugInfoScopes(mlir::ModuleOp module, DebugInfo kind) {
  mlir::PassManager pm(module.getContext());
  mlir::LLVM::DIScopeForLLVMFuncOpPassOptions options;
  options.emissionKind = kind == DebugInfo::Full
                             ? mlir::LLVM::DIEmissionKind::Full
                             : mlir::LLVM::DIEmissionKind::LineTablesOnly;
  pm.addPass(mlir::LLVM::createDIScopeForLLVMFuncOpPass(options));
  if (mlir::failed(pm.run(module)))
    return Error::message("cannot add debug info scopes to the LLVM dialect");
  locateCalls(module);
  return Status::ok();
}

Status afterMlirStage(mlir::ModuleOp module, Stage stage, bool lastMlirStage,
                      const DebugOptions &options) {
  if (options.locationSnapshot == stage)
    if (Status s = snapshotLocations(module, options.locationSnapshotTo); !s)
      return s;
  if (!lastMlirStage || options.debugInfo == DebugInfo::None)
    return Status::ok();
  return addDebugInfoScopes(module, options.debugInfo);
}

void warnWithoutLocations(mlir::ModuleOp module, const DebugOptions &options,
                          const std::string &sourceName,
                          std::vector<Diagnostic> &warnings) {
  if (options.debugInfo == DebugInfo::None || options.locationSnapshot ||
      hasFileLocations(module))
    return;
  Diagnostic warning;
  warning.severity = Severity::Warning;
  warning.file = sourceName;
  warning.message =
      "debug info without line tables: no op has a file location (only "
      "names or unknown locations, as importers write them); "
      "--location-snapshot=STAGE gives the ops lines in that stage's output";
  warnings.push_back(std::move(warning));
}

} // namespace aot
