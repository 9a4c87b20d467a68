//===- Compiler.cpp - one compile, stage by stage -------------------------===//
#include "aot/Compiler.h"
#include "aot/CppNames.h"

#include "Artifact/StageBytecode.h"
#include "Artifact/Writers.h"
#include "Backend/LlvmBackend.h"
#include "Backend/LlvmDebugInfo.h"
#include "Debug/DebugSession.h"
#include "Debug/SourceView.h"
#include "Frontend/Frontend.h"
#include "Frontend/Registration.h"
#include "Pipeline/Stages.h"
#include "Support/DiagnosticCapture.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

namespace aot {

/// Builds an Artifact; the only code besides Artifact that may touch its
/// internals.
struct ArtifactBuilder {
  Artifact artifact;
  void snapshot(Stage stage, std::string contents) {
    artifact.stages_[static_cast<int>(stage)] = std::move(contents);
    artifact.last_ = stage;
  }
  void snapshotBytecode(Stage stage, std::string contents) {
    artifact.stageBytecode_[static_cast<int>(stage)] = std::move(contents);
  }
  std::vector<Diagnostic> &warnings() { return artifact.warnings_; }
  Manifest &manifest() { return artifact.manifest_; }
};

struct Compiler::Impl {
  mlir::DialectRegistry registry;
};

Source Source::file(std::string path) {
  Source s;
  s.name_ = std::move(path);
  s.isFile_ = true;
  return s;
}

Source Source::memory(std::string contents, std::string name) {
  Source s;
  s.name_ = std::move(name);
  s.contents_ = std::move(contents);
  return s;
}

Compiler::Compiler() : impl_(std::make_unique<Impl>()) {
  registerPipelineDialects(impl_->registry);
  registerPipelinePasses();
}

Compiler::~Compiler() = default;

std::string Compiler::version() {
  return "mlir-aot 0.1.0 (MLIR/LLVM 22, ABI v" +
         std::to_string(AOT_ABI_VERSION) + ")";
}

namespace {
/// The attribute that carries the manifest's functions through the MLIR
/// stages, so a compile resumed with --compile-from still knows the
/// tensor-level signatures after bufferization and LLVM lowering erased them.
constexpr llvm::StringLiteral kManifestAttr = "aot.manifest";

std::string printModule(mlir::ModuleOp module, const DebugOptions &debug) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, stagePrintingFlags(debug));
  return text;
}

/// A C identifier from the source file's stem ("models/mlp-2.mlir" -> mlp_2).
std::string moduleName(const std::string &sourceName) {
  std::string stem = llvm::sys::path::stem(sourceName).str();
  if (stem.empty() || std::isdigit(static_cast<unsigned char>(stem[0])))
    stem = "m_" + stem;
  return cppIdentifier(stem);
}

/// The manifest's function list, either stored by an earlier compile that
/// stopped after an MLIR stage, or read off the function types.
mlir::FailureOr<std::vector<FunctionSig>> signaturesOf(mlir::ModuleOp module) {
  if (auto stored = module->getAttrOfType<mlir::StringAttr>(kManifestAttr)) {
    auto manifest = Manifest::fromJson(stored.getValue().str());
    if (!manifest)
      return module.emitError() << "attribute '" << kManifestAttr
                                << "' is invalid: " << manifest.error().str();
    return manifest->functions;
  }
  return extractSignatures(module);
}

void storeSignatures(mlir::ModuleOp module,
                     const std::vector<FunctionSig> &functions) {
  Manifest m;
  m.functions = functions;
  std::string json = m.toJson(/*pretty=*/false);
  module->setAttr(kManifestAttr,
                  mlir::StringAttr::get(module.getContext(), json));
}
} // namespace

