//===- LlvmBackend.cpp - translation, optimisation, emission --------------===//
#include "Backend/Host/LlvmBackend.h"
#include "Backend/Host/LlvmDebugInfo.h"
#include "Support/ErrorMessage.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/AsmParser/LLParser.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstring>

namespace aot {

/// The first op that the LLVM lowering left behind: a non-LLVM user of a
/// leftover conversion cast, or any op outside the dialects the translation
/// takes; null when there is none.
static mlir::Operation *firstUnlowered(mlir::ModuleOp module) {
  auto translated = [](mlir::Operation *op) {
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    return dialect == "llvm" || dialect == "omp" || dialect == "gpu" ||
           llvm::isa<mlir::ModuleOp>(op);
  };
  mlir::Operation *found = nullptr;
  module->walk([&](mlir::Operation *op) {
    if (translated(op))
      return mlir::WalkResult::advance();
    found = op;
    if (llvm::isa<mlir::UnrealizedConversionCastOp>(op))
      for (mlir::Operation *user : op->getUsers())
        if (!translated(user) &&
            !llvm::isa<mlir::UnrealizedConversionCastOp>(user)) {
          found = user;
          break;
        }
    return mlir::WalkResult::interrupt();
  });
  return found;
}

Expected<std::unique_ptr<llvm::Module>>
translateToLlvmIr(mlir::ModuleOp module, llvm::LLVMContext &context,
                  llvm::TargetMachine &tm) {
  // Reported at the op, with its location, rather than as the translator's
  // placeless failure on the conversion casts around it.
  if (mlir::Operation *op = firstUnlowered(module)) {
    op->emitError() << "'" << op->getName()
                    << "' was not lowered to the LLVM dialect: the compiler "
                       "has no lowering for it yet";
    return Error::message("cannot translate to LLVM IR");
  }
  // The compile runs LLVM's verifier itself once the entry points are in,
  // reporting what it finds as an error rather than on stderr.
  std::unique_ptr<llvm::Module> llvmModule = mlir::translateModuleToLLVMIR(
      module, context, "LLVMDialectModule", /*disableVerification=*/true);
  if (!llvmModule)
    return Error::message("translation to LLVM IR failed: is the input of "
                          "stage 'llvm-ir' fully in the LLVM dialect?");
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());
  setDwarfVersion(*llvmModule);
  return llvmModule;
}

Expected<std::unique_ptr<llvm::Module>> parseLlvmIr(const std::string &text,
                                                    const std::string &name,
                                                    llvm::LLVMContext &context,
                                                    llvm::TargetMachine &tm) {
  llvm::SMDiagnostic diag;
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, "<string>"),
                             llvm::SMLoc());
  auto module = std::make_unique<llvm::Module>("<string>", context);
  // The parser's own debug-info upgrade runs LLVM's verifier and ends the
  // process when the module is broken; verify first, then upgrade.
  if (llvm::LLParser(text, sources, diag, module.get(), nullptr, context)
          .Run(/*UpgradeDebugInfo=*/false))
    return Error::at(name, diag.getLineNo(),
                     diag.getColumnNo() < 0 ? 0 : diag.getColumnNo() + 1,
                     diag.getMessage().str());
  if (Status s = verifyLlvmIr(*module, "the LLVM IR"); !s)
    return Error::at(name, 0, 0, s.error().diagnostics().front().message);
  llvm::UpgradeDebugInfo(*module);
  module->setDataLayout(tm.createDataLayout());
  module->setTargetTriple(tm.getTargetTriple());
  return module;
}

