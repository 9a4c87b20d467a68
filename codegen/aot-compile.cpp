//===- aot-compile.cpp - the command-line driver --------------------------===//
//
// A thin shell over the library: parse options, compile, write outputs,
// print diagnostics. Exit 0 on success and 1 on any error; exceptions are
// caught so that no input ends the process with an abort.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "aot/Compiler.h"

#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
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
  auto artifact = compiler.compile(aot::Source::file(options->input),
                                   options->pipeline, options->target);
  if (!artifact)
    return fail(artifact.error());

  if (!options->dumpStagesDir.empty())
    if (aot::Status s = artifact->writeStages(options->dumpStagesDir); !s)
      return fail(s.error());
  for (const aot::cli::Options::Output &out : options->outputs) {
    aot::Status s = out.path == "-" ? writeToStdout(*artifact, out.kind)
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
