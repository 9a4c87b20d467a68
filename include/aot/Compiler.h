//===- Compiler.h - the in-process ahead-of-time compiler -----------------===//
#pragma once

#include "aot/Artifact.h"
#include "aot/Diagnostics.h"
#include "aot/Pipeline.h"
#include "aot/Target.h"

#include <memory>
#include <string>

namespace aot {

/// What a source holds.
enum class SourceFormat {
  /// Told by the name: a file named `*.onnx` is ONNX, anything else MLIR.
  Auto,
  /// MLIR text or bytecode, told apart by content.
  Mlir,
  /// An ONNX model. A protobuf has no magic number to tell it by: give this
  /// format for a model whose name does not end in `.onnx`.
  Onnx,
};

/// What to compile: a file (read when compile() runs) or a buffer in memory.
/// MLIR text and bytecode are told apart by content, ONNX by name or by an
/// explicit format().
class Source {
public:
  static Source file(std::string path);
  /// `name` is the file name diagnostics and debug info will show.
  static Source memory(std::string contents, std::string name = "<memory>");

  const std::string &name() const { return name_; }
  bool isFile() const { return isFile_; }
  const std::string &contents() const { return contents_; }

  /// Reads the source as `f` (Auto: by its name).
  Source &format(SourceFormat f) {
    format_ = f;
    return *this;
  }
  /// The format the source is read as: never Auto.
  SourceFormat format() const;

private:
  std::string name_;
  std::string contents_;
  bool isFile_ = false;
  SourceFormat format_ = SourceFormat::Auto;
};

/// The compiler. Owns the dialect registry; each compile gets its own MLIR
/// context, so one Compiler may compile on several threads at once.
class Compiler {
public:
  Compiler();
  ~Compiler();
  Compiler(const Compiler &) = delete;
  Compiler &operator=(const Compiler &) = delete;

  /// Runs `pipeline` on `source` for `target`. Every failure (unreadable
  /// file, malformed input, an op outside the input contract, a pass failure)
  /// comes back as an Error with located diagnostics.
  Expected<Artifact> compile(const Source &source,
                             const Pipeline &pipeline = Pipeline(),
                             const Target &target = Target::host()) const;

  /// The version string `aot-compile --version` prints.
  static std::string version();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace aot
