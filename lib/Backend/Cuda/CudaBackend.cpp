//===- CudaBackend.cpp - NVIDIA GPU kernels with a host object ------------===//
//
// The GPU path: the stages both back ends share up to bufferization
// (Backend/PassLists.h), with tensor data in device memory, linalg ops as
// parallel loops tiled to blocks and threads, kernels outlined into one
// gpu.module and lowered to NVVM, PTX generated in-process, a cubin from
// ptxas when a toolkit is found; then the host path (Backend/Host/HostPath.h)
// compiles the host code, with the kernels embedded, for this machine.
//
//===----------------------------------------------------------------------===//
#include "Backend/Cuda/CudaBackend.h"

#include "Backend/Cuda/DeviceCode.h"
#include "Backend/Cuda/KernelDebug.h"
#include "Backend/Cuda/KernelTrace.h"
#include "Backend/Host/HostPath.h"
#include "Backend/LinkTable.h"
#include "Backend/PassLists.h"
#include "Backend/PassRegistration.h"
#include "Backend/TargetSpec.h"
#include "aot/abi/KernelImage.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include <cctype>
#include <mutex>

namespace aot {

namespace {

constexpr StageInfo kStages[] = {
#define AOT_STAGE(id, name, extension, form, description)                      \
  {Stage(name), extension, StageForm::form, description},
#include "Backend/Cuda/Cuda.def"
#undef AOT_STAGE
};

constexpr Stage kGpuMapped{"gpu-mapped"};
constexpr Stage kKernels{"kernels"};
constexpr Stage kNvvm{"nvvm"};
constexpr Stage kPtx{"ptx"};
constexpr Stage kCubin{"cubin"};

bool isChip(std::string_view chip) {
  if (chip.size() < 5 || chip.substr(0, 3) != "sm_")
    return false;
  for (char c : chip.substr(3))
    if (!std::isalnum(static_cast<unsigned char>(c)))
      return false;
  return std::isdigit(static_cast<unsigned char>(chip[3]));
}

class CudaBackend final : public Backend {
public:
  Target::Kind kind() const override { return Target::Kind::Cuda; }
  std::string_view name() const override { return "cuda"; }
  std::string_view specSyntax() const override {
    return "cuda:CHIP[,ptx=NN][,features=LIST]";
  }

  Expected<Target> parseTarget(std::string_view rest,
                               std::string_view spec) const override {
    TargetSpecParts parts = splitTargetSpec(rest);
    if (!isChip(parts.head))
      return Error::message("target '" + std::string(spec) +
                            "': expected a GPU architecture like sm_90 "
                            "after 'cuda:'");
    Target t = Target::cuda(std::string(parts.head));
    for (const TargetSpecParts::Option &option : parts.options) {
      if (option.key == "ptx" && !option.value.empty())
        t.ptx = option.value;
      else if (option.key == "features")
        t.features = option.value;
      else
        return Error::message(
            "unknown target option '" + std::string(option.part) + "' in '" +
            std::string(spec) + "': expected ptx=NN or features=LIST");
    }
    return t;
  }

  std::string targetString(const Target &target) const override {
    std::string s = "cuda:" + target.chip;
    if (!target.ptx.empty())
      s += ",ptx=" + target.ptx;
    if (!target.features.empty())
      s += ",features=" + target.features;
    return s;
  }

  Status checkTarget(const Target &target) const override {
    auto features = nvptxFeatures(target);
    if (!features)
      return Error::message("target " + targetString(target) + ": " +
                            features.error().diagnostics().front().message);
    return Status::ok();
  }

  std::span<const StageInfo> stages() const override { return kStages; }
  std::string defaultPasses(Stage stage, const Target &target) const override;
  void registerDialects(mlir::DialectRegistry &registry) const override;
  void registerPasses() const override {
    static std::once_flag once;
    registerPipelinePasses();
    std::call_once(once, [] { mlir::registerGPUPasses(); });
  }