/// Adds `void _aot_invoke_NAME(ptr slots)`: slot i points at argument i (for
/// a tensor: at a pointer to its descriptor) and slot nargs+k at storage for
/// result k. It lets the loader call any signature without libffi.
static Status addInvokeWrapper(llvm::Module &module, const FunctionSig &sig) {
  llvm::Function *ciface = module.getFunction(sig.symbol);
  llvm::Function *impl = module.getFunction(sig.name);
  if (!ciface || ciface->isDeclaration())
    return Error::message("function '" + sig.name + "' has no C interface '" +
                          sig.symbol + "' in the LLVM IR");
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::FunctionType *cifaceType = ciface->getFunctionType();
  size_t nargs = sig.args.size(), nresults = sig.results.size();
  bool outPointer = nresults > 0 && cifaceType->getReturnType()->isVoidTy();
  if (cifaceType->getNumParams() != nargs + (outPointer ? 1 : 0))
    return Error::message("the C interface of '" + sig.name +
                          "' does not match its signature");
  if (outPointer && !impl)
    return Error::message("the implementation of '" + sig.name +
                          "' is missing from the LLVM IR");

  auto *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false),
      llvm::GlobalValue::ExternalLinkage, kInvokePrefix + sig.name, module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::Value *slots = wrapper->getArg(0);
  auto slot = [&](size_t i) {
    return b.CreateLoad(ptr, b.CreateConstGEP1_64(ptr, slots, i));
  };

  llvm::SmallVector<llvm::Value *> callArgs;
  llvm::Type *resultType = nullptr;
  llvm::Value *resultStorage = nullptr;
  if (outPointer) {
    resultType = impl->getReturnType();
    resultStorage = b.CreateAlloca(resultType);
    callArgs.push_back(resultStorage);
  }
  for (size_t i = 0; i < nargs; ++i)
    callArgs.push_back(
        b.CreateLoad(cifaceType->getParamType(callArgs.size()), slot(i)));
  llvm::Value *returned = b.CreateCall(ciface, callArgs);

  if (outPointer) {
    llvm::Value *value = b.CreateLoad(resultType, resultStorage);
    if (nresults == 1) {
      b.CreateStore(value, slot(nargs));
    } else {
      for (size_t k = 0; k < nresults; ++k)
        b.CreateStore(b.CreateExtractValue(value, k), slot(nargs + k));
    }
  } else if (nresults == 1) {
    b.CreateStore(returned, slot(nargs));
  }
  b.CreateRetVoid();
  describeWrapper(*wrapper, *ciface);
  return Status::ok();
}

Status finalizeExports(llvm::Module &module,
                       const std::vector<FunctionSig> &functions) {
  for (const FunctionSig &sig : functions)
    if (Status s = addInvokeWrapper(module, sig); !s)
      return s;
  // Only the entry points are exported: implementations and private helpers
  // become internal, so two compiled modules (or a module and libc, for a
  // function named `dup`) never clash or interpose each other's symbols.
  llvm::StringSet<> exported;
  for (const FunctionSig &sig : functions) {
    exported.insert(sig.symbol);
    if (!sig.deviceSymbol.empty())
      exported.insert(sig.deviceSymbol);
    exported.insert(kInvokePrefix + sig.name);
  }
  for (llvm::Function &f : module.functions())
    if (!f.isDeclaration() && !exported.contains(f.getName()))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return Status::ok();
}

void embedManifest(llvm::Module &module, const Manifest &manifest) {
  Manifest m;
  m.module = manifest.module;
  m.target = manifest.target;
  m.functions = manifest.functions;
  m.weights = manifest.weights;
  std::string name = (kManifestSymbolPrefix + m.module).str();
  if (llvm::GlobalVariable *old = module.getGlobalVariable(name)) {
    // Resumed from LLVM IR that has one: the new one replaces it.
    llvm::removeFromUsedLists(module,
                              [&](llvm::Constant *c) { return c == old; });
    old->eraseFromParent();
  }
  llvm::Constant *json = llvm::ConstantDataArray::getString(
      module.getContext(), m.toJson(/*pretty=*/false), /*AddNull=*/true);
  auto *global =
      new llvm::GlobalVariable(module, json->getType(), /*isConstant=*/true,
                               llvm::GlobalValue::ExternalLinkage, json, name);
  global->setSection(kManifestSection);
  // Byte-aligned, so the manifests of linked modules lie back to back.
  global->setAlignment(llvm::Align(1));
  llvm::appendToUsed(module, {global});
}

