//===- Pipeline.h - the named stages a compile goes through ---------------===//
#pragma once

#include "aot/Debug.h"
#include "aot/Diagnostics.h"
#include "aot/Stage.h"
#include "aot/Target.h"
#include "aot/WriteIf.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// The stages of `target`'s back end, in the order they run. Every back end
/// starts with Stage::Input and ends with Stage::Object (host object code).
std::span<const StageInfo> stagesOf(const Target &target = Target::host());
/// The row of `stage` in `target`'s table; nullptr if that back end has no
/// such stage.
const StageInfo *findStage(Stage stage, const Target &target = Target::host());

/// The stable name: "input", "linalg", ..., "llvm-ir-opt", "asm", "object".
inline std::string_view stageName(Stage stage) { return stage.name(); }
/// The stage of `target`'s back end named `name`.
std::optional<Stage> parseStage(std::string_view name,
                                const Target &target = Target::host());
/// A stage of any back end named `name`, for command lines that read stage
/// names before the target; compile() checks that the target has it.
std::optional<Stage> parseAnyStage(std::string_view name);
/// The file a stage dump is written to: "00-input.mlir", "06-llvm-ir-opt.ll"
/// (its position in the back end's table, its name, its extension).
std::string stageFileName(Stage stage, bool bytecode = false,
                          const Target &target = Target::host());
/// One line saying what the stage does (for --list-stages).
std::string_view stageDescription(Stage stage,
                                  const Target &target = Target::host());
/// True for stages whose output is MLIR (input .. llvm on the CPU).
bool isMlirStage(Stage stage, const Target &target = Target::host());
/// The names of the MLIR stages whose passes can be replaced, for messages:
/// "linalg, tiled, bufferized and llvm".
std::string replaceableStageNames(const Target &target = Target::host());

/// Which stages run and with which passes. The default runs every stage with
/// the built-in pass lists at -O2. Pass lists are textual MLIR pipelines
/// without the `builtin.module(...)` anchor, e.g. "canonicalize,cse".
class Pipeline {
public:
  Pipeline() = default;

