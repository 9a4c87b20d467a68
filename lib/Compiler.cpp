//===- Compiler.cpp - one compile, stage by stage -------------------------===//
//
// The driver every target shares: the front end (parse, verify, input
// contract, signatures), then the MLIR stages of the target's back end with
// its pass lists, then the back end's code generation. Everything
// target-specific comes from the back end (lib/Backend/Backend.h).
//
//===----------------------------------------------------------------------===//
#include "aot/Compiler.h"
#include "aot/CppNames.h"

#include "Artifact/ArtifactBuilder.h"
#include "Artifact/StageBytecode.h"
#include "Backend/Backend.h"
#include "Backend/LinkTable.h"
#include "Debug/DebugSession.h"
#include "Debug/SourceView.h"
#include "Frontend/Frontend.h"
#include "Frontend/Registration.h"
#include "Pipeline/CompileContext.h"
#include "Pipeline/Stages.h"
#include "Support/DiagnosticCapture.h"
#include "Support/ErrorMessage.h"
#include "Transforms/Attributes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

namespace aot {

struct Compiler::Impl {
  /// The input contract's dialects plus one back end's, per Target::Kind.
  std::map<Target::Kind, mlir::DialectRegistry> registries;

  /// A pool of `threads` threads, shared by the compiles that ask for that
  /// many (a pool per compile would start its threads every time).
  llvm::ThreadPoolInterface &pool(unsigned threads) {
    std::lock_guard<std::mutex> lock(poolsMutex);
    std::unique_ptr<llvm::ThreadPoolInterface> &pool = pools[threads];
    if (!pool)
      pool = std::make_unique<llvm::DefaultThreadPool>(
          llvm::hardware_concurrency(threads));
    return *pool;
  }

private:
  std::mutex poolsMutex;
  std::map<unsigned, std::unique_ptr<llvm::ThreadPoolInterface>> pools;
};

namespace {
/// The threads a compile with `pipeline` uses.
unsigned threadsFor(const Pipeline &pipeline) {
  if (pipeline.debug().needsOneThread())
    return 1;
  if (pipeline.threads() != 0)
    return pipeline.threads();
  // The CPUs this process may run on (its affinity mask), not the machine's.
  return std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}
} // namespace

Source Source::file(std::string path) {
  Source s;
  s.name_ = std::move(path);
  s.isFile_ = true;
  return s;
}

SourceFormat Source::format() const {
  if (format_ != SourceFormat::Auto)
    return format_;
  llvm::StringRef ext = llvm::sys::path::extension(name_);
  return ext.equals_insensitive(".onnx") ? SourceFormat::Onnx
                                         : SourceFormat::Mlir;
}

Source Source::memory(std::string contents, std::string name) {
  Source s;
  s.name_ = std::move(name);
  s.contents_ = std::move(contents);
  return s;
}

Compiler::Compiler() : impl_(std::make_unique<Impl>()) {
  for (const Backend *backend : allBackends()) {
    mlir::DialectRegistry &registry = impl_->registries[backend->kind()];
    registerPipelineDialects(registry);
    backend->registerDialects(registry);
    backend->registerPasses();
  }
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

/// The manifest's module name and function list, either stored by an
/// earlier compile that stopped after an MLIR stage (whose module name then
/// stays the module's, whatever the stage's file is called), or read off the
/// function types (module name empty).
mlir::FailureOr<Manifest> signaturesOf(mlir::ModuleOp module) {
  if (auto stored = module->getAttrOfType<mlir::StringAttr>(kManifestAttr)) {
    auto manifest = Manifest::fromJson(stored.getValue().str());
    if (!manifest)
      return module.emitError()
             << "attribute '" << kManifestAttr
             << "' is invalid: " << errorMessage(manifest.error());
    return std::move(*manifest);
  }
  auto functions = extractSignatures(module);
  if (mlir::failed(functions))
    return mlir::failure();
  Manifest m;
  m.functions = std::move(*functions);
  return m;
}

void storeSignatures(mlir::ModuleOp module, const Manifest &manifest) {
  Manifest m;
  m.module = manifest.module;
  m.functions = manifest.functions;
  std::string json = m.toJson(/*pretty=*/false);
  module->setAttr(kManifestAttr,
                  mlir::StringAttr::get(module.getContext(), json));
}
} // namespace

namespace {

/// One compile in flight: its context, diagnostics, debugging session and
/// the artifact it fills, run as named steps.
class CompileJob {
public:
  /// Passes run on `pool`'s threads, or on the calling thread when null.
  CompileJob(const mlir::DialectRegistry &registry, const Source &source,
             const Pipeline &pipeline, const Target &target,
             llvm::ThreadPoolInterface *pool)
      : source_(source), pipeline_(pipeline), target_(target),
        backend_(backendFor(target)),
        context_(registry, mlir::MLIRContext::Threading::DISABLED),
        diagnostics_(configured(context_)), debug_(context_, pipeline.debug()),
        out_(target),
        codegen_(target, pipeline, out_, diagnostics_, &debug_, pool) {
    out_.manifest().module = pipeline.moduleName().empty()
                                 ? moduleName(source.name())
                                 : pipeline.moduleName();
    out_.manifest().target = target.str();
    if (pool)
      context_.setThreadPool(*pool);
  }
  ~CompileJob() {
    // Logs, traces and timings are written when the compile ends, failed or
    // not; a successful compile also reports a failed write (finish()).
    (void)debug_.finish();
  }

