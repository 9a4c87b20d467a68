//===- Pipeline.h - the named stages a compile goes through ---------------===//
#pragma once

#include "aot/Debug.h"
#include "aot/Diagnostics.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// The stages of the CPU pipeline, in order. Names and numbers are stable:
/// they appear in dumps (`03-bufferized.mlir`) and on the command line.
enum class Stage {
  Input,      ///< parsed, verified and checked against the input contract
  Linalg,     ///< TOSA/tensor lowered to linalg, elementwise ops fused
  Tiled,      ///< linalg ops tiled and vectorized
  Bufferized, ///< tensors turned into buffers, deallocations inserted
  Llvm,       ///< LLVM dialect, C interface wrappers added
  LlvmIr,     ///< translated to LLVM IR
  LlvmIrOpt,  ///< LLVM IR after the -O pipeline
  Asm,        ///< target assembly
  Object,     ///< relocatable object code
};

inline constexpr std::array<Stage, 9> kAllStages = {
    Stage::Input,  Stage::Linalg,    Stage::Tiled, Stage::Bufferized,
    Stage::Llvm,   Stage::LlvmIr,    Stage::LlvmIrOpt, Stage::Asm,
    Stage::Object};

/// The stable name: "input", "linalg", ..., "llvm-ir-opt", "asm", "object".
std::string_view stageName(Stage stage);
/// Inverse of stageName.
std::optional<Stage> parseStage(std::string_view name);
/// The file a stage dump is written to: "00-input.mlir", "06-llvm-ir-opt.ll".
std::string stageFileName(Stage stage, bool bytecode = false);
/// One line saying what the stage does (for --list-stages).
std::string_view stageDescription(Stage stage);
/// True for stages whose output is MLIR (input .. llvm).
bool isMlirStage(Stage stage);

/// Which stages run and with which passes. The default runs every stage with
/// the built-in pass lists at -O2. Pass lists are textual MLIR pipelines
/// without the `builtin.module(...)` anchor, e.g. "canonicalize,cse".
class Pipeline {
public:
  Pipeline() = default;

  /// The first stage to run. The source is taken to be the output of the
  /// stage before (compileFrom(Stage::Llvm) expects bufferized MLIR;
  /// compileFrom(Stage::LlvmIrOpt) expects LLVM IR).
  Pipeline &compileFrom(Stage stage);
  /// Stop after `stage`; later stages are not run.
  Pipeline &compileTo(Stage stage);
  /// Replace the passes of an MLIR stage (linalg .. llvm).
  Pipeline &setStagePasses(Stage stage, std::string passes);
  /// Run extra passes after an MLIR stage's own passes.
  Pipeline &appendPasses(Stage stage, std::string passes);
  /// LLVM optimisation level 0..3 (also used for instruction selection).
  Pipeline &optLevel(int level);
  /// Tracing and inspection switches for compiles with this pipeline.
  Pipeline &debug(DebugOptions options);

  Stage firstStage() const { return first_; }
  Stage lastStage() const { return last_; }
  int optLevel() const { return optLevel_; }
  const DebugOptions &debug() const { return debug_; }
  /// The pass list a stage runs: the replacement if set, else the default.
  std::string stagePasses(Stage stage) const;
  /// Passes appended after a stage ("" if none).
  std::string appendedPasses(Stage stage) const;
  /// The built-in pass list of an MLIR stage.
  static std::string defaultStagePasses(Stage stage);
  /// Checks the stage range and option values.
  Status validate() const;

private:
  Stage first_ = Stage::Input;
  Stage last_ = Stage::Object;
  int optLevel_ = 2;
  DebugOptions debug_;
  std::map<Stage, std::string> replaced_;
  std::map<Stage, std::string> appended_;
};

} // namespace aot
