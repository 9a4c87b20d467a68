//===- aot-compile-driver.cpp - the compiler behind aot-compile -----------===//
//
// A thin shell over the library: parse options, compile, write outputs,
// print diagnostics. aot-compile (Launcher.cpp) runs it with its own
// arguments unless the artifact cache already has the outputs. Exit 0 on
// success and 1 on any error; exceptions are caught so that no input ends
// the process with an abort.
//
//===----------------------------------------------------------------------===//
#include "Cache.h"
#include "Options.h"

#include "Support/ToolMain.h"
#include "aot/Bisect.h"
#include "aot/Compiler.h"
#include "aot/TraceDiff.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>

#include <unistd.h>

namespace {

int fail(const aot::Error &e) {
  std::cerr << e.str() << "\n";
  return 1;
}

/// The stages of the target's back end (--list-stages [--target=SPEC]).
void listStages(const aot::Target &target) {
  for (const aot::StageInfo &info : aot::stagesOf(target)) {
    aot::Stage s = info.stage;
    std::cout << aot::stageFileName(s, false, target) << "\t"
              << aot::stageName(s) << ": " << info.description << "\n";
    std::string passes = aot::Pipeline::defaultStagePasses(s, target);
    if (!passes.empty())
      std::cout << "    passes: " << passes << "\n";
  }
}

/// The -o output whose object the compile writes into a file as it makes
/// it (Pipeline::objectFile), not keeping it in memory: the only output that
/// needs the object, an object or a shared library (not standard output),
/// in a compile that reaches the object and dumps no stages.
const aot::cli::Options::Output *
streamedObject(const aot::cli::Options &options) {
  const aot::cli::Options::Output *object = nullptr;
  for (const aot::cli::Options::Output &out : options.outputs) {
    if (out.kind == aot::EmitKind::StaticLib)
      return nullptr;
    if (out.kind == aot::EmitKind::Object ||
        out.kind == aot::EmitKind::SharedLib) {
      if (object || out.path == "-")
        return nullptr;
      object = &out;
    }
  }
  bool reached = options.pipeline.lastStage() == aot::Stage::Object;
  return reached && options.dumpStagesDir.empty() ? object : nullptr;
}

/// Where the object of a streamed output goes: the output itself for an
/// object file; for a shared library, a file beside it that is removed once
/// the library is linked.
class StreamedObjectFile {
public:
  StreamedObjectFile(const aot::cli::Options::Output *out) {
    if (!out)
      return;
    if (out->kind == aot::EmitKind::Object) {
      path_ = out->path;
      return;
    }
    std::string pattern = out->path + ".object-XXXXXX";
    int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
      error_ =
          aot::Error::at(out->path, 0, 0,
                         "cannot write: " + std::string(std::strerror(errno)));
      return;
    }
    ::close(fd);
    path_ = temporary_ = pattern;
  }
  StreamedObjectFile(const StreamedObjectFile &) = delete;
  StreamedObjectFile &operator=(const StreamedObjectFile &) = delete;
  ~StreamedObjectFile() {
    if (!temporary_.empty())
      std::remove(temporary_.c_str());
  }
  const std::string &path() const { return path_; }
  /// Why the file beside the library could not be made.
  const std::optional<aot::Error> &error() const { return error_; }

private:
  std::string path_, temporary_;
  std::optional<aot::Error> error_;
};

/// The pipeline, keeping only the stage outputs that the -o files and the
/// stage dumps read: printing a stage nobody reads is most of the cost of a
/// compile with large constants. The object of `streamed` (streamedObject's
/// output, or null) is written to `objectFile` as it is made, not kept.
aot::Pipeline keepingOnlyOutputs(const aot::cli::Options &options,
                                 aot::WriteIf when,
                                 const aot::cli::Options::Output *streamed,
                                 const StreamedObjectFile &objectFile) {
  std::vector<aot::Stage> text, bytecode;
  if (!options.dumpStagesDir.empty())
    for (const aot::StageInfo &info : aot::stagesOf(options.target)) {
      bool asBytecode =
          options.stagesAsBytecode && info.form == aot::StageForm::Mlir;
      (asBytecode ? bytecode : text).push_back(info.stage);
    }
  for (const aot::cli::Options::Output &out : options.outputs)
    if (&out != streamed)
      aot::Artifact::keepFor(out.kind, options.pipeline, options.target, text,
                             bytecode);
  aot::Pipeline pipeline = options.pipeline;
  if (streamed)
    pipeline.objectFile(
        objectFile.path(),
        streamed->kind == aot::EmitKind::Object ? when : aot::WriteIf::Always);
  return pipeline.keepOnly(std::move(text), std::move(bytecode));
}

