//===- CpuBackend.cpp - native object code for CPU targets ----------------===//
//
// The default pass lists live here and in Backend/PassLists.h (the stages
// the CUDA back end shares) as text so that `--list-stages` can show them
// and a user can start from them when replacing a stage. Every name in them
// is registered by registerPipelinePasses (Backend/PassRegistration.h), and
// a test parses each list, so a typo cannot ship.
//
//===----------------------------------------------------------------------===//
#include "Backend/Cpu/CpuBackend.h"

#include "Backend/Host/HostPath.h"
#include "Backend/Host/LlvmBackend.h"
#include "Backend/LinkTable.h"
#include "Backend/PassLists.h"
#include "Backend/PassRegistration.h"
#include "Backend/TargetSpec.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/MC/MCSubtargetInfo.h"

#include <vector>

namespace aot {

namespace {

constexpr StageInfo kStages[] = {
#define AOT_STAGE(id, name, extension, form, description)                      \
  {Stage(name), extension, StageForm::form, description},
#include "Backend/Cpu/Cpu.def"
#undef AOT_STAGE
};

// The public constants of Stage.h are this table's names.
#define AOT_STAGE(id, name, extension, form, description)                      \
  static_assert(Stage::id == Stage(name));
#include "Backend/Cpu/Cpu.def"
#undef AOT_STAGE

class CpuBackend final : public Backend {
public:
  Target::Kind kind() const override { return Target::Kind::Cpu; }
  std::string_view name() const override { return "cpu"; }
  std::string_view specSyntax() const override {
    return "cpu:TRIPLE[,cpu=NAME][,features=LIST]";
  }

  Expected<Target> parseTarget(std::string_view options,
                               std::string_view spec) const override;
  std::string targetString(const Target &target) const override;
  Status checkTarget(const Target &target) const override {
    // The triple, CPU and features are checked with LLVM's own tables, by
    // making a target machine; before any work, so a typo fails at once.
    auto tm = createTargetMachine(target, /*optLevel=*/0);
    return tm ? Status::ok() : Status(tm.error());
  }

  std::span<const StageInfo> stages() const override { return kStages; }
  std::string defaultPasses(Stage stage, const Target &) const override;
  void registerDialects(mlir::DialectRegistry &registry) const override;
  void registerPasses() const override { registerPipelinePasses(); }