Expected<Manifest> loadEmbeddedManifest(const llvm::Module &module,
                                        const std::string &sourceName) {
  for (const llvm::GlobalVariable &global : module.globals()) {
    if (global.getSection() != kManifestSection)
      continue;
    auto malformed = [&](const std::string &why) {
      return Error::at(sourceName, 0, 0,
                       "the manifest @" + global.getName().str() + " " + why);
    };
    auto *data =
        global.hasInitializer()
            ? llvm::dyn_cast<llvm::ConstantDataArray>(global.getInitializer())
            : nullptr;
    if (!data || !data->isCString())
      return malformed("must be a NUL-terminated string");
    auto manifest = Manifest::fromJson(data->getAsCString().str());
    if (!manifest)
      return malformed("is invalid: " + errorMessage(manifest.error()));
    return std::move(*manifest);
  }
  return Manifest{};
}

void optimize(llvm::Module &module, llvm::TargetMachine &tm, int optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::ModulePassManager mpm =
      optLevel == 0 ? pb.buildO0DefaultPipeline(levels[0])
                    : pb.buildPerModuleDefaultPipeline(levels[optLevel]);
  mpm.run(module, mam);
}

namespace {
/// Code generation writes into a seekable stream; this one appends to the
/// string the artifact keeps, so the object is never copied whole.
class StringPwriteStream : public llvm::raw_pwrite_stream {
public:
  explicit StringPwriteStream(std::string &out) : out_(out) { SetUnbuffered(); }

private:
  void write_impl(const char *data, size_t size) override {
    out_.append(data, size);
  }
  void pwrite_impl(const char *data, size_t size, uint64_t offset) override {
    std::memcpy(out_.data() + offset, data, size);
  }
  uint64_t current_pos() const override { return out_.size(); }

  std::string &out_;
};
} // namespace

Expected<std::string> emitMachineCode(const llvm::Module &module,
                                      llvm::TargetMachine &tm, bool assembly) {
  // Code generation rewrites the IR it runs on; keep the caller's intact.
  // The clone is emitted by a target machine of its own, made like `tm`:
  // LLVM's ELF lowering keeps the llvm.used globals of each module a machine
  // emits, by address, for as long as the machine lives. The clone's, freed
  // after, would mark whatever global a later module of `tm` has at the
  // same address as used, and give it a section of its own: an object that
  // changed with the heap's layout.
  std::unique_ptr<llvm::TargetMachine> own(tm.getTarget().createTargetMachine(
      tm.getTargetTriple(), tm.getTargetCPU(), tm.getTargetFeatureString(),
      tm.Options, tm.getRelocationModel(), tm.getCodeModel(),
      tm.getOptLevel()));
  if (!own)
    return Error::message("cannot make a target machine for " +
                          tm.getTargetTriple().str());
  return emitMachineCode(llvm::CloneModule(module), *own, assembly);
}

/// Runs code generation of `module` into `os`.
static Status emitTo(llvm::Module &module, llvm::TargetMachine &tm,
                     llvm::raw_pwrite_stream &os, bool assembly) {
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             assembly ? llvm::CodeGenFileType::AssemblyFile
                                      : llvm::CodeGenFileType::ObjectFile))
    return Error::message("target " + tm.getTargetTriple().str() +
                          " cannot emit " +
                          (assembly ? "assembly" : "object code"));
  pm.run(module);
  return Status::ok();
}

Expected<std::string> emitMachineCode(std::unique_ptr<llvm::Module> module,
                                      llvm::TargetMachine &tm, bool assembly) {
  // The object is the module's data and its code: room for both up front
  // saves copying the weights each time the buffer would grow (the code's
  // size is not known before; pages reserved and not written cost no
  // memory).
  uint64_t dataBytes = 0;
  const llvm::DataLayout &layout = module->getDataLayout();
  for (const llvm::GlobalVariable &global : module->globals())
    if (global.hasInitializer())
      dataBytes += layout.getTypeAllocSize(global.getValueType());
  std::string buffer;
  buffer.reserve(dataBytes + dataBytes / 2 + (16u << 20));
  StringPwriteStream os(buffer);
  if (Status s = emitTo(*module, tm, os, assembly); !s)
    return s.error();
  return buffer;
}

Status emitObject(std::unique_ptr<llvm::Module> module, llvm::TargetMachine &tm,
                  llvm::raw_pwrite_stream &os) {
  return emitTo(*module, tm, os, /*assembly=*/false);
}

std::string printLlvmIr(const llvm::Module &module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, nullptr);
  return text;
}

} // namespace aot