/// --bisect-actions: the search's findings on stdout; exit 0 when it found
/// the culprit, 1 otherwise.
int bisect(const aot::Compiler &compiler, const aot::cli::Options &options) {
  aot::abi::Tolerance tolerance;
  tolerance.rtol = options.rtol;
  tolerance.atol = options.atol;
  auto result = aot::bisectActions(
      compiler, aot::Source::file(options.input).format(options.inputFormat),
      options.pipeline, options.target, options.reference, tolerance);
  if (!result)
    return fail(result.error());
  if (!result->baseline.empty())
    std::cout << "bisect: as compiled, " << result->baseline << "\n";
  std::cout << "bisect: " << result->summary << " (" << result->compiles
            << " compiles)\n";
  if (!result->found)
    return 1;
  auto show = [](const aot::ActionInfo &a) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive)
    // on "[" + std::to_string(...).
    std::string s = "[";
    s += std::to_string(a.index);
    s += "] ";
    s += a.description;
    if (!a.op.empty() && a.tag != "pass-execution")
      s += " on '" + a.op + "'";
    if (!a.location.empty())
      s += " at " + a.location;
    return s;
  };
  std::cout << "first action that makes the results differ:\n  "
            << show(result->action) << "\n  in " << show(result->pass) << "\n";
  return 0;
}

/// --diff-traces: the first launch whose buffers differ on stdout; exit 0
/// when the traces agree, 1 when they differ or cannot be read.
int diffTraces(const aot::cli::Options &options) {
  auto diff =
      aot::diffKernelTraces(options.diffTraces[0], options.diffTraces[1],
                            {options.rtol, options.atol});
  if (!diff)
    return fail(diff.error());
  std::cout << diff->report;
  return diff->same ? 0 : 1;
}

/// --print-manifest FILE: the manifest of each module FILE holds.
int printManifest(const std::string &path) {
  auto manifests = aot::embeddedManifests(path);
  if (!manifests)
    return fail(manifests.error());
  for (const aot::Manifest &manifest : *manifests)
    std::cout << manifest.toJson();
  return 0;
}

int run(const std::vector<std::string> &args) {
  auto options = aot::cli::parseOptions(args);
  if (!options)
    return fail(options.error());
  if (options->help) {
    std::cout << aot::cli::usage();
    return 0;
  }
  if (options->version) {
    std::cout << aot::Compiler::version() << "\n";
    return 0;
  }
  if (options->listStages) {
    listStages(options->target);
    return 0;
  }

  if (!options->diffTraces.empty())
    return diffTraces(*options);
  if (options->printManifest)
    return printManifest(options->input);
  aot::WriteIf when =
      options->writeIfChanged ? aot::WriteIf::Changed : aot::WriteIf::Always;
  // aot-compile looked first, without loading the compiler; it can have
  // found the entry damaged, or another compile can have stored it since.
  auto cache = aot::cli::ArtifactCache::forCompile(args, "/proc/self/exe");
  bool damaged = false;
  if (cache)
    if (auto hit = cache->lookup(&damaged)) {
      if (options->cacheReport)
        std::cerr << "note: cache hit: " << cache->path() << "\n";
      if (auto error = cache->writeHit(*hit, when)) {
        std::cerr << *error << "\n";
        return 1;
      }
      return 0;
    }

  aot::Compiler compiler;
  if (options->bisectActions)
    return bisect(compiler, *options);
  const aot::cli::Options::Output *streamed = streamedObject(*options);
  StreamedObjectFile objectFile(streamed);
  if (objectFile.error())
    return fail(*objectFile.error());
  auto artifact = compiler.compile(
      aot::Source::file(options->input).format(options->inputFormat),
      keepingOnlyOutputs(*options, when, streamed, objectFile),
      options->target);
  if (!artifact)
    return fail(artifact.error());
  std::vector<std::string> warnings;
  for (const aot::Diagnostic &warning : artifact->warnings())
    warnings.push_back(warning.str());
  for (const std::string &warning : warnings)
    std::cerr << warning << "\n";

  if (!options->dumpStagesDir.empty())
    if (aot::Status s = artifact->writeStages(options->dumpStagesDir,
                                              options->stagesAsBytecode);
        !s)
      return fail(s.error());
  for (const aot::cli::Options::Output &out : options->outputs)
    if (&out != streamed)
      if (aot::Status s = artifact->write(out.path, out.kind, when); !s)
        return fail(s.error());
  if (streamed && streamed->kind == aot::EmitKind::SharedLib)
    if (aot::Status s = artifact->writeSharedLibrary(objectFile.path(),
                                                     streamed->path, when);
        !s)
      return fail(s.error());
  if (cache) {
    std::optional<std::string> lost = cache->store(warnings);
    if (options->cacheReport && lost)
      std::cerr << "note: cache " << (damaged ? "entry was damaged" : "miss")
                << ", not stored: " << *lost << "\n";
    else if (options->cacheReport)
      std::cerr << "note: cache "
                << (damaged ? "entry was damaged, replaced: "
                            : "miss, stored: ")
                << cache->path() << "\n";
  } else if (options->cacheReport) {
    std::cerr << "note: cache not used (no --cache-dir or $AOT_CACHE_DIR, "
                 "--no-cache, or a compile that writes other files)\n";
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  return aot::toolMain("aot-compile", argc, argv, run);
}