  Status generate(mlir::ModuleOp module, CodegenContext &ctx) const override;
  Status generateFrom(std::string_view source, const std::string &sourceName,
                      CodegenContext &ctx) const override;
  std::span<const LinkSymbol> linkTable() const override;
};

Expected<Target> CpuBackend::parseTarget(std::string_view rest,
                                         std::string_view spec) const {
  TargetSpecParts parts = splitTargetSpec(rest);
  if (parts.head.empty())
    return Error::message("target '" + std::string(spec) +
                          "' names no triple after 'cpu:'");
  Target t = Target::cpuTarget(std::string(parts.head));
  for (const TargetSpecParts::Option &option : parts.options) {
    if (option.key == "cpu")
      t.cpu = option.value;
    else if (option.key == "features")
      t.features = option.value;
    else
      return Error::message(
          "unknown target option '" + std::string(option.part) + "' in '" +
          std::string(spec) + "': expected cpu=NAME or features=LIST");
  }
  return t;
}

std::string CpuBackend::targetString(const Target &target) const {
  if (target.isHost())
    return "host";
  std::string s = "cpu:" + target.triple;
  if (!target.cpu.empty())
    s += ",cpu=" + target.cpu;
  if (!target.features.empty())
    s += ",features=" + target.features;
  return s;
}

/// The options of aot-tile-and-vectorize for `target`'s vector registers.
/// The default register tile of a contraction, 8 rows by 32 lanes of sums,
/// fills half of AVX-512's 32 registers of 16 floats; x86 without AVX-512
/// has 16 registers of 8 floats, where that tile would take 32 and spill.
/// There, 4 rows by 16 lanes (8 registers of sums): on an AVX2 machine,
/// BERT-base's encoder ran in 799 ms on one thread and 523 on two with it,
/// 903 and 560 with 6 by 16 (12 of sums), the shape of the usual AVX2
/// GEMM kernels; ResNet-50 in 272 and 147 ms, 263 and 160 with 6 by 16
/// (`aot-run --benchmark`). AVX-512 BW also has the 512-bit vpmaddwd of
/// the integer pair dots.
std::string tileOptions(const Target &target) {
  auto tm = createTargetMachine(target, /*optLevel=*/0);
  if (!tm || !(*tm)->getTargetTriple().isX86())
    return "";
  const llvm::MCSubtargetInfo *info = (*tm)->getMCSubtargetInfo();
  if (info->checkFeatures("+avx512bw"))
    return "{x86-pair-dot=true}";
  if (!info->checkFeatures("+avx512f"))
    return "{tile-m=4 tile-n=16}";
  return "";
}

/// The options of aot-winograd-convolutions for `target`: its transforms
/// take a vector of channels at a time, 16 floats where AVX-512 has them
/// and 8 elsewhere, so that a block's 16 values and their sums stay in
/// registers.
std::string winogradOptions(const Target &target) {
  auto tm = createTargetMachine(target, /*optLevel=*/0);
  if (tm && (*tm)->getTargetTriple().isX86() &&
      (*tm)->getMCSubtargetInfo()->checkFeatures("+avx512f"))
    return "{vector-width=16}";
  return "";
}

std::string CpuBackend::defaultPasses(Stage stage, const Target &target) const {
  if (stage == Stage::Linalg)
    return linalgStagePasses();
  if (stage == Stage::Tiled)
    return "func.func(aot-winograd-convolutions" + winogradOptions(target) +
           ",aot-tile-and-vectorize" + tileOptions(target) +
           "),canonicalize,cse";
  if (stage == Stage::Bufferized)
    return bufferizedStagePasses();
  if (stage == Stage::Llvm)
    // Math ops without an LLVM intrinsic become libm calls, unrolled per
    // vector lane, so that lowering runs before the vector dialect goes.
    // What works inside one function runs nested, on the compile's threads;
    // the passes that add declarations to the module run on it whole.
    // math.ipowi and math.fpowi (on vectors, lane by lane) as calls of
    // functions the pass writes; ctlz keeps its LLVM intrinsic.
    // The pair dots of integer matmuls become vpmaddwd (aot-x86-pair-dot);
    // only x86 code with AVX512BW has them. The rows of B that dot products
    // stream side by side are prefetched ahead (aot-prefetch-rows).
    return "aot-parallelize-loops,aot-x86-pair-dot,"
           "func.func(aot-prefetch-rows),"
           "convert-math-to-funcs{convert-ctlz=false},"
           "aot-export-c-interface,"
           "func.func(convert-linalg-to-loops,"
           "convert-vector-to-scf{full-unroll=true},"
           "lower-affine,convert-scf-to-cf,expand-strided-metadata,"
           "lower-affine,arith-emulate-unsupported-floats{source-types=bf16,"
           "f8E4M3FN,f8E5M2,f8E4M3FNUZ,f8E5M2FNUZ target-type=f32},"
           "aot-expand-float8,arith-expand{include-bf16=true},"
           "convert-math-to-llvm),"
           "convert-math-to-libm,"
           "func.func(convert-vector-to-llvm),"
           "finalize-memref-to-llvm{use-generic-functions=true},"
           "func.func(convert-arith-to-llvm,convert-index-to-llvm),"
           "convert-openmp-to-llvm,"
           "convert-cf-to-llvm,convert-func-to-llvm,"
           "llvm.func(convert-ub-to-llvm,reconcile-unrealized-casts),"
           "reconcile-unrealized-casts,aot-weights-as-bytes";
  return "";
}

void CpuBackend::registerDialects(mlir::DialectRegistry &registry) const {
  registerHostDialects(registry);
}

Status CpuBackend::generate(mlir::ModuleOp module, CodegenContext &ctx) const {
  return HostPath::compile(module, ctx.target(), ctx, linkTable());
}

Status CpuBackend::generateFrom(std::string_view source,
                                const std::string &sourceName,
                                CodegenContext &ctx) const {
  auto host = HostPath::create(ctx.target(), ctx.pipeline().optLevel());
  if (!host)
    return host.error();
  auto llvmModule = host->parse(source, sourceName, ctx);
  if (!llvmModule)
    return llvmModule.error();
  return host->finish(**llvmModule, ctx, linkTable());
}

std::span<const LinkSymbol> CpuBackend::linkTable() const {
  return hostCodeSymbols();
}

} // namespace

const Backend &cpuBackend() {
  static const CpuBackend backend;
  return backend;
}

} // namespace aot
