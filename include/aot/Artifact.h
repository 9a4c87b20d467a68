//===- Artifact.h - what one compile produced -----------------------------===//
#pragma once

#include "aot/Diagnostics.h"
#include "aot/Manifest.h"
#include "aot/Pipeline.h"
#include "aot/Target.h"
#include "aot/WriteIf.h"
#include "aot/abi/Tensor.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace aot {

/// The kinds of file an artifact can be written as.
enum class EmitKind {
  Object,    ///< .o  relocatable object
  StaticLib, ///< .a  archive holding the object
  SharedLib, ///< .so linked with the system linker driver
  LlvmIr,    ///< .ll optimised LLVM IR
  Asm,       ///< .s  target assembly
  Mlir,      ///< .mlir the last MLIR stage, as text
  Bytecode,  ///< .mlirbc the last MLIR stage, as bytecode
  Header,    ///< .h  typed C++ wrappers of the exported functions
  Manifest,  ///< .json function signatures and link requirements
  Ptx,       ///< .ptx the GPU kernels as PTX (cuda targets)
  Cubin,     ///< .cubin the GPU kernels as a cubin (cuda targets, ptxas)
};

/// The emit kind named on the command line ("object", "static-lib", ...).
std::optional<EmitKind> parseEmitKind(std::string_view name);
/// The emit kind an output file's extension implies.
std::optional<EmitKind> emitKindForPath(std::string_view path);
std::string_view emitKindName(EmitKind kind);

/// An argument to LoadedModule::call: a tensor view or a scalar value.
using CallArg = std::variant<abi::Tensor, bool, std::int8_t, std::int16_t,
                             std::int32_t, std::int64_t, float, double>;

namespace detail {
template <typename T, typename Variant> struct IsAlternative;
template <typename T, typename... Ts>
struct IsAlternative<T, std::variant<Ts...>>
    : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};
} // namespace detail

/// Whether a scalar CallArg holds a `T` (bool, std::int8_t ... double).
template <typename T>
inline constexpr bool isScalarCallArg =
    detail::IsAlternative<T, CallArg>::value && !std::is_same_v<T, abi::Tensor>;

/// Calls f(T{}) with the C++ type a scalar CallArg of `dtype` holds and
/// returns true; returns false, calling nothing, for a dtype that no scalar
/// argument takes (unsigned, half and 8-bit floats, i4).
template <typename F> bool visitScalarCallArg(abi::DType dtype, F &&f) {
  return abi::visitDType(dtype, [&](auto tag) {
    if constexpr (isScalarCallArg<decltype(tag)>) {
      f(tag);
      return true;
    } else {
      return false;
    }
  });
}

/// Compiled code loaded into this process. Calls check every argument's
/// dtype, rank and static dims against the manifest before entering the code.
/// Must outlive nothing it returned: results own their buffers.
class LoadedModule {
public:
  LoadedModule(LoadedModule &&) noexcept;
  LoadedModule &operator=(LoadedModule &&) noexcept;
  ~LoadedModule();

  /// Loads a shared library that mlir-aot wrote (`aot-compile -o m.so`),
  /// described by the manifest embedded in it; its external weights, if
  /// any, are loaded from the file the manifest names. The library stays
  /// loaded for the rest of the process, as results may point into it.
  static Expected<LoadedModule> open(const std::string &path);

  const Manifest &manifest() const;
  /// Calls `function`; results are tensors (scalar results are rank-0
  /// tensors). Results that alias an argument borrow the caller's memory;
  /// every other result owns its buffer, shared by aliasing results.
  Expected<std::vector<abi::Tensor>> call(std::string_view function,
                                          const std::vector<CallArg> &args);

private:
  friend class Artifact;
  struct Impl;
  explicit LoadedModule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// The manifests embedded in a file that mlir-aot wrote (.o, .a or .so), one
/// per module it holds, so that the file alone says how to call it. For an
/// object or archive `link` is derived from its undefined symbols, as the
/// compile derived it; a shared library records its own dependencies, and
/// its `link` is empty. A file without one is an error naming it.
Expected<std::vector<Manifest>> embeddedManifests(const std::string &path);

/// The products of one compile, all in memory. Which ones exist depends on
/// the stages that ran: an artifact compiled to Stage::Llvm has MLIR snapshots
/// but no object code.
class Artifact {
public:
  /// Snapshot of a stage's output: MLIR text for MLIR stages, LLVM IR text,
  /// assembly text, or object bytes. Empty optional if the stage did not run
  /// (or is not a stage of the artifact's target).
  const std::optional<std::string> &stage(Stage stage) const;
  /// An MLIR stage's output as bytecode (empty optional for other stages).
  const std::optional<std::string> &stageBytecode(Stage stage) const;
  /// The last stage that ran.
  Stage lastStage() const { return last_; }
  /// Whether `stage` ran, its output kept or not (Pipeline::keepOnly).
  bool ran(Stage stage) const;
  /// The target it was compiled for; its back end's table names the stages.
  const Target &target() const { return target_; }
  const Manifest &manifest() const { return manifest_; }
  /// Warnings of the compile (severity Warning): what it did but the user
  /// may not expect, e.g. debug info without line tables. aot-compile prints
  /// them; they never fail a compile.
  const std::vector<Diagnostic> &warnings() const { return warnings_; }

  /// Writes the artifact as `kind` to `path` (parent directory must exist;
  /// "-" is standard output). The file is replaced whole or not at all: a
  /// failed write leaves an existing file intact.
  Status write(const std::string &path, EmitKind kind,
               WriteIf when = WriteIf::Always) const;
  /// Writes the artifact to `path`, its kind following the extension.
  Status write(const std::string &path) const;
  /// Links `objectFile`, the object that this artifact's compile wrote
  /// (Pipeline::objectFile), into a shared library at `path`, as
  /// write(path, EmitKind::SharedLib) does from the object it keeps: a
  /// compile with large weights need not hold its object in memory.
  Status writeSharedLibrary(const std::string &objectFile,
                            const std::string &path,
                            WriteIf when = WriteIf::Always) const;
  /// Writes every stage that ran into `dir` with stable names
  /// (00-input.mlir ... 08-object.o); MLIR stages as bytecode if asked.
  Status writeStages(const std::string &dir, bool bytecode = false) const;
  /// The typed C++ header of the exported functions.
  std::string header() const;
  /// Adds to `text` and `bytecode` the stage outputs that write(path, kind)
  /// reads after a compile with `pipeline` for `target`, for
  /// Pipeline::keepOnly: `-o m.o` needs the object, `-o m.mlir` the text of
  /// the last MLIR stage that runs, `-o m.h` nothing.
  static void keepFor(EmitKind kind, const Pipeline &pipeline,
                      const Target &target, std::vector<Stage> &text,
                      std::vector<Stage> &bytecode);
  /// Links the object code into this process (in memory, no files).
  Expected<LoadedModule> load() const;

private:
  friend struct ArtifactBuilder;
  const std::optional<std::string> &find(Stage stage, bool bytecode) const;
  /// The output of `stage` that write() needs as `kind`, or an error saying
  /// why there is none.
  Expected<std::string> output(Stage stage, bool bytecode, EmitKind kind) const;

  Target target_;
  /// One entry per stage of the target's back end, in its order.
  std::vector<std::optional<std::string>> stages_;
  std::vector<std::optional<std::string>> stageBytecode_;
  /// Which stages ran, kept or not.
  std::vector<bool> ran_;
  Stage last_ = Stage::Input;
  Manifest manifest_;
  std::vector<Diagnostic> warnings_;
};

} // namespace aot
