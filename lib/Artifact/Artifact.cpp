//===- Artifact.cpp - writing an artifact's products ----------------------===//
#include "aot/Artifact.h"

#include "Artifact/Writers.h"
#include "Backend/Backend.h"
#include "Support/FileWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace aot {

namespace {
struct EmitInfo {
  EmitKind kind;
  std::string_view name;
  std::string_view extension;
};
constexpr EmitInfo kEmitKinds[] = {
    {EmitKind::Object, "object", ".o"},
    {EmitKind::StaticLib, "static-lib", ".a"},
    {EmitKind::SharedLib, "shared-lib", ".so"},
    {EmitKind::LlvmIr, "llvm-ir", ".ll"},
    {EmitKind::Asm, "asm", ".s"},
    {EmitKind::Mlir, "mlir", ".mlir"},
    {EmitKind::Bytecode, "bytecode", ".mlirbc"},
    {EmitKind::Header, "header", ".h"},
    {EmitKind::Manifest, "manifest", ".json"},
    {EmitKind::Ptx, "ptx", ".ptx"},
    {EmitKind::Cubin, "cubin", ".cubin"},
};

constexpr Stage kPtx{"ptx"};
constexpr Stage kCubin{"cubin"};

/// The stage whose output a kernel kind is.
Stage kernelStage(EmitKind kind) {
  return kind == EmitKind::Ptx ? kPtx : kCubin;
}
} // namespace

std::optional<EmitKind> parseEmitKind(std::string_view name) {
  for (const EmitInfo &e : kEmitKinds)
    if (e.name == name)
      return e.kind;
  return std::nullopt;
}

std::optional<EmitKind> emitKindForPath(std::string_view path) {
  std::string_view ext =
      llvm::sys::path::extension(llvm::StringRef(path.data(), path.size()));
  for (const EmitInfo &e : kEmitKinds)
    if (e.extension == ext)
      return e.kind;
  return std::nullopt;
}

std::string_view emitKindName(EmitKind kind) {
  for (const EmitInfo &e : kEmitKinds)
    if (e.kind == kind)
      return e.name;
  return "?";
}

const std::optional<std::string> &Artifact::find(Stage stage,
                                                 bool bytecode) const {
  static const std::optional<std::string> none;
  const auto &outputs = bytecode ? stageBytecode_ : stages_;
  int index = backendFor(target_).indexOf(stage);
  return index >= 0 && size_t(index) < outputs.size() ? outputs[index] : none;
}

const std::optional<std::string> &Artifact::stage(Stage stage) const {
  return find(stage, /*bytecode=*/false);
}

const std::optional<std::string> &Artifact::stageBytecode(Stage stage) const {
  return find(stage, /*bytecode=*/true);
}

Status writeFile(const std::string &path, std::string_view contents,
                 WriteIf when) {
  if (std::error_code ec = writeFileAtomically(path, contents, when))
    return Error::at(path, 0, 0, "cannot write: " + ec.message());
  return Status::ok();
}

Expected<std::string> Artifact::output(Stage stage, bool bytecode,
                                       EmitKind kind) const {
  if (const auto &s = find(stage, bytecode))
    return *s;
  std::string what = "cannot emit " + std::string(emitKindName(kind)) +
                     ": stage '" + std::string(stageName(stage)) + "'";
  if (ran(stage))
    return Error::message(what + " ran, but the compile did not keep its " +
                          (bytecode ? "bytecode" : "output") +
                          " (Pipeline::keepOnly)");
  return Error::message(what + " did not run (the compile stopped at '" +
                        std::string(stageName(lastStage())) + "')");
}

bool Artifact::ran(Stage stage) const {
  int index = backendFor(target_).indexOf(stage);
  return index >= 0 && size_t(index) < ran_.size() && ran_[index];
}

/// The last MLIR stage that ran, for .mlir / .mlirbc output.
static std::optional<Stage> lastMlirStage(const Artifact &a,
                                          const std::vector<bool> &ran) {
  std::span<const StageInfo> table = stagesOf(a.target());
  for (size_t i = std::min(table.size(), ran.size()); i-- > 0;)
    if (table[i].form == StageForm::Mlir && ran[i])
      return table[i].stage;
  return std::nullopt;
}

Status Artifact::writeSharedLibrary(const std::string &objectFile,
                                    const std::string &path,
                                    WriteIf when) const {
  return linkSharedLibrary(path, objectFile, manifest_, when);
}