  /// The first stage to run. The source is taken to be the output of the
  /// stage before (compileFrom(Stage::Llvm) expects bufferized MLIR;
  /// compileFrom(Stage::LlvmIrOpt) expects LLVM IR). Default: Stage::Input.
  Pipeline &compileFrom(Stage stage);
  /// Stop after `stage`; later stages are not run. Default: Stage::Object.
  Pipeline &compileTo(Stage stage);
  /// Replace the passes of an MLIR stage (on the CPU: linalg .. llvm).
  Pipeline &setStagePasses(Stage stage, std::string passes);
  /// Run extra passes after an MLIR stage's own passes.
  Pipeline &appendPasses(Stage stage, std::string passes);
  /// LLVM optimisation level 0..3 (also used for instruction selection).
  Pipeline &optLevel(int level);
  /// Threads a compile may use; 0 (the default) means as many as the CPUs
  /// this process may run on, 1 the calling thread alone. The passes of a
  /// stage that run per function (tiling and vectorization of each
  /// dispatch, TOSA lowering) run on several functions at once; the output
  /// is the same for any count. Action tracing and control, IR printing
  /// after every pass and reproducers run on one thread whatever the count.
  Pipeline &threads(unsigned count);
  /// Threads the compiled code runs its parallel loops on: the outermost
  /// tile loop of each op large enough to gain from them (a matmul's
  /// column blocks, an elementwise op's rows) becomes an OpenMP parallel
  /// loop. 0 (the default) uses as many as the OpenMP runtime does when the
  /// code runs (OMP_NUM_THREADS, else the CPUs the process may use); N asks
  /// for N; 1 keeps the code sequential, with no runtime to link. Code with
  /// a parallel loop names "omp" (LLVM's libomp) in the manifest's `link`;
  /// code whose ops are all too small for threads needs nothing. Results
  /// are the same for any count: each thread computes whole output tiles.
  Pipeline &runThreads(unsigned count);
  unsigned runThreads() const { return runThreads_; }
  /// The module's name, a C identifier: the header's namespace, the
  /// manifest's "module" and the embedded manifest's symbol
  /// (aot_manifest_NAME). Empty (the default): the name an earlier compile
  /// gave the input, when it is the output of an MLIR stage or LLVM IR, else
  /// the source file's stem ("models/mlp-2.mlir" -> mlp_2).
  Pipeline &moduleName(std::string name);
  const std::string &moduleName() const { return moduleName_; }
  /// Keeps constants of at least `minBytes` out of the code: the compile
  /// writes them into the safetensors file `file` (named by where each
  /// constant came from, e.g. "mlp.mlir:12:8"), and the code maps that file
  /// read-only when it first runs, checking each tensor's name, dtype,
  /// shape and content hash (aot/abi/Weights.h). The compile writes the
  /// file when it reaches stage llvm-ir. An empty `file` (the default)
  /// keeps every constant in the object's read-only data.
  Pipeline &externalWeights(std::string file,
                            std::uint64_t minBytes = kExternalWeightsMinBytes);
  /// The smallest constant externalWeights() moves by default.
  static constexpr std::uint64_t kExternalWeightsMinBytes = 1024;
  const std::string &externalWeightsFile() const { return weightsFile_; }
  std::uint64_t externalWeightsMinBytes() const { return weightsMinBytes_; }
  /// Writes the object code to the file `path` as code generation makes it,
  /// instead of keeping it in the artifact: the bytes of large constants go
  /// from where the parser put them into the file, so the compile never
  /// holds a second copy of its weights (the object of a module split into
  /// partitions is still assembled in memory first). `path` is replaced
  /// whole when the object stage ends (not at all if the compile fails; with
  /// WriteIf::Changed, not when its bytes are the same). The artifact then
  /// keeps no object unless keepOnly() also asks for it. Empty (the default):
  /// the object stays in memory.
  Pipeline &objectFile(std::string path, WriteIf when = WriteIf::Always);
  const std::string &objectFile() const { return objectFile_; }
  WriteIf objectFileWriteIf() const { return objectFileWhen_; }
  /// Tracing and inspection switches for compiles with this pipeline.
  Pipeline &debug(DebugOptions options);
  /// Keeps only these stage outputs in the artifact: `text` the output of
  /// each (MLIR text, LLVM IR, assembly, object), `bytecode` MLIR stages as
  /// bytecode. The default keeps everything that runs. Printing a stage
  /// costs time and memory in proportion to its constants, so a compile that
  /// needs only its object code should keep only that; a stage that is not
  /// kept still runs (and the assembly stage, if not kept, emits nothing).
  /// Artifact::keepFor() lists what an output needs.
  Pipeline &keepOnly(std::vector<Stage> text, std::vector<Stage> bytecode);
  /// Whether the artifact keeps the output of `stage` as text (or bytes).
  bool keepsText(Stage stage) const;
  /// Whether the artifact keeps MLIR stage `stage` as bytecode.
  bool keepsBytecode(Stage stage) const;

  Stage firstStage() const { return first_; }
  Stage lastStage() const { return last_; }
  int optLevel() const { return optLevel_; }
  unsigned threads() const { return threads_; }
  const DebugOptions &debug() const { return debug_; }
  /// The pass list a stage runs: the replacement if set, else the default
  /// of `target`'s back end.
  std::string stagePasses(Stage stage,
                          const Target &target = Target::host()) const;
  /// Passes appended after a stage ("" if none).
  std::string appendedPasses(Stage stage) const;
  /// The built-in pass list of an MLIR stage of `target`'s back end ("" for
  /// a stage without MLIR passes).
  static std::string defaultStagePasses(Stage stage,
                                        const Target &target = Target::host());
  /// Checks the option values, and the stage range and replaced stages
  /// against `target`'s stage table.
  Status validate(const Target &target = Target::host()) const;

private:
  Stage first_ = Stage::Input;
  Stage last_ = Stage::Object;
  int optLevel_ = 2;
  unsigned threads_ = 0;
  unsigned runThreads_ = 0;
  std::string moduleName_;
  std::string weightsFile_;
  std::uint64_t weightsMinBytes_ = kExternalWeightsMinBytes;
  std::string objectFile_;
  WriteIf objectFileWhen_ = WriteIf::Always;
  DebugOptions debug_;
  /// Unset: keep every stage that runs.
  std::optional<std::vector<Stage>> keptText_, keptBytecode_;
  std::map<Stage, std::string> replaced_;
  std::map<Stage, std::string> appended_;
};

} // namespace aot
