//===- TargetMachine.cpp - target machines for CPU targets ----------------===//
#include "Backend/Host/LlvmBackend.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

namespace aot {

void initializeTargets() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
  });
}

static std::string hostFeatures() {
  std::string out;
  for (const auto &feature : llvm::sys::getHostCPUFeatures()) {
    if (!out.empty())
      out += ",";
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive)
    // on a std::string built with operator+ here.
    out += feature.getValue() ? '+' : '-';
    out += feature.getKey().str();
  }
  return out;
}

/// LLVM only warns on stderr about an unknown CPU or feature and carries on;
/// a typo in --target must be an error instead.
static Status checkCpuAndFeatures(const llvm::Target &target,
                                  const llvm::Triple &triple,
                                  const std::string &cpu,
                                  const std::string &features) {
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target.createMCSubtargetInfo(triple, "", ""));
  if (!sti)
    return Status::ok();
  if (!cpu.empty() && cpu != "generic" && !sti->isCPUStringValid(cpu))
    return Error::message("unknown CPU '" + cpu + "' for target " +
                          triple.str());
  llvm::StringRef rest(features);
  while (!rest.empty()) {
    auto [feature, tail] = rest.split(',');
    rest = tail;
    llvm::StringRef name = feature.ltrim("+-");
    if (feature.empty() || (feature[0] != '+' && feature[0] != '-'))
      return Error::message("target feature '" + feature.str() +
                            "' must start with '+' or '-'");
    bool known = false;
    for (const llvm::SubtargetFeatureKV &kv : sti->getAllProcessorFeatures())
      known |= name == kv.Key;
    if (!known)
      return Error::message("unknown feature '" + name.str() + "' for target " +
                            triple.str());
  }
  return Status::ok();
}

/// CPU architectures the lowering produces working code for (Host.def).
/// LLVM knows more triples (GPUs, SPIR-V, small embedded cores), and some of
/// them crash or abort on this IR: refuse them up front instead.
static bool isSupportedCpu(const llvm::Triple &triple) {
  switch (triple.getArch()) {
#define AOT_CPU_ARCH(arch, pattern) case llvm::Triple::arch:
#include "Backend/Host/Host.def"
#undef AOT_CPU_ARCH
    return true;
  default:
    return false;
  }
}

/// "x86, x86_64, ... and loongarch64", for the error message.
static std::string supportedCpus() {
  std::vector<std::string> names;
#define AOT_CPU_ARCH(arch, pattern)                                            \
  names.push_back(llvm::Triple::getArchTypeName(llvm::Triple::arch).str());
#include "Backend/Host/Host.def"
#undef AOT_CPU_ARCH
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const Target &target, int optLevel) {
  initializeTargets();
  llvm::Triple triple(target.isHost() ? llvm::sys::getDefaultTargetTriple()
                                      : target.triple);
  if (!isSupportedCpu(triple))
    return Error::message("unsupported target triple '" + triple.str() +
                          "': CPU targets are " + supportedCpus());
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return Error::message("unknown target triple '" + triple.str() +
                          "': " + error);
  std::string cpu = target.cpu, features = target.features;
  if (target.isHost()) {
    if (cpu.empty())
      cpu = llvm::sys::getHostCPUName().str();
    if (features.empty())
      features = hostFeatures();
  } else if (cpu.empty()) {
    cpu = "generic";
  }
  if (Status s = checkCpuAndFeatures(*llvmTarget, triple, cpu, features); !s)
    return s.error();
  static constexpr llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less,
      llvm::CodeGenOptLevel::Default, llvm::CodeGenOptLevel::Aggressive};
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(llvmTarget->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
      levels[optLevel]));
  if (!tm)
    return Error::message("cannot create a target machine for " + triple.str());
  return tm;
}

} // namespace aot
