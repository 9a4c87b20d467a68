//===- Artifact.cpp - writing an artifact's products ----------------------===//
#include "aot/Artifact.h"

#include "Artifact/Writers.h"
#include "Support/FileWriter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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
};
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
  std::span<const StageInfo> table = stagesOf(target_);
  const auto &outputs = bytecode ? stageBytecode_ : stages_;
  for (size_t i = 0; i < table.size() && i < outputs.size(); ++i)
    if (table[i].stage == stage)
      return outputs[i];
  return none;
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

/// The output of `stage`, or an error saying which compile would produce it.
static Expected<std::string> stageOutput(const Artifact &a, Stage stage,
                                         EmitKind kind) {
  if (const auto &s = a.stage(stage))
    return *s;
  return Error::message("cannot emit " + std::string(emitKindName(kind)) +
                        ": stage '" + std::string(stageName(stage)) +
                        "' did not run (the compile stopped at '" +
                        std::string(stageName(a.lastStage())) + "')");
}

/// The last MLIR stage that ran, for .mlir / .mlirbc output.
static std::optional<Stage> lastMlirStage(const Artifact &a) {
  std::span<const StageInfo> table = stagesOf(a.target());
  for (size_t i = table.size(); i-- > 0;)
    if (table[i].form == StageForm::Mlir && a.stage(table[i].stage))
      return table[i].stage;
  return std::nullopt;
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
    if (kind == EmitKind::LlvmIr && !this->stage(stage))
      stage = Stage::LlvmIr;
    auto contents = stageOutput(*this, stage, kind);
    if (!contents)
      return contents.error();
    return writeFile(path, *contents, when);
  }
  case EmitKind::StaticLib:
  case EmitKind::SharedLib: {
    auto object = stageOutput(*this, Stage::Object, kind);
    if (!object)
      return object.error();
    return kind == EmitKind::StaticLib
               ? writeStaticLibrary(path, manifest_.module, *object, when)
               : writeSharedLibrary(path, *object, manifest_, when);
  }
  case EmitKind::Mlir:
  case EmitKind::Bytecode: {
    std::optional<Stage> stage = lastMlirStage(*this);
    if (!stage)
      return Error::message("cannot emit " + std::string(emitKindName(kind)) +
                            ": no MLIR stage ran");
    return writeFile(path,
                     kind == EmitKind::Mlir ? *this->stage(*stage)
                                            : *stageBytecode(*stage),
                     when);
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

Status Artifact::write(const std::string &path) const {
  std::optional<EmitKind> kind = emitKindForPath(path);
  if (!kind)
    return Error::message(
        "cannot tell what to write to '" + path +
        "' from its extension; use one of .o .a .so .ll .s .mlir .mlirbc .h "
        ".json or name the kind explicitly");
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