  Expected<Artifact> run();

private:
  static mlir::MLIRContext &configured(mlir::MLIRContext &context) {
    // Diagnostics name the op and its location; a dump of the whole op (a
    // function body, say) in every error helps nobody.
    context.printOpOnDiagnostic(false);
    return context;
  }
  bool runs(Stage stage) const { return codegen_.runs(stage); }
  /// The index of the back end's last MLIR stage.
  int lastMlirIndex() const;
  Expected<mlir::OwningOpRef<mlir::ModuleOp>> parseInput();
  Status runFrontEnd(mlir::ModuleOp module);
  Status runMlirStages(mlir::ModuleOp module);
  Status keepMlirStage(Stage stage, mlir::ModuleOp module);
  Status generateFromSource();
  Error withDiagnostics(const Error &error) {
    return codegen_.withDiagnostics(error);
  }

  const Source &source_;
  const Pipeline &pipeline_;
  const Target &target_;
  const Backend &backend_;
  mlir::MLIRContext context_;
  DiagnosticCapture diagnostics_;
  DebugSession debug_;
  ArtifactBuilder out_;
  CompileContext codegen_;
};

int CompileJob::lastMlirIndex() const {
  int last = -1;
  for (const StageInfo &info : backend_.stages())
    if (info.form == StageForm::Mlir)
      last = backend_.indexOf(info.stage);
  return last;
}

Expected<Artifact> CompileJob::run() {
  if (Status s = backend_.checkTarget(target_); !s)
    return s.error();
  // The source is MLIR when the compile starts at an MLIR stage or right
  // after the last one (whose output it then is); past that, the back end
  // reads its own format (LLVM IR on the CPU).
  if (backend_.indexOf(pipeline_.firstStage()) > lastMlirIndex() + 1) {
    if (Status s = generateFromSource(); !s)
      return s.error();
  } else {
    auto module = parseInput();
    if (!module)
      return module.error();
    if (Status s = runFrontEnd(**module); !s)
      return s.error();
    if (Status s = runMlirStages(**module); !s)
      return s.error();
    if (backend_.indexOf(pipeline_.lastStage()) > lastMlirIndex())
      if (Status s = backend_.generate(**module, codegen_); !s)
        return s.error();
  }
  if (Status s = debug_.finish(); !s)
    return s.error();
  return std::move(out_.artifact);
}

Expected<mlir::OwningOpRef<mlir::ModuleOp>> CompileJob::parseInput() {
  std::string ioError;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseModule(source_, context_, ioError);
  if (!ioError.empty())
    return Error::at(source_.name(), 0, 0, ioError);
  if (!module)
    return diagnostics_.takeError("cannot parse '" + source_.name() + "'");
  warnWithoutLocations(*module, pipeline_.debug(), source_.name(),
                       out_.warnings());
  return module;
}

Status CompileJob::runFrontEnd(mlir::ModuleOp module) {
  if (pipeline_.firstStage() == Stage::Input) {
    if (mlir::failed(checkInputContract(module)))
      return diagnostics_.takeError("input contract violated");
    std::span<const LinkSymbol> runtime = backend_.linkTable();
    if (mlir::failed(checkFunctionNames(module, [&](llvm::StringRef name) {
          return findLinkSymbol(runtime, std::string_view(name)) != nullptr;
        })))
      return diagnostics_.takeError("input contract violated");
    if (Status s = keepMlirStage(Stage::Input, module); !s)
      return s;
  }
  auto signatures = signaturesOf(module);
  if (mlir::failed(signatures))
    return diagnostics_.takeError("cannot derive function signatures");
  if (target_.kind == Target::Kind::Cuda)
    for (FunctionSig &f : signatures->functions)
      f.deviceSymbol = f.symbol + "$device";
  Manifest &manifest = out_.manifest();
  if (pipeline_.moduleName().empty() && !signatures->module.empty())
    manifest.module = signatures->module;
  manifest.functions = std::move(signatures->functions);
  if (!manifest.functions.empty())
    storeSignatures(module, manifest);
  return Status::ok();
}

Status CompileJob::runMlirStages(mlir::ModuleOp module) {
  std::span<const StageInfo> stages = backend_.stages();
  for (int i = 1; i <= lastMlirIndex(); ++i) {
    Stage stage = stages[i].stage;
    if (!runs(stage))
      continue;
    // The code's thread count, for the passes that read it
    // (aot-parallelize-loops); not part of any stage's output.
    module->setAttr(
        kThreadsAttr,
        mlir::IntegerAttr::get(mlir::IntegerType::get(module.getContext(), 64),
                               pipeline_.runThreads()));
    Status ran = runStage(module, stage, pipeline_, target_, &debug_);
    module->removeAttr(kThreadsAttr);
    if (!ran)
      return withDiagnostics(ran.error());
    if (Status s = backend_.afterStage(stage, module, codegen_); !s)
      return s;
    if (Status s = keepMlirStage(stage, module); !s)
      return s;
  }
  // Input that is already the last MLIR stage's output gets what that
  // stage's end adds (debug info scopes) here.
  if (backend_.indexOf(pipeline_.firstStage()) == lastMlirIndex() + 1)
    return afterMlirStage(module, stages[lastMlirIndex()].stage,
                          /*lastMlirStage=*/true, pipeline_.debug());
  return Status::ok();
}

/// An MLIR stage's output: the source view that -g and a location snapshot
/// ask for, then the text and the bytecode (in the pinned version).
Status CompileJob::keepMlirStage(Stage stage, mlir::ModuleOp module) {
  const DebugOptions &debug = pipeline_.debug();
  bool last = backend_.indexOf(stage) == lastMlirIndex();
  if (Status s = afterMlirStage(module, stage, last, debug); !s)
    return s;
  if (pipeline_.keepsText(stage))
    out_.snapshot(stage, printModule(module, debug));
  else
    out_.reached(stage);
  if (!pipeline_.keepsBytecode(stage))
    return Status::ok();
  auto bytecode = moduleBytecode(module, stage, debug);
  if (!bytecode) {
    // The writer's own diagnostics, if any, follow as the reasons.
    std::vector<Diagnostic> all = bytecode.error().diagnostics();
    if (diagnostics_.hasErrors()) {
      Error reasons = diagnostics_.takeError("");
      for (const Diagnostic &d : reasons.diagnostics())
        all.push_back(d);
    }
    return Error(std::move(all));
  }
  out_.snapshotBytecode(stage, std::move(*bytecode));
  return Status::ok();
}

Status CompileJob::generateFromSource() {
  std::string ioError;
  auto buffer = openSource(source_, ioError);
  if (!buffer)
    return Error::at(source_.name(), 0, 0, ioError);
  std::string_view text(buffer->getBufferStart(), buffer->getBufferSize());
  return backend_.generateFrom(text, source_.name(), codegen_);
}

} // namespace

Expected<Artifact> Compiler::compile(const Source &source,
                                     const Pipeline &pipeline,
                                     const Target &target) const {
  if (Status s = pipeline.validate(target); !s)
    return s.error();
  unsigned threads = threadsFor(pipeline);
  CompileJob job(impl_->registries.at(target.kind), source, pipeline, target,
                 threads > 1 ? &impl_->pool(threads) : nullptr);
  return job.run();
}

} // namespace aot
