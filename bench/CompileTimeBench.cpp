//===- CompileTimeBench.cpp - in-process compile vs separate tools --------===//
//
// Times aot::Compiler::compile of a model to object code next to the chain
// of separate processes
//
//   mlir-opt-22 --pass-pipeline='builtin.module(PASSES)' MODEL
//     | mlir-translate-22 --mlir-to-llvmir
//     | llc-22 -O3 -filetype=obj -relocation-model=pic -mcpu=native -o OBJ
//
// where PASSES are the default pass lists of the stages linalg, tiled,
// bufferized and llvm, less the project's own passes (aot-*), which
// mlir-opt-22 does not know. The model carries llvm.emit_c_interface on its
// functions in place of aot-export-c-interface (and bufferization.writable =
// false on its arguments in place of aot-protect-arguments); nothing replaces
// aot-tile-and-vectorize, so the chain does strictly less work than the
// in-process compile.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Chain.h"
#include "Timer.h"

#include "aot/Compiler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace aot::bench {

namespace {

/// Prints one line of the timing table.
void printTimingRow(const char *way, double first, double med, int reps) {
  std::printf("  %-46s %10.1f %10.1f %5d\n", way, first * 1e3, med * 1e3, reps);
}

} // namespace

bool runCompileTimeBench(const Options &options) {
  const int reps = options.quick ? 1 : 5;
  const std::string &model = options.modelPath;
  std::printf("== compile time: %s -> object code (-O3, host target) ==\n",
              model.c_str());
  if (!std::filesystem::exists(model)) {
    std::printf("error: model '%s' does not exist (pass --model FILE)\n",
                model.c_str());
    return false;
  }

  // In-process: every stage from input to object code, keeping every
  // stage's snapshots (the default), then keeping only the object code, as
  // a build that wants only the object asks for.
  Timer constructTimer;
  aot::Compiler compiler;
  double constructSeconds = constructTimer.seconds();
  std::optional<Artifact> artifact;
  auto compileOnce = [&](const Pipeline &pipeline) -> bool {
    Expected<Artifact> result =
        compiler.compile(Source::file(model), pipeline, Target::host());
    if (!result) {
      std::printf("error: compiling %s failed:\n%s\n", model.c_str(),
                  result.error().str().c_str());
      return false;
    }
    artifact = std::move(*result);
    return true;
  };
  struct InProcess {
    const char *way;
    const char *ratio;
    Pipeline pipeline;
    double first = 0, median = 0;
  };
  InProcess inProcess[] = {
      {"in-process aot::Compiler::compile",
       "chain / in-process (> 1: in-process faster)", Pipeline().optLevel(3)},
      {"in-process, Pipeline::keepOnly(object)",
       "chain / in-process, keepOnly(object)",
       Pipeline().optLevel(3).keepOnly({Stage::Object}, {})}};
  for (InProcess &way : inProcess) {
    // The first compile in the process (that of the first pipeline) also
    // initialises LLVM's targets and MLIR's dialects; each pipeline's first
    // compile is reported apart from its median.
    Timer coldTimer;
    if (!compileOnce(way.pipeline))
      return false;
    way.first = coldTimer.seconds();
    bool compileFailed = false;
    way.median = median(timeRepeated(reps, [&] {
      compileFailed = !compileOnce(way.pipeline) || compileFailed;
    }));
    if (compileFailed)
      return false;
    if (!artifact->stage(Stage::Object) ||
        artifact->manifest().functions.empty()) {
      std::printf("error: the in-process compile produced no object code or "
                  "no exported function\n");
      return false;
    }
  }
  const std::string symbol =
      "_mlir_ciface_" + artifact->manifest().functions.front().name;

  std::printf("  %-46s %10s %10s %5s\n", "", "first ms", "median ms", "reps");
  std::printf("  %-46s %10.2f %10s %5s\n", "aot::Compiler construction",
              constructSeconds * 1e3, "", "");
  for (const InProcess &way : inProcess)
    printTimingRow(way.way, way.first, way.median, reps);

  // The chain of separate processes.
  char dirTemplate[] = "/tmp/aot-bench-XXXXXX";
  if (!::mkdtemp(dirTemplate)) {
    std::printf("  chain skipped: cannot create a temporary directory\n");
    return true;
  }
  const std::string dir = dirTemplate;

  // aot-compile as a build runs it, a process per compile: without the
  // artifact cache, then an unchanged recompile that the cache answers.
  const std::string compile = std::string(AOT_COMPILE_PATH) + " -O3 '" + model +
                              "' -o '" + dir + "/cli.o' ";
  const std::string cacheDir = "--cache-dir='" + dir + "/cache'";
  double cliMedian = 0;
  Timer cliTimer;
  int cliStatus = runShell(compile + "--no-cache");
  double cliFirst = cliTimer.seconds();
  if (cliStatus == 0 && runShell(compile + cacheDir) == 0) {
    std::vector<double> uncached, cached;
    for (int i = 0; i < reps; ++i) {
      Timer t;
      runShell(compile + "--no-cache");
      uncached.push_back(t.seconds());
    }
    Timer cachedFirst;
    runShell(compile + cacheDir);
    double hitFirst = cachedFirst.seconds();
    for (int i = 0; i < std::max(reps, 5); ++i) {
      Timer t;
      runShell(compile + cacheDir);
      cached.push_back(t.seconds());
    }
    cliMedian = median(uncached);
    printTimingRow("aot-compile -O3 -o m.o (a process)", cliFirst, cliMedian,
                   reps);
    printTimingRow("aot-compile, unchanged: from --cache-dir", hitFirst,
                   median(cached), std::max(reps, 5));
  } else {
    std::printf("  aot-compile skipped: %s failed\n", AOT_COMPILE_PATH);
  }

  Chain chain = makeChain(model, dir);
  double chainFirst = 0, chainMedian = 0;
  if (chain.skipReason.empty()) {
    // The first run is untimed in the median: it checks the chain and
    // brings the tools into the page cache.
    Timer firstTimer;
    int status = runShell(chain.command);
    chainFirst = firstTimer.seconds();
    chain.skipReason = checkChainRun(chain, status, symbol);
    if (chain.skipReason.empty()) {
      std::vector<double> samples;
      for (int i = 0; i < reps && chain.skipReason.empty(); ++i) {
        Timer t;
        status = runShell(chain.command);
        samples.push_back(t.seconds());
        chain.skipReason = checkChainRun(chain, status, symbol);
      }
      chainMedian = median(samples);
    }
  }
  std::filesystem::remove_all(dir);

  if (!chain.skipReason.empty()) {
    std::printf("  chain mlir-opt-22 | mlir-translate-22 | llc-22: skipped: "
                "%s\n",
                chain.skipReason.c_str());
    return true;
  }
  printTimingRow("mlir-opt-22 | mlir-translate-22 | llc-22", chainFirst,
                 chainMedian, reps);
  for (const InProcess &way : inProcess)
    std::printf("  %-46s %10.2fx %10.2fx\n", way.ratio, chainFirst / way.first,
                chainMedian / way.median);
  if (cliMedian > 0)
    std::printf("  %-46s %10s %10.2fx\n", "chain / aot-compile process", "",
                chainMedian / cliMedian);

  std::printf("\nin-process: one aot::Compiler, Source::file, default "
              "pipeline (input .. object), -O3;\n"
              "  by default it also keeps a text and a bytecode snapshot of "
              "every MLIR stage,\n"
              "  with keepOnly(object) only the object code, as aot-compile "
              "-o m.o does;\n"
              "  only the default's first compile initialises LLVM and "
              "MLIR.\n");

  std::printf("chain: the default pass lists of stages linalg, tiled, "
              "bufferized and llvm, run by\n"
              "  mlir-opt-22, less the project's own passes:\n");
  const std::string modelText = readFile(model);
  for (const std::string &name : chain.dropped) {
    if (name == "aot-export-c-interface" &&
        modelText.find("llvm.emit_c_interface") != std::string::npos)
      std::printf("    - %s: replaced by llvm.emit_c_interface on the "
                  "model's functions\n",
                  name.c_str());
    else if (name == "aot-protect-arguments" &&
             modelText.find("bufferization.writable = false") !=
                 std::string::npos)
      std::printf("    - %s: replaced by bufferization.writable = false on "
                  "the model's arguments\n",
                  name.c_str());
    else
      std::printf("    - %s: dropped, nothing replaces it\n", name.c_str());
  }
  std::printf("  and llc-22 -O3 runs only code generation, not LLVM's -O3 IR "
              "pipeline that the\n"
              "  in-process llvm-ir-opt stage runs: the chain does strictly "
              "less work.\n"
              "  -mcpu=native matches Target::host(). Timed wall-clock "
              "through popen (/bin/sh -c),\n"
              "  the first run apart; each run is checked to define %s.\n",
              symbol.c_str());
  std::printf("  command: %s\n", chain.command.c_str());
  return true;
}

} // namespace aot::bench
