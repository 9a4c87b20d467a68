//===- main.cpp - aot-bench: generated code vs Eigen, compile time --------===//
//
// aot-bench [--quick] [--model FILE]
//           [--only=compile|scaling|weights|matmul|layouts|conv|reductions|encoder|
//                   stacked]
//
// Prints, for one run on one machine: the machine, the compile time of a
// model in-process next to the chain mlir-opt-22 | mlir-translate-22 |
// llc-22, how compile time and memory grow with layers and weights, and the
// GFLOP/s of the compiled f32 matmul next to Eigen's.
// Exits non-zero when a compile fails or a compiled result is wrong.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"

#include "aot/Compiler.h"

#include <Eigen/Core>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#ifndef AOT_BENCH_MODEL
#define AOT_BENCH_MODEL "bench/models/mlp.mlir"
#endif

namespace aot::bench {

namespace {
/// The first "model name" line of /proc/cpuinfo, or "unknown".
std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0)
      continue;
    std::size_t colon = line.find(':');
    if (colon == std::string::npos)
      break;
    std::size_t begin = line.find_first_not_of(" \t", colon + 1);
    return begin == std::string::npos ? "unknown" : line.substr(begin);
  }
  return "unknown";
}

/// The number of "processor" entries in /proc/cpuinfo (0 if unreadable).
unsigned cpuinfoProcessors() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  unsigned n = 0;
  while (std::getline(in, line))
    if (line.rfind("processor", 0) == 0)
      ++n;
  return n;
}

/// The 1, 5 and 15 minute load averages from /proc/loadavg, or "unknown".
/// A load above the core count means the timings below compete for cores.
std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen))
    return "unknown";
  return one + " " + five + " " + fifteen;
}

/// Prints the usage line to `out`.
void printUsage(std::FILE *out) {
  std::fprintf(
      out,
      "usage: aot-bench [--quick] [--model FILE] "
      "[--only=compile|scaling|weights|matmul|layouts|conv|reductions|encoder|"
      "stacked]"
      "\n"
      "  --quick       only N = 256 and one compile repetition\n"
      "  --model FILE  the model whose compile time is measured\n"
      "                (default: %s)\n"
      "  --only=PART   run one part: compile time, compile scaling\n"
      "                (layers and weights; weights: those\n"
      "                tables alone), the matmul (layouts:\n"
      "                its B-transposed and batch table\n"
      "                alone), the convolutions or softmax and layer norm\n"
      "                against Eigen, or the encoder layer's\n"
      "                matmuls against the same alone, or layers\n"
      "                slicing one stacked weight against the\n"
      "                same layers given each weight apart\n",
      AOT_BENCH_MODEL);
}
} // namespace

void printMachine() {
  std::printf("== machine ==\n");
  std::printf("  cpu       : %s\n", cpuModelName().c_str());
  std::printf("  cores     : %u logical (/proc/cpuinfo), %u usable by this "
              "process\n",
              cpuinfoProcessors(), std::thread::hardware_concurrency());
  std::printf("  load avg  : %s (1, 5, 15 min, at start)\n",
              loadAverage().c_str());
  std::printf("  compiler  : %s\n", aot::Compiler::version().c_str());
  std::printf("  eigen     : %d.%d.%d, %s, single-threaded unless a table says "
              "otherwise\n",
              EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION,
              Eigen::SimdInstructionSetsInUse());
  std::printf("\n");
}

} // namespace aot::bench

int main(int argc, char **argv) {
  aot::bench::Options options;
  options.modelPath = AOT_BENCH_MODEL;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) {
      options.quick = true;
    } else if (!std::strcmp(argv[i], "--model") && i + 1 < argc) {
      options.modelPath = argv[++i];
    } else if (!std::strncmp(argv[i], "--only=", 7) &&
               (!std::strcmp(argv[i] + 7, "compile") ||
                !std::strcmp(argv[i] + 7, "scaling") ||
                !std::strcmp(argv[i] + 7, "weights") ||
                !std::strcmp(argv[i] + 7, "matmul") ||
                !std::strcmp(argv[i] + 7, "layouts") ||
                !std::strcmp(argv[i] + 7, "conv") ||
                !std::strcmp(argv[i] + 7, "reductions") ||
                !std::strcmp(argv[i] + 7, "encoder") ||
                !std::strcmp(argv[i] + 7, "stacked"))) {
      only = argv[i] + 7;
    } else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      aot::bench::printUsage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "aot-bench: unknown argument '%s'\n", argv[i]);
      aot::bench::printUsage(stderr);
      return 2;
    }
  }

  aot::bench::printMachine();
  // Compile time first, so that its first compile is the first one in this
  // process (cold: nothing initialised yet).
  auto wanted = [&](const char *part) { return only.empty() || only == part; };
  // The weights' tables are a part of the scaling part.
  if (only == "weights") {
    options.weightsOnly = true;
    only = "scaling";
  }
  bool ok = true;
  if (wanted("compile")) {
    ok = aot::bench::runCompileTimeBench(options) && ok;
    std::printf("\n");
  }
  if (wanted("scaling")) {
    ok = aot::bench::runScalingBench(options) && ok;
    std::printf("\n");
  }
  if (wanted("matmul")) {
    ok = aot::bench::runMatmulBench(options) && ok;
    std::printf("\n");
  }
  if (only == "layouts") {
    ok = aot::bench::runMatmulLayoutsBench(options) && ok;
    std::printf("\n");
  }
  if (wanted("conv")) {
    ok = aot::bench::runConvBench(options) && ok;
    std::printf("\n");
  }
  if (wanted("reductions")) {
    ok = aot::bench::runReductionBench(options) && ok;
    std::printf("\n");
  }
  if (wanted("encoder"))
    ok = aot::bench::runEncoderBench(options) && ok;
  if (wanted("stacked"))
    ok = aot::bench::runStackedWeightsBench(options) && ok;
  if (!ok) {
    std::printf("\naot-bench: FAILED (see above)\n");
    return 1;
  }
  return 0;
}