Expected<Artifact> Compiler::compile(const Source &source,
                                     const Pipeline &pipeline,
                                     const Target &target) const {
  if (Status s = pipeline.validate(); !s)
    return s.error();
  const Stage first = pipeline.firstStage(), last = pipeline.lastStage();
  auto runs = [&](Stage s) { return first <= s && s <= last; };

  mlir::MLIRContext context(impl_->registry,
                            mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics name the op and its location; a dump of the whole op (a
  // function body, say) in every error helps nobody.
  context.printOpOnDiagnostic(false);
  DiagnosticCapture diagnostics(context);
  // Logs, traces and timings are written when the compile ends, failed or
  // not (the guard); a successful compile also reports a failed write.
  DebugSession debug(context, pipeline.debug());
  struct FinishOnExit {
    DebugSession &debug;
    ~FinishOnExit() { (void)debug.finish(); }
  } finishOnExit{debug};
  ArtifactBuilder out;
  Manifest &manifest = out.manifest();
  manifest.module = moduleName(source.name());
  manifest.target = target.str();

  auto tm = createTargetMachine(target, pipeline.optLevel());
  if (!tm)
    return tm.error();

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;

  const DebugOptions &debugOptions = pipeline.debug();
  // An MLIR stage's output: the source view that -g and a location snapshot
  // ask for, then the text and the bytecode (in the pinned version).
  auto keepStage = [&](Stage stage, mlir::ModuleOp module) -> Status {
    if (Status s = afterMlirStage(module, stage, debugOptions); !s)
      return s;
    out.snapshot(stage, printModule(module, debugOptions));
    auto bytecode = moduleBytecode(module, stage, debugOptions);
    if (!bytecode) {
      // The writer's own diagnostics, if any, follow as the reasons.
      std::vector<Diagnostic> all = bytecode.error().diagnostics();
      if (diagnostics.hasErrors())
        for (const Diagnostic &d : diagnostics.takeError("").diagnostics())
          all.push_back(d);
      return Error(std::move(all));
    }
    out.snapshotBytecode(stage, std::move(*bytecode));
    return Status::ok();
  };

  if (first <= Stage::LlvmIr) {
    // The source is MLIR: the input itself or the output of an MLIR stage.
    std::string ioError;
    mlir::OwningOpRef<mlir::ModuleOp> module =
        parseModule(source, context, ioError);
    if (!ioError.empty())
      return Error::at(source.name(), 0, 0, ioError);
    if (!module)
      return diagnostics.takeError("cannot parse '" + source.name() + "'");
    warnWithoutLocations(*module, debugOptions, source.name(), out.warnings());

    if (first == Stage::Input) {
      if (mlir::failed(checkInputContract(*module)))
        return diagnostics.takeError("input contract violated");
      if (Status s = keepStage(Stage::Input, *module); !s)
        return s.error();
    }
    auto signatures = signaturesOf(*module);
    if (mlir::failed(signatures))
      return diagnostics.takeError("cannot derive function signatures");
    manifest.functions = *signatures;
    if (!manifest.functions.empty())
      storeSignatures(*module, manifest.functions);

    for (Stage stage :
         {Stage::Linalg, Stage::Tiled, Stage::Bufferized, Stage::Llvm}) {
      if (!runs(stage))
        continue;
      if (Status s = runStage(*module, stage, pipeline, &debug); !s) {
        if (diagnostics.hasErrors())
          return diagnostics.takeError(s.error().str());
        return s.error();
      }
      if (Status s = keepStage(stage, *module); !s)
        return s.error();
    }
    if (last <= Stage::Llvm) {
      if (Status s = debug.finish(); !s)
        return s.error();
      return std::move(out.artifact);
    }

    // Input that is already the llvm stage's output gets its debug info
    // scopes here.
    if (first == Stage::LlvmIr)
      if (Status s = afterMlirStage(*module, Stage::Llvm, debugOptions); !s)
        return s.error();
    auto translated = translateToLlvmIr(*module, llvmContext, **tm);
    if (!translated)
      return diagnostics.hasErrors()
                 ? diagnostics.takeError(translated.error().str())
                 : translated.error();
    llvmModule = std::move(*translated);
    if (Status s = finalizeExports(*llvmModule, manifest.functions); !s)
      return s.error();
    storeSignatureMetadata(*llvmModule, manifest.functions);
    if (Status s = verifyLlvmIr(
            *llvmModule, "internal error: the LLVM IR of stage 'llvm-ir'");
        !s)
      return s.error();
    out.snapshot(Stage::LlvmIr, printLlvmIr(*llvmModule));
  } else {
    // Past the MLIR stages the source is LLVM IR text.
    std::string ioError;
    auto buffer = openSource(source, ioError);
    if (!buffer)
      return Error::at(source.name(), 0, 0, ioError);
    auto parsed = parseLlvmIr(buffer->getBuffer().str(), source.name(),
                              llvmContext, **tm);
    if (!parsed)
      return parsed.error();
    llvmModule = std::move(*parsed);
    auto stored = loadSignatureMetadata(*llvmModule, source.name());
    if (!stored)
      return stored.error();
    manifest.functions = std::move(*stored);
  }

  if (runs(Stage::LlvmIrOpt)) {
    optimize(*llvmModule, **tm, pipeline.optLevel());
    if (Status s = verifyLlvmIr(
            *llvmModule, "internal error: the LLVM IR after the -O pipeline");
        !s)
      return s.error();
    out.snapshot(Stage::LlvmIrOpt, printLlvmIr(*llvmModule));
  }
  if (runs(Stage::Asm)) {
    auto assembly = emitMachineCode(*llvmModule, **tm, /*assembly=*/true);
    if (!assembly)
      return assembly.error();
    out.snapshot(Stage::Asm, std::move(*assembly));
  }
  if (runs(Stage::Object)) {
    auto object = emitMachineCode(*llvmModule, **tm, /*assembly=*/false);
    if (!object)
      return object.error();
    manifest.link = linkRequirements(*object);
    out.snapshot(Stage::Object, std::move(*object));
  }
  if (Status s = debug.finish(); !s)
    return s.error();
  return std::move(out.artifact);
}

} // namespace aot
