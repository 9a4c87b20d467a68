//===- HostPath.cpp - from the LLVM dialect to host object code -----------===//
#include "Backend/Host/HostPath.h"

#include "Backend/Host/ExternalWeights.h"
#include "Backend/Host/LlvmBackend.h"
#include "Backend/Host/LlvmDebugInfo.h"
#include "Backend/Host/Partitions.h"
#include "Backend/LinkTable.h"
#include "Support/FileWriter.h"

#include "llvm/Support/MemoryBuffer.h"

namespace aot {

Expected<HostPath> HostPath::create(const Target &hostTarget, int optLevel) {
  auto tm = createTargetMachine(hostTarget, optLevel);
  if (!tm)
    return tm.error();
  HostPath path;
  path.context_ = std::make_unique<llvm::LLVMContext>();
  path.tm_ = std::move(*tm);
  path.optLevel_ = optLevel;
  path.target_ = hostTarget;
  return path;
}

Status HostPath::compile(mlir::ModuleOp module, const Target &hostTarget,
                         CodegenContext &ctx,
                         std::span<const LinkSymbol> linkTable) {
  auto host = create(hostTarget, ctx.pipeline().optLevel());
  if (!host)
    return host.error();
  auto llvmModule = host->translate(module, ctx);
  if (!llvmModule)
    return llvmModule.error();
  return host->finish(**llvmModule, ctx, linkTable);
}

std::string HostPath::printWithWeights(llvm::Module &module) const {
  std::string text;
  weights_.withDefinitions(module, [&] { text = printLlvmIr(module); });
  return text;
}

Expected<std::unique_ptr<llvm::Module>>
HostPath::translate(mlir::ModuleOp module, CodegenContext &ctx) {
  ctx.begin(Stage::LlvmIr);
  if (const std::string &file = ctx.pipeline().externalWeightsFile();
      !file.empty()) {
    auto weights = externalizeWeights(module, file,
                                      ctx.pipeline().externalWeightsMinBytes(),
                                      ctx.manifest().module);
    if (!weights)
      return weights.error();
    ctx.manifest().weights = std::move(*weights);
  }
  weights_.takeFrom(module);
  auto translated = translateToLlvmIr(module, *context_, *tm_);
  if (!translated)
    return ctx.withDiagnostics(translated.error());
  std::unique_ptr<llvm::Module> llvmModule = std::move(*translated);
  weights_.takeFrom(*llvmModule);
  const std::vector<FunctionSig> &functions = ctx.manifest().functions;
  if (Status s = finalizeExports(*llvmModule, functions); !s)
    return s.error();
  if (Status s = addWeightsLoader(*llvmModule, ctx.manifest()); !s)
    return s.error();
  embedManifest(*llvmModule, ctx.manifest());
  if (Status s = verifyLlvmIr(*llvmModule,
                              "internal error: the LLVM IR of stage 'llvm-ir'");
      !s)
    return s.error();
  if (ctx.wants(Stage::LlvmIr))
    ctx.keep(Stage::LlvmIr, printWithWeights(*llvmModule));
  else
    ctx.reached(Stage::LlvmIr);
  return llvmModule;
}

Expected<std::unique_ptr<llvm::Module>> HostPath::parse(std::string_view text,
                                                        const std::string &name,
                                                        CodegenContext &ctx) {
  auto parsed = parseLlvmIr(std::string(text), name, *context_, *tm_);
  if (!parsed)
    return parsed.error();
  auto stored = loadEmbeddedManifest(**parsed, name);
  if (!stored)
    return stored.error();
  // The module keeps the name of its first compile, as in the MLIR stages,
  // unless the pipeline names it (which the manifest already holds).
  if (ctx.pipeline().moduleName().empty() && !stored->module.empty())
    ctx.manifest().module = std::move(stored->module);
  ctx.manifest().functions = std::move(stored->functions);
  ctx.manifest().weights = std::move(stored->weights);
  weights_.takeFrom(**parsed);
  return std::move(*parsed);
}

Status HostPath::writeObjectFile(llvm::Module &module,
                                 const PartitionWork &work, CodegenContext &ctx,
                                 std::span<const LinkSymbol> linkTable) {
  ctx.begin(Stage::Object);
  const std::string &path = ctx.pipeline().objectFile();
  TemporaryOutput out(path);
  if (Status s = writePartitionedObject(module, work, out.path(), path); !s)
    return s;
  {
    // Mapped: the symbol table is read, the weights are not.
    auto object = llvm::MemoryBuffer::getFile(out.path(), /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!object)
      return Error::at(path, 0, 0,
                       "cannot read the object back: " +
                           object.getError().message());
    llvm::StringRef bytes = (*object)->getBuffer();
    auto link = linkRequirements(std::string_view(bytes.data(), bytes.size()),
                                 linkTable);
    if (!link)
      return link.error();
    ctx.manifest().link = std::move(*link);
    if (ctx.wants(Stage::Object))
      ctx.keep(Stage::Object, bytes.str());
    else
      ctx.reached(Stage::Object);
  }
  if (std::error_code ec = out.commit(ctx.pipeline().objectFileWriteIf()))
    return Error::at(path, 0, 0, "cannot write: " + ec.message());
  return Status::ok();
}

Status HostPath::finish(llvm::Module &module, CodegenContext &ctx,
                        std::span<const LinkSymbol> linkTable) {
  PartitionWork work{*tm_, target_, optLevel_, ctx.pool(), weights_};
  if (ctx.runs(Stage::LlvmIrOpt)) {
    ctx.begin(Stage::LlvmIrOpt);
    // Partitions are merged back into one object as ELF relocatable
    // objects; other formats are generated whole.
    if (tm_->getTargetTriple().isOSBinFormatELF())
      assignPartitions(module);
    if (Status s = optimizePartitions(module, work); !s)
      return s;
    if (Status s = verifyLlvmIr(
            module, "internal error: the LLVM IR after the -O pipeline");
        !s)
      return s;
    if (ctx.wants(Stage::LlvmIrOpt))
      ctx.keep(Stage::LlvmIrOpt, printWithWeights(module));
    else
      ctx.reached(Stage::LlvmIrOpt);
  }
  // Assembly is made only for someone who reads it: for large constants it
  // is as costly as the object code. It is the whole module's, in one piece.
  if (ctx.runs(Stage::Asm) && !ctx.wants(Stage::Asm))
    ctx.reached(Stage::Asm);
  if (ctx.wants(Stage::Asm)) {
    ctx.begin(Stage::Asm);
    Expected<std::string> assembly = std::string();
    weights_.withDefinitions(module, [&] {
      assembly = emitMachineCode(module, work.hostMachine, /*assembly=*/true);
    });
    if (!assembly)
      return assembly.error();
    ctx.keep(Stage::Asm, std::move(*assembly));
  }
  if (ctx.runs(Stage::Object) && !ctx.pipeline().objectFile().empty())
    return writeObjectFile(module, work, ctx, linkTable);
  if (ctx.runs(Stage::Object)) {
    ctx.begin(Stage::Object);
    auto object = emitPartitionedObject(module, work);
    if (!object)
      return object.error();
    auto link = linkRequirements(*object, linkTable);
    if (!link)
      return link.error();
    ctx.manifest().link = std::move(*link);
    ctx.keep(Stage::Object, std::move(*object));
  }
  return Status::ok();
}

} // namespace aot
