//===- Backend.h - what a target kind's back end supplies to a compile ----===//
//
// One interface per target kind, after IREE's TargetBackend and Triton's
// add_stages: a back end declares its stages as a table, builds the pass
// lists of its MLIR stages, registers the dialects they need, runs the
// stages past MLIR (code generation) and declares the libraries its code
// links against. The compile driver (lib/Compiler.cpp), the stage API
// (lib/Pipeline/Pipeline.cpp), `aot-compile --list-stages` and
// add_aot_target read everything stage-related from here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Manifest.h"
#include "aot/Pipeline.h"
#include "aot/Target.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace aot {

struct LinkSymbol;

/// The part of one compile that a back end's code generation works in: the
/// stage range, where stage outputs go, the manifest and the diagnostics.
/// The compile implements it (lib/Pipeline/CompileContext.h), over the
/// artifact it fills and its debugging session, which sit above the back
/// ends.
class CodegenContext {
public:
  virtual ~CodegenContext();

  virtual const Target &target() const = 0;
  /// The compile's threads, or null when it runs on the calling thread.
  virtual llvm::ThreadPoolInterface *pool() const = 0;
  virtual const Pipeline &pipeline() const = 0;
  /// True when `stage` is inside the pipeline's first..last range.
  bool runs(Stage stage) const;
  /// True when `stage` runs and the pipeline keeps its output: print or
  /// emit text for it only then.
  bool wants(Stage stage) const;
  /// Marks the start of `stage` (for the timing report) when it runs.
  virtual void begin(Stage stage) = 0;
  /// Keeps a stage's output in the artifact if the pipeline keeps it; the
  /// stage becomes the artifact's last stage either way.
  virtual void keep(Stage stage, std::string contents) = 0;
  /// Records that a stage ran whose output is not wanted.
  virtual void reached(Stage stage) = 0;
  virtual Manifest &manifest() = 0;
  virtual std::vector<Diagnostic> &warnings() = 0;
  /// The diagnostics MLIR reported, if any were errors; else `error`.
  virtual Error withDiagnostics(const Error &error) = 0;
};

/// A back end. Implementations live in lib/Backend/<Name>/ and are listed in
/// allBackends() (lib/Backend/Registry.cpp); they hold no per-compile state,
/// so one instance serves concurrent compiles.
class Backend {
public:
  virtual ~Backend();

  /// The kind of target this back end compiles for.
  virtual Target::Kind kind() const = 0;
  /// The prefix of its target specs, "cpu" in `cpu:x86_64-linux-gnu`.
  virtual std::string_view name() const = 0;
  /// How its target specs read, for messages: "cpu:TRIPLE[,cpu=NAME]...".
  virtual std::string_view specSyntax() const = 0;
  /// Parses what follows "NAME:" in a target spec.
  virtual Expected<Target> parseTarget(std::string_view options,
                                       std::string_view spec) const = 0;
  /// The spelling parseTarget() accepts, prefix included.
  virtual std::string targetString(const Target &target) const = 0;
  /// Whether code can be generated for `target` in this build; the error
  /// says why not (an unknown chip, a back end that is not built yet).
  virtual Status checkTarget(const Target &target) const = 0;

  /// The stages, in order: Stage::Input first, the MLIR stages, then code
  /// generation, ending with Stage::Object. Names and extensions are stable.
  virtual std::span<const StageInfo> stages() const = 0;
  /// The built-in pass list of an MLIR stage as a textual pipeline (anchored
  /// on the module, without `builtin.module(...)`); "" for other stages.
  virtual std::string defaultPasses(Stage stage,
                                    const Target &target) const = 0;
  /// The dialects and interface models the stages need beyond the input
  /// contract (lib/Frontend/Registration.cpp).
  virtual void registerDialects(mlir::DialectRegistry &registry) const = 0;
  /// Registers, once per process, the passes the default lists name.
  virtual void registerPasses() const = 0;

  /// Called after each MLIR stage ran, on its output: a back end's view of
  /// a stage for its debugging switches (the CUDA back end writes the
  /// outlined kernels for --dump-kernels). Nothing by default.
  virtual Status afterStage(Stage stage, mlir::ModuleOp module,
                            CodegenContext &ctx) const;

  /// Runs the stages after the last MLIR stage that are in the context's
  /// range, on `module` (the last MLIR stage's output).
  virtual Status generate(mlir::ModuleOp module, CodegenContext &ctx) const = 0;
  /// Runs the stages in the context's range when the compile starts past
  /// the MLIR stages: `source` holds the output of the stage before the
  /// first one (LLVM IR text, say), named `sourceName` in errors.
  virtual Status generateFrom(std::string_view source,
                              const std::string &sourceName,
                              CodegenContext &ctx) const = 0;

  /// The symbols its products may leave undefined, each with the library
  /// that defines it (lib/Backend/LinkTable.h). The loader defines the
  /// runtime's from the same table.
  virtual std::span<const LinkSymbol> linkTable() const = 0;

  /// The row of `stage`, or nullptr.
  const StageInfo *find(Stage stage) const;
  /// Position of `stage` in stages(); -1 if absent.
  int indexOf(Stage stage) const;
  bool isMlirStage(Stage stage) const;
};

/// The back end of `kind` (every Target::Kind has one).
const Backend &backendFor(Target::Kind kind);
inline const Backend &backendFor(const Target &target) {
  return backendFor(target.kind);
}
/// The back end whose target specs start with "NAME:", or nullptr.
const Backend *backendNamed(std::string_view name);
/// Every back end, in the order of Target::Kind.
std::span<const Backend *const> allBackends();

} // namespace aot
