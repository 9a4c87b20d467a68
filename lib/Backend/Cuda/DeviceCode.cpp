//===- DeviceCode.cpp - kernels to PTX and cubin --------------------------===//
#include "Backend/Cuda/DeviceCode.h"

#include "Backend/Host/LlvmBackend.h"

#include "mlir/IR/Operation.h"
#include "mlir/Target/LLVM/ModuleToObject.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <fstream>

namespace aot {

namespace {

/// The oldest PTX ISA version each chip needs (PTX ISA documentation,
/// "target directive"). LLVM refuses a pair below these with a fatal error
/// that ends the process, so they are checked first.
struct ChipPtx {
  const char *chip;
  int minPtx;
};
constexpr ChipPtx kMinPtx[] = {
    {"sm_50", 40},   {"sm_52", 41},  {"sm_53", 42},   {"sm_60", 50},
    {"sm_61", 50},   {"sm_62", 50},  {"sm_70", 60},   {"sm_72", 61},
    {"sm_75", 63},   {"sm_80", 70},  {"sm_86", 71},   {"sm_87", 74},
    {"sm_89", 78},   {"sm_90", 78},  {"sm_90a", 80},  {"sm_100", 86},
    {"sm_100a", 86}, {"sm_101", 86}, {"sm_101a", 86}, {"sm_120", 87},
    {"sm_120a", 87},
};

std::unique_ptr<llvm::MCSubtargetInfo> nvptxSubtarget() {
  initializeTargets();
  std::string error;
  llvm::Triple triple(kNvptxTriple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      target->createMCSubtargetInfo(triple, "", ""));
}

bool knownFeature(const llvm::MCSubtargetInfo &sti, llvm::StringRef name) {
  for (const llvm::SubtargetFeatureKV &kv : sti.getAllProcessorFeatures())
    if (name == kv.Key)
      return true;
  return false;
}

/// A PTX the driver could not load: a call of a function nothing defines
/// (an __nv_ math function when libdevice was not linked).
Status checkResolved(const llvm::Module &module, bool libdeviceLinked) {
  for (const llvm::Function &fn : module.functions())
    if (fn.isDeclaration() && !fn.isIntrinsic() && !fn.use_empty())
      return Error::message(
          "kernel code calls '" + fn.getName().str() + "', which nothing " +
          (libdeviceLinked
               ? std::string("defines, not even libdevice")
               : std::string("defines (libdevice provides the __nv_ math "
                             "functions; it was not found: set CUDA_HOME to "
                             "a CUDA toolkit)")));
  return Status::ok();
}

/// Prints each kernel of `module` into `out`, by name.
void printKernels(llvm::Module &module,
                  std::map<std::string, std::string> &out) {
  for (llvm::Function &fn : module.functions()) {
    if (fn.isDeclaration() ||
        fn.getCallingConv() != llvm::CallingConv::PTX_Kernel)
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    fn.print(os);
    out[fn.getName().str()] = std::move(text);
  }
}

class PtxEmitter final : public mlir::LLVM::ModuleToObject {
public:
  PtxEmitter(mlir::Operation &module, llvm::StringRef chip,
             llvm::StringRef features, int optLevel, std::string libdevice,
             llvm::function_ref<void(llvm::Module &)> initial,
             llvm::function_ref<void(llvm::Module &)> optimized)
      : ModuleToObject(module, kNvptxTriple, chip, features, optLevel, initial,
                       /*linkedLlvmIRCallback=*/{}, optimized),
        libdevice_(std::move(libdevice)) {}

  Status status = Status::ok();

protected:
  std::optional<llvm::SmallVector<std::unique_ptr<llvm::Module>>>
  loadBitcodeFiles(llvm::Module &module) override {
    llvm::SmallVector<std::unique_ptr<llvm::Module>> libraries;
    if (libdevice_.empty())
      return libraries;
    std::unique_ptr<llvm::Module> library =
        loadBitcodeFile(module.getContext(), libdevice_);
    if (!library)
      return std::nullopt;
    libraries.push_back(std::move(library));
    return libraries;
  }