  Status afterStage(Stage stage, mlir::ModuleOp module,
                    CodegenContext &ctx) const override {
    const DebugOptions &debug = ctx.pipeline().debug();
    if (stage != kKernels)
      return Status::ok();
    if (!debug.dumpKernelsDir.empty())
      if (Status s = writeOutlinedKernels(module, debug.dumpKernelsDir); !s)
        return s;
    if (!debug.traceKernelsTo.empty())
      return traceKernelLaunches(module, debug.traceKernelsTo);
    return Status::ok();
  }
  Status generate(mlir::ModuleOp module, CodegenContext &ctx) const override;
  Status generateFrom(std::string_view, const std::string &sourceName,
                      CodegenContext &) const override {
    return Error::message(
        "cannot resume a cuda compile from " + sourceName +
        ": the kernels are not in the host code's LLVM IR; resume from an "
        "MLIR stage (--compile-from with a stage up to nvvm)");
  }
  std::span<const LinkSymbol> linkTable() const override;
};

/// The 8-bit floats, in kernels and host code alike: arithmetic in f32,
/// conversions and constants as integer arithmetic on their bytes.
constexpr const char *kFloat8Emulation =
    "arith-emulate-unsupported-floats{source-types=f8E4M3FN,f8E5M2,"
    "f8E4M3FNUZ,f8E5M2FNUZ target-type=f32},aot-expand-float8";

std::string CudaBackend::defaultPasses(Stage stage,
                                       const Target &target) const {
  if (stage == Stage::Linalg)
    return linalgStagePasses();
  if (stage == Stage::Bufferized)
    // Tensor data is placed in device memory before the deallocation ops
    // are lowered, which adds host-side bookkeeping that must stay on the
    // host.
    return bufferizedStagePasses("aot-gpu-mark-device-buffers",
                                 "aot-gpu-device-memory");
  if (stage == kGpuMapped)
    // No canonicalization between the mapping passes: it would fold the
    // one-thread loops away before they become kernels.
    return "func.func(convert-linalg-to-parallel-loops,aot-gpu-map-loops,"
           "gpu-map-parallel-loops{mapping-policy=innermost-first},"
           "convert-parallel-loops-to-gpu,aot-gpu-check-mapped),canonicalize,"
           "cse";
  if (stage == kKernels)
    // math.ipowi and math.fpowi become functions of their own while the
    // kernels are still inside their launches; outlining copies the ones a
    // kernel calls into the kernels' module.
    // Constants and index arithmetic are moved into the launches before
    // outlining, so that kernels see them (loop bounds, offsets) instead
    // of taking them as parameters.
    return "convert-math-to-funcs{convert-ctlz=false},"
           "func.func(gpu-launch-sink-index-computations),gpu-kernel-outlining,"
           "aot-gpu-merge-modules,canonicalize,cse";
  if (stage == kNvvm) {
    auto ptx = ptxVersionFor(target);
    std::string attach = "nvvm-attach-target{chip=" + target.chip +
                         " features=+ptx" + (ptx ? *ptx : "") + " O=3}";
    // Without libdevice, math in kernels is computed by MLIR's polynomial
    // approximations instead of calls of its __nv_ functions.
    std::string math =
        findCudaToolkit().libdevice.empty() ? "aot-math-approximation," : "";
    return attach + ",gpu.module(expand-strided-metadata,lower-affine," + math +
           "aot-bit-counts-to-llvm," + kFloat8Emulation +
           ",convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,"
           "reconcile-unrealized-casts),"
           "func.func(gpu-async-region),aot-export-c-interface,"
           "func.func(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
           "arith-emulate-unsupported-floats{source-types=bf16 "
           "target-type=f32}," +
           kFloat8Emulation +
           ",arith-expand{include-bf16=true},"
           "convert-math-to-llvm),"
           "convert-math-to-libm,"
           "finalize-memref-to-llvm{use-generic-functions=true},"
           "func.func(convert-arith-to-llvm,convert-index-to-llvm),"
           "convert-cf-to-llvm,"
           "convert-func-to-llvm,gpu-to-llvm,"
           "llvm.func(convert-ub-to-llvm,reconcile-unrealized-casts),"
           "reconcile-unrealized-casts,aot-gpu-device-constants,"
           "aot-weights-as-bytes";
  }
  return "";
}

void CudaBackend::registerDialects(mlir::DialectRegistry &registry) const {
  registerHostDialects(registry);
  registry.insert<mlir::gpu::GPUDialect, mlir::NVVM::NVVMDialect>();
  // convert-gpu-to-nvvm lowers what kernels hold through each dialect's
  // ConvertToLLVM interface.
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::index::registerConvertIndexToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
  mlir::registerConvertNVVMToLLVMInterface(registry);
  mlir::NVVM::registerConvertGpuToNVVMInterface(registry);
  mlir::ub::registerConvertUBToLLVMInterface(registry);
  mlir::vector::registerConvertVectorToLLVMInterface(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  mlir::gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

/// Replaces each gpu.module by a gpu.binary holding its kernel images, the
/// form in which the host translation embeds them and loads them at run
/// time (mgpuModuleLoad of the runtime, abi/runtime/CudaRuntime.cpp).
Status embedKernels(mlir::gpu::GPUModuleOp gpuModule, const std::string &blob) {
  mlir::OpBuilder b(gpuModule);
  mlir::MLIRContext *ctx = gpuModule.getContext();
  mlir::ArrayAttr targets = gpuModule.getTargetsAttr();
  if (!targets || targets.empty())
    return Error::message("internal error: gpu.module @" +
                          gpuModule.getName().str() + " has no target");
  auto object = mlir::gpu::ObjectAttr::get(
      ctx, targets[0], mlir::gpu::CompilationTarget::Binary,
      mlir::StringAttr::get(ctx, blob), /*properties=*/nullptr,
      /*kernels=*/nullptr);
  mlir::gpu::BinaryOp::create(b, gpuModule.getLoc(), gpuModule.getName(),
                              /*offloadingHandler=*/nullptr,
                              b.getArrayAttr({object}));
  gpuModule.erase();
  return Status::ok();
}

Status CudaBackend::generate(mlir::ModuleOp module, CodegenContext &ctx) const {
  const Target &target = ctx.target();
  const DebugOptions &debug = ctx.pipeline().debug();
  const bool lineInfo = debug.debugInfo != DebugInfo::None;
  int optLevel = ctx.pipeline().optLevel();
  CudaToolkit toolkit = findCudaToolkit();
  KernelIr kernelIr;
  llvm::SmallVector<mlir::gpu::GPUModuleOp> gpuModules(
      module.getOps<mlir::gpu::GPUModuleOp>());
  std::string allPtx;
  std::string allCubin;
  std::vector<std::string> blobs;
  if (ctx.runs(kPtx))
    ctx.begin(kPtx);
  for (mlir::gpu::GPUModuleOp gpuModule : gpuModules) {
    if (lineInfo)
      lineDirectivesOnly(gpuModule);
    auto ptx = emitPtx(*gpuModule, target, optLevel, toolkit.libdevice,
                       debug.dumpKernelsDir.empty() ? nullptr : &kernelIr);
    if (!ptx)
      return ctx.withDiagnostics(ptx.error());
    allPtx += *ptx;
    std::string cubin;
    // A compile that stops at the PTX (--compile-to=ptx) has no use for
    // ptxas, which takes longer than everything before it on a large model.
    if (!toolkit.ptxas.empty() && ctx.runs(kCubin)) {
      auto assembled = assemblePtx(*ptx, target, toolkit.ptxas, lineInfo);
      if (!assembled)
        return assembled.error();
      cubin = std::move(*assembled);
      allCubin += cubin;
    }
    std::string ptxText = *ptx;
    ptxText.push_back('\0');
    std::vector<abi::KernelImage> images;
    if (!cubin.empty())
      images.push_back({abi::KernelImageKind::Cubin, cubin});
    images.push_back({abi::KernelImageKind::Ptx, ptxText});
    blobs.push_back(abi::packKernelImages(images));
  }
  if (ctx.runs(kPtx))
    ctx.keep(kPtx, allPtx);
  if (!debug.dumpKernelsDir.empty())
    if (Status s = writeKernelDump(module, debug.dumpKernelsDir, allPtx,
                                   kernelIr, target, toolkit, lineInfo);
        !s)
      return s;
  if (!debug.substituteKernels.empty())
    if (Status s = substituteKernels(module, allPtx, debug.substituteKernels,
                                     ctx.warnings());
        !s)
      return s;
  if (ctx.runs(kCubin)) {
    ctx.begin(kCubin);
    if (toolkit.libdevice.empty() && !gpuModules.empty())
      ctx.warnings().push_back(
          {Severity::Note, "", 0, 0,
           "libdevice was not found (searched " + toolkit.searched +
               "): math functions in kernels use MLIR's polynomial "
               "approximations"});
    if (toolkit.ptxas.empty() && !gpuModules.empty())
      ctx.warnings().push_back(
          {Severity::Warning, "", 0, 0,
           "ptxas was not found (searched " + toolkit.searched +
               "): the kernels are embedded as PTX only, which the driver "
               "compiles when they are first loaded; set CUDA_HOME to a "
               "CUDA toolkit to embed a cubin for " +
               target.chip});
    if (allCubin.empty())
      ctx.reached(kCubin);
    else
      ctx.keep(kCubin, allCubin);
  }
  if (!ctx.runs(Stage::LlvmIr))
    return Status::ok();
  for (auto [gpuModule, blob] : llvm::zip(gpuModules, blobs))
    if (Status s = embedKernels(gpuModule, blob); !s)
      return s;
  return HostPath::compile(module, Target::host(), ctx, linkTable());
}

std::span<const LinkSymbol> CudaBackend::linkTable() const {
  static const std::vector<LinkSymbol> table =
      joinLinkTables({hostCodeSymbols(), cudaRuntimeSymbols()});
  return table;
}

} // namespace

const Backend &cudaBackend() {
  static const CudaBackend backend;
  return backend;
}

} // namespace aot
