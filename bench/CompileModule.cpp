//===- CompileModule.cpp - a benchmark's module and its random inputs ---===//
#include "Bench.h"

#include <cstdio>
#include <random>

namespace aot::bench {

std::optional<LoadedModule> compileAndLoad(const std::string &mlir,
                                           const std::string &name,
                                           unsigned threads) {
  aot::Compiler compiler;
  Expected<Artifact> artifact = compiler.compile(
      Source::memory(mlir, name), Pipeline().optLevel(3).runThreads(threads),
      Target::host());
  if (!artifact) {
    std::printf("error: compiling %s failed:\n%s\n", name.c_str(),
                artifact.error().str().c_str());
    return std::nullopt;
  }
  Expected<LoadedModule> module = artifact->load();
  if (!module) {
    std::printf("error: loading %s failed:\n%s\n", name.c_str(),
                module.error().str().c_str());
    return std::nullopt;
  }
  return std::move(*module);
}

std::vector<float> randomValues(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float &x : v)
    x = dist(rng);
  return v;
}

} // namespace aot::bench
