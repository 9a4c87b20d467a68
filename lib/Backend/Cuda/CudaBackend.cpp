//===- CudaBackend.cpp - NVIDIA GPU kernels with a host object ------------===//
//
// The shape of the GPU path: linalg mapped to blocks and threads, kernels
// outlined into a gpu.module, lowered to NVVM, compiled to PTX and cubin,
// then the host path shared with the CPU back end (lib/Backend/Cpu/
// HostPath.h) with the kernels embedded. Target specs parse and the stages
// are listed; compiling is refused with a clear error until the code
// generation lands.
//
//===----------------------------------------------------------------------===//
#include "Backend/Cuda/CudaBackend.h"

#include "Backend/LinkTable.h"
#include "Backend/TargetSpec.h"

#include <cctype>

namespace aot {

namespace {

constexpr StageInfo kStages[] = {
#define AOT_STAGE(id, name, extension, form, description)                      \
  {Stage(name), extension, StageForm::form, description},
#include "Backend/Cuda/Cuda.def"
#undef AOT_STAGE
};

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
    return Error::message(
        "target " + targetString(target) +
        ": the cuda back end is not built yet in this version of mlir-aot; "
        "its stages are declared (aot-compile --list-stages "
        "--target=cuda:CHIP) but it generates no code. Compile for the CPU "
        "(--target=host) instead");
  }

  std::span<const StageInfo> stages() const override { return kStages; }
  std::string defaultPasses(Stage, const Target &) const override { return ""; }
  void registerDialects(mlir::DialectRegistry &) const override {}
  void registerPasses() const override {}

  Status generate(mlir::ModuleOp, CodegenContext &ctx) const override {
    return checkTarget(ctx.target());
  }
  Status generateFrom(std::string_view, const std::string &,
                      CodegenContext &ctx) const override {
    return checkTarget(ctx.target());
  }
  std::span<const LinkSymbol> linkTable() const override {
    return libcSymbols();
  }
};

} // namespace

const Backend &cudaBackend() {
  static const CudaBackend backend;
  return backend;
}

} // namespace aot
