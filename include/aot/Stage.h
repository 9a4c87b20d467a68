//===- Stage.h - the named stages a back end's pipeline goes through ------===//
//
// Stages are data that each back end supplies (lib/Backend/<Name>/): a name,
// the extension of its dump file, what its output is and one line saying
// what it does. The CPU back end's names below are stable public API; other
// back ends add their own (a GPU back end's `ptx`, say).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <compare>
#include <string_view>

namespace aot {

/// A stage, named by its stable name ("input", "llvm-ir-opt", ...). The
/// name must have static storage duration: use the constants below,
/// parseStage() or the back end's table (stagesOf()), which all do.
class Stage {
public:
  constexpr explicit Stage(std::string_view name) : name_(name) {}
  constexpr std::string_view name() const { return name_; }
  friend constexpr bool operator==(Stage a, Stage b) {
    return a.name_ == b.name_;
  }
  /// By name, so that a Stage can key an ordered map; the order in which
  /// stages run is their order in the back end's table, not this one.
  friend constexpr std::strong_ordering operator<=>(Stage a, Stage b) {
    return a.name_.compare(b.name_) <=> 0;
  }

  // The CPU back end's stages, in order.
  static const Stage Input;      ///< parsed, verified, input contract checked
  static const Stage Linalg;     ///< TOSA/tensor lowered to linalg, fused
  static const Stage Tiled;      ///< linalg ops tiled and vectorized
  static const Stage Bufferized; ///< tensors turned into buffers
  static const Stage Llvm;       ///< LLVM dialect, C interface wrappers
  static const Stage LlvmIr;     ///< translated to LLVM IR
  static const Stage LlvmIrOpt;  ///< LLVM IR after the -O pipeline
  static const Stage Asm;        ///< target assembly
  static const Stage Object;     ///< relocatable object code

private:
  std::string_view name_;
};

inline constexpr Stage Stage::Input{"input"};
inline constexpr Stage Stage::Linalg{"linalg"};
inline constexpr Stage Stage::Tiled{"tiled"};
inline constexpr Stage Stage::Bufferized{"bufferized"};
inline constexpr Stage Stage::Llvm{"llvm"};
inline constexpr Stage Stage::LlvmIr{"llvm-ir"};
inline constexpr Stage Stage::LlvmIrOpt{"llvm-ir-opt"};
inline constexpr Stage Stage::Asm{"asm"};
inline constexpr Stage Stage::Object{"object"};

/// What a stage's output is, which decides how it is kept, dumped and where
/// a compile resumed from it (--compile-from) reads its input.
enum class StageForm {
  Mlir,   ///< an MLIR module: text, and bytecode on request
  LlvmIr, ///< LLVM IR text
  Text,   ///< other text: assembly, PTX
  Binary, ///< bytes: object code, a cubin
};

/// One row of a back end's stage table.
struct StageInfo {
  Stage stage;
  std::string_view extension; ///< of its dump file: ".mlir", ".ll", ".o"
  StageForm form;
  std::string_view description; ///< one line, for --list-stages
};

} // namespace aot
