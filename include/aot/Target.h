//===- Target.h - what machine the code is compiled for -------------------===//
#pragma once

#include "aot/Diagnostics.h"

#include <string>
#include <string_view>

namespace aot {

/// A code generation target. CPU targets name an LLVM triple, optionally a CPU
/// and a feature list; the host target resolves all three from this machine.
struct Target {
  enum class Kind { Cpu };
  Kind kind = Kind::Cpu;
  std::string triple;   ///< empty means the host triple
  std::string cpu;      ///< empty means the host CPU (or "generic" off-host)
  std::string features; ///< LLVM feature list: "+avx2,-avx512f"

  /// This machine: host triple, CPU and features.
  static Target host() { return {}; }
  /// A CPU target for another triple (cross-compilation).
  static Target cpuTarget(std::string triple, std::string cpu = "",
                          std::string features = "") {
    return {Kind::Cpu, std::move(triple), std::move(cpu), std::move(features)};
  }
  /// Parses `host` or `cpu:TRIPLE[,cpu=NAME][,features=LIST]`.
  static Expected<Target> parse(std::string_view spec);
  /// The spelling parse() accepts.
  std::string str() const;
  bool isHost() const { return triple.empty(); }
};

} // namespace aot
