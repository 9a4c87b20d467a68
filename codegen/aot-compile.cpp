//===- aot-compile.cpp - the command-line driver --------------------------===//
//
// A thin shell over the library: parse options, compile, write outputs,
// print diagnostics. Exit 0 on success and 1 on any error; exceptions are
// caught so that no input ends the process with an abort.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "aot/Bisect.h"
#include "aot/Compiler.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <unistd.h>

namespace {

int fail(const aot::Error &e) {
  std::cerr << e.str() << "\n";
  return 1;
}

void listStages() {
  for (aot::Stage s : aot::kAllStages) {
    std::cout << aot::stageFileName(s) << "\t" << aot::stageName(s) << ": "
              << aot::stageDescription(s) << "\n";
    std::string passes = aot::Pipeline::defaultStagePasses(s);
    if (!passes.empty())
      std::cout << "    passes: " << passes << "\n";
  }
}

/// Text kinds go to stdout through a temporary file written by the same code
/// path as any other output, so both behave identically.
aot::Status writeToStdout(const aot::Artifact &artifact, aot::EmitKind kind) {
  auto tmp = std::filesystem::temp_directory_path() /
             ("aot-compile-" + std::to_string(::getpid()) + ".out");
  aot::Status s = artifact.write(tmp.string(), kind);
  if (s) {
    std::FILE *f = std::fopen(tmp.c_str(), "rb");
    char buf[65536];
    size_t n;
    while (f && (n = std::fread(buf, 1, sizeof buf, f)) > 0)
      std::fwrite(buf, 1, n, stdout);
    if (f)
      std::fclose(f);
  }
  std::filesystem::remove(tmp);
  return s;
}

bool sameContents(const std::filesystem::path &a,
                  const std::filesystem::path &b) {
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  if (!fa || !fb)
    return false;
  return std::equal(
      std::istreambuf_iterator<char>(fa), std::istreambuf_iterator<char>(),
      std::istreambuf_iterator<char>(fb), std::istreambuf_iterator<char>());
}

/// Writes `path` unless it is a regular file that already holds exactly
/// these bytes: the new output goes to a sibling file first, which replaces
/// `path` only when different.
aot::Status writeIfChanged(const aot::Artifact &artifact,
                           const std::string &path, aot::EmitKind kind) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return artifact.write(path, kind);
  std::string fresh = path + ".aot-new";
  if (aot::Status s = artifact.write(fresh, kind); !s) {
    std::filesystem::remove(fresh, ec);
    return s;
  }
  if (sameContents(fresh, path)) {
    std::filesystem::remove(fresh, ec);
    return aot::Status::ok();
  }
  std::filesystem::rename(fresh, path, ec);
  if (ec) {
    std::filesystem::remove(fresh, ec);
    return aot::Error::at(path, 0, 0, "cannot write: " + ec.message());
  }
  return aot::Status::ok();
}

/// --bisect-actions: the search's findings on stdout; exit 0 when it found
/// the culprit, 1 otherwise.
int bisect(const aot::Compiler &compiler, const aot::cli::Options &options) {
  aot::abi::Tolerance tolerance;
  tolerance.rtol = options.rtol;
  tolerance.atol = options.atol;
  auto result = aot::bisectActions(compiler, aot::Source::file(options.input),
                                   options.pipeline, options.target,
                                   options.reference, tolerance);
  if (!result)
    return fail(result.error());
  if (!result->baseline.empty())
    std::cout << "bisect: as compiled, " << result->baseline << "\n";
  std::cout << "bisect: " << result->summary << " (" << result->compiles
            << " compiles)\n";
  if (!result->found)
    return 1;
  auto show = [](const aot::ActionInfo &a) {
    std::string s = "[" + std::to_string(a.index) + "] " + a.description;
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
    listStages();
    return 0;
  }

  aot::Compiler compiler;
  if (options->bisectActions)
    return bisect(compiler, *options);
  auto artifact = compiler.compile(aot::Source::file(options->input),
                                   options->pipeline, options->target);
  if (!artifact)
    return fail(artifact.error());
  for (const aot::Diagnostic &warning : artifact->warnings())
    std::cerr << warning.str() << "\n";

  if (!options->dumpStagesDir.empty())
    if (aot::Status s = artifact->writeStages(options->dumpStagesDir,
                                              options->stagesAsBytecode);
        !s)
      return fail(s.error());
  for (const aot::cli::Options::Output &out : options->outputs) {
    aot::Status s = out.path == "-" ? writeToStdout(*artifact, out.kind)
                    : options->writeIfChanged
                        ? writeIfChanged(*artifact, out.path, out.kind)
                        : artifact->write(out.path, out.kind);
    if (!s)
      return fail(s.error());
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