  llvm::FailureOr<llvm::SmallVector<char, 0>>
  moduleToObject(llvm::Module &module) override {
    if (status = checkResolved(module, !libdevice_.empty()); !status)
      return llvm::failure();
    llvm::FailureOr<llvm::TargetMachine *> tm = getOrCreateTargetMachine();
    if (llvm::failed(tm))
      return getOperation().emitError("cannot make an NVPTX target machine"),
             llvm::failure();
    auto ptx = translateModuleToISA(module, **tm,
                                    [&] { return getOperation().emitError(); });
    if (llvm::failed(ptx))
      return llvm::failure();
    return llvm::SmallVector<char, 0>(ptx->begin(), ptx->end());
  }

private:
  std::string libdevice_;
};

std::string fileIn(const std::string &root,
                   std::initializer_list<const char *> parts) {
  llvm::SmallString<256> path(root);
  for (const char *part : parts)
    llvm::sys::path::append(path, part);
  return llvm::sys::fs::exists(path) ? std::string(path) : std::string();
}

} // namespace

Expected<std::string> ptxVersionFor(const Target &target) {
  std::unique_ptr<llvm::MCSubtargetInfo> sti = nvptxSubtarget();
  if (!sti)
    return Error::message("this build of LLVM has no NVPTX back end: it "
                          "cannot generate GPU kernels");
  if (!sti->isCPUStringValid(target.chip))
    return Error::message("unknown GPU architecture '" + target.chip +
                          "': LLVM's NVPTX back end does not know it");
  int minPtx = 0;
  for (const ChipPtx &row : kMinPtx)
    if (target.chip == row.chip)
      minPtx = row.minPtx;
  if (target.ptx.empty()) {
    if (minPtx == 0)
      return Error::message(
          "no default PTX version is known for '" + target.chip +
          "': name one, as in cuda:" + target.chip + ",ptx=88");
    return std::to_string(minPtx);
  }
  if (!knownFeature(*sti, "ptx" + target.ptx))
    return Error::message("unknown PTX version '" + target.ptx +
                          "': expected two digits LLVM knows, like 78 or 80");
  if (std::atoi(target.ptx.c_str()) < minPtx)
    return Error::message("PTX " + target.ptx + " cannot target " +
                          target.chip + ": it needs PTX " +
                          std::to_string(minPtx) + " or newer");
  return target.ptx;
}

Expected<std::string> nvptxFeatures(const Target &target) {
  auto ptx = ptxVersionFor(target);
  if (!ptx)
    return ptx.error();
  std::string features = "+ptx";
  features += *ptx;
  std::unique_ptr<llvm::MCSubtargetInfo> sti = nvptxSubtarget();
  llvm::StringRef rest(target.features);
  while (!rest.empty()) {
    auto [feature, tail] = rest.split(',');
    rest = tail;
    if (feature.empty() || (feature[0] != '+' && feature[0] != '-') ||
        !knownFeature(*sti, feature.drop_front()))
      return Error::message("unknown NVPTX feature '" + feature.str() +
                            "': expected +NAME or -NAME of LLVM's NVPTX "
                            "features");
    features += ',';
    features += feature;
  }
  return features;
}

CudaToolkit findCudaToolkit() {
  std::vector<std::string> roots;
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    roots.push_back(home);
  else
    roots = {"/usr/local/cuda", "/usr/lib/nvidia-cuda-toolkit"};
  CudaToolkit toolkit;
  for (const std::string &root : roots) {
    toolkit.searched += (toolkit.searched.empty() ? "" : ", ") + root;
    std::string ptxas = fileIn(root, {"bin", "ptxas"});
    std::string libdevice =
        fileIn(root, {"nvvm", "libdevice", "libdevice.10.bc"});
    if (libdevice.empty())
      libdevice = fileIn(root, {"libdevice", "libdevice.10.bc"});
    if (ptxas.empty() && libdevice.empty())
      continue;
    toolkit.root = root;
    toolkit.ptxas = ptxas;
    toolkit.libdevice = libdevice;
    break;
  }
  return toolkit;
}

Expected<std::string> emitPtx(mlir::Operation &gpuModule, const Target &target,
                              int optLevel, const std::string &libdevice,
                              KernelIr *ir) {
  auto features = nvptxFeatures(target);
  if (!features)
    return features.error();
  auto initial = [&](llvm::Module &m) { printKernels(m, ir->initial); };
  auto optimized = [&](llvm::Module &m) { printKernels(m, ir->optimized); };
  using Callback = llvm::function_ref<void(llvm::Module &)>;
  PtxEmitter emitter(gpuModule, target.chip, *features, optLevel, libdevice,
                     ir ? Callback(initial) : Callback(),
                     ir ? Callback(optimized) : Callback());
  std::optional<llvm::SmallVector<char, 0>> ptx = emitter.run();
  if (!emitter.status)
    return emitter.status.error();
  if (!ptx)
    return Error::message("generating PTX for the kernels failed");
  return std::string(ptx->begin(), ptx->end());
}

Expected<std::string> assemblePtx(const std::string &ptx, const Target &target,
                                  const std::string &ptxas, bool lineInfo,
                                  std::string *report) {
  llvm::SmallString<128> input, output, log;
  if (llvm::sys::fs::createTemporaryFile("aot-kernels", "ptx", input) ||
      llvm::sys::fs::createTemporaryFile("aot-kernels", "cubin", output) ||
      llvm::sys::fs::createTemporaryFile("aot-ptxas", "log", log))
    return Error::message("cannot create temporary files for ptxas");
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(input);
    llvm::sys::fs::remove(output);
    llvm::sys::fs::remove(log);
  });
  {
    std::ofstream out(std::string(input), std::ios::binary);
    out << ptx;
    if (!out)
      return Error::message("cannot write " + std::string(input));
  }
  std::vector<std::string> args = {ptxas, "-arch=" + target.chip, "-O3",
                                   "--output-file", std::string(output)};
  if (lineInfo)
    args.push_back("-lineinfo");
  if (report)
    args.push_back("-v");
  args.push_back(std::string(input));
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(), llvm::StringRef(log), llvm::StringRef(log)};
  std::string error;
  int rc =
      llvm::sys::ExecuteAndWait(ptxas, argRefs, std::nullopt, redirects,
                                /*SecondsToWait=*/0, /*MemoryLimit=*/0, &error);
  auto logText = llvm::MemoryBuffer::getFile(log);
  std::string messages =
      logText ? llvm::StringRef((*logText)->getBuffer()).trim().str() : "";
  if (rc != 0)
    return Error::message(
        ptxas + " failed" + (error.empty() ? "" : " (" + error + ")") +
        (messages.empty() ? std::string() : ":\n" + messages));
  auto cubin = llvm::MemoryBuffer::getFile(output, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!cubin)
    return Error::message(ptxas + " wrote no cubin");
  if (report)
    *report = messages;
  return std::string((*cubin)->getBuffer());
}

} // namespace aot