Status Artifact::write(const std::string &path, EmitKind kind,
                       WriteIf when) const {
  switch (kind) {
  case EmitKind::Object:
  case EmitKind::LlvmIr:
  case EmitKind::Asm: {
    Stage stage = kind == EmitKind::Object ? Stage::Object
                  : kind == EmitKind::Asm  ? Stage::Asm
                                           : Stage::LlvmIrOpt;
    // Without the -O pipeline, the unoptimised IR is the IR there is.
    if (kind == EmitKind::LlvmIr && !ran(Stage::LlvmIrOpt))
      stage = Stage::LlvmIr;
    auto contents = output(stage, /*bytecode=*/false, kind);
    if (!contents)
      return contents.error();
    return writeFile(path, *contents, when);
  }
  case EmitKind::StaticLib:
  case EmitKind::SharedLib: {
    auto object = output(Stage::Object, /*bytecode=*/false, kind);
    if (!object)
      return object.error();
    return kind == EmitKind::StaticLib
               ? writeStaticLibrary(path, manifest_.module, *object, when)
               : aot::writeSharedLibrary(path, *object, manifest_, when);
  }
  case EmitKind::Mlir:
  case EmitKind::Bytecode: {
    std::optional<Stage> stage = lastMlirStage(*this, ran_);
    if (!stage)
      return Error::message("cannot emit " + std::string(emitKindName(kind)) +
                            ": no MLIR stage ran");
    auto contents = output(*stage, kind == EmitKind::Bytecode, kind);
    if (!contents)
      return contents.error();
    return writeFile(path, *contents, when);
  }
  case EmitKind::Ptx:
  case EmitKind::Cubin: {
    const Stage stage = kernelStage(kind);
    const std::string what = "cannot emit " + std::string(emitKindName(kind));
    if (backendFor(target_).indexOf(stage) < 0)
      return Error::message(what + ": target " + target_.str() +
                            " makes no GPU kernels (use --target=cuda:CHIP)");
    // ptxas missing: the compile warned and made the PTX only.
    const bool noPtxas = std::any_of(
        warnings_.begin(), warnings_.end(), [](const Diagnostic &d) {
          return d.message.rfind("ptxas was not found", 0) == 0;
        });
    if (kind == EmitKind::Cubin && ran(stage) && !find(stage, false) &&
        noPtxas)
      return Error::message(what + ": ptxas was not found, so the compile "
                                   "made PTX only; set CUDA_HOME to a CUDA "
                                   "toolkit, or write the PTX (-o k.ptx)");
    auto contents = output(stage, /*bytecode=*/false, kind);
    if (!contents)
      return contents.error();
    return writeFile(path, *contents, when);
  }
  case EmitKind::Header:
  case EmitKind::Manifest:
    // LLVM IR does not carry the tensor signatures: say so rather than write
    // a header or manifest that silently lists nothing.
    if (manifest_.functions.empty())
      return Error::message(
          "cannot emit " + std::string(emitKindName(kind)) +
          ": the function signatures are unknown when the compile starts "
          "from LLVM IR (--compile-from=llvm-ir-opt or later)");
    return writeFile(
        path, kind == EmitKind::Header ? header() : manifest_.toJson(), when);
  }
  return Error::message("unknown emit kind");
}

void Artifact::keepFor(EmitKind kind, const Pipeline &pipeline,
                       const Target &target, std::vector<Stage> &text,
                       std::vector<Stage> &bytecode) {
  const Backend &backend = backendFor(target);
  std::span<const StageInfo> stages = backend.stages();
  auto index = [&](Stage s) { return backend.indexOf(s); };
  int first = index(pipeline.firstStage()), last = index(pipeline.lastStage());
  auto runs = [&](Stage s) { return first <= index(s) && index(s) <= last; };
  switch (kind) {
  case EmitKind::Object:
  case EmitKind::StaticLib:
  case EmitKind::SharedLib:
    text.push_back(Stage::Object);
    return;
  case EmitKind::Asm:
    text.push_back(Stage::Asm);
    return;
  case EmitKind::LlvmIr:
    text.push_back(runs(Stage::LlvmIrOpt) ? Stage::LlvmIrOpt : Stage::LlvmIr);
    return;
  case EmitKind::Mlir:
  case EmitKind::Bytecode:
    for (int i = std::min(last, int(stages.size()) - 1); i >= first && i >= 0;
         --i)
      if (stages[i].form == StageForm::Mlir) {
        (kind == EmitKind::Mlir ? text : bytecode).push_back(stages[i].stage);
        return;
      }
    return;
  case EmitKind::Ptx:
  case EmitKind::Cubin:
    if (backend.indexOf(kernelStage(kind)) >= 0)
      text.push_back(kernelStage(kind));
    return;
  case EmitKind::Header:
  case EmitKind::Manifest:
    return;
  }
}

Status Artifact::write(const std::string &path) const {
  std::optional<EmitKind> kind = emitKindForPath(path);
  if (!kind)
    return Error::message(
        "cannot tell what to write to '" + path +
        "' from its extension; use one of .o .a .so .ll .s .mlir .mlirbc .h "
        ".json .ptx .cubin or name the kind explicitly");
  return write(path, *kind);
}

Status Artifact::writeStages(const std::string &dir, bool bytecode) const {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return Error::at(dir, 0, 0, "cannot create directory: " + ec.message());
  for (const StageInfo &info : stagesOf(target_)) {
    Stage s = info.stage;
    const std::optional<std::string> &contents =
        bytecode && info.form == StageForm::Mlir ? stageBytecode(s) : stage(s);
    if (!contents)
      continue;
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, stageFileName(s, bytecode, target_));
    if (Status st = writeFile(std::string(path), *contents); !st)
      return st;
  }
  return Status::ok();
}

std::string Artifact::header() const { return generateHeader(manifest_); }

} // namespace aot
