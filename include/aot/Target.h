//===- Target.h - what machine the code is compiled for -------------------===//
#pragma once

#include "aot/Diagnostics.h"

#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// A code generation target. Its kind picks the back end
/// (lib/Backend/<Name>/) that compiles for it. CPU targets name an LLVM
/// triple, optionally a CPU and a feature list; the host target resolves all
/// three from this machine. CUDA targets name a GPU chip ("sm_90").
struct Target {
  enum class Kind {
    Cpu,  ///< native object code (lib/Backend/Cpu)
    Cuda, ///< NVIDIA GPU kernels with a host object (lib/Backend/Cuda)
  };
  Kind kind = Kind::Cpu;
  std::string triple;   ///< CPU: empty means the host triple
  std::string cpu;      ///< CPU: empty means the host CPU (or "generic")
  std::string features; ///< LLVM feature list: "+avx2,-avx512f", "+ptx80"
  std::string chip;     ///< CUDA: the GPU architecture, "sm_90"
  std::string ptx;      ///< CUDA: the PTX ISA version, "80"; empty: default

  /// This machine: host triple, CPU and features.
  static Target host() { return {}; }
  /// A CPU target for another triple (cross-compilation).
  static Target cpuTarget(std::string triple, std::string cpu = "",
                          std::string features = "") {
    Target t;
    t.triple = std::move(triple);
    t.cpu = std::move(cpu);
    t.features = std::move(features);
    return t;
  }
  /// An NVIDIA GPU target: `chip` like "sm_90", an optional PTX ISA version
  /// ("80") and LLVM NVPTX features.
  static Target cuda(std::string chip, std::string ptx = "",
                     std::string features = "") {
    Target t;
    t.kind = Kind::Cuda;
    t.chip = std::move(chip);
    t.ptx = std::move(ptx);
    t.features = std::move(features);
    return t;
  }
  /// Parses `host`, or `KIND:...` with the syntax of the back end registered
  /// for KIND: `cpu:TRIPLE[,cpu=NAME][,features=LIST]`,
  /// `cuda:CHIP[,ptx=NN][,features=LIST]`.
  static Expected<Target> parse(std::string_view spec);
  /// The spelling parse() accepts.
  std::string str() const;
  bool isHost() const { return kind == Kind::Cpu && triple.empty(); }
  /// The target kinds there are back ends for: "cpu", "cuda".
  static std::vector<std::string> kinds();
};

} // namespace aot
