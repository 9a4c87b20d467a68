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

std::string matmulText(const MatmulText &spec) {
  const bool batched = spec.batch > 1;
  auto type = [&](std::int64_t rows, std::int64_t cols,
                  const std::string &element) {
    std::string t = "tensor<";
    if (batched)
      t += std::to_string(spec.batch) + "x";
    return t + std::to_string(rows) + "x" + std::to_string(cols) + "x" +
           element + ">";
  };
  const std::string a = type(spec.m, spec.k, spec.in),
                    b = spec.transposedB ? type(spec.n, spec.k, spec.in)
                                         : type(spec.k, spec.n, spec.in),
                    c = type(spec.m, spec.n, spec.acc);
  std::string op = batched ? "linalg.batch_matmul" : "linalg.matmul";
  if (spec.transposedB) {
    // B indexed (n, k), after the batch dim where there is one.
    const std::string dims = batched ? "(b, m, n, k)" : "(m, n, k)";
    const std::string lead = batched ? "b, " : "";
    op += " indexing_maps = [affine_map<" + dims + " -> (" + lead +
          "m, k)>, affine_map<" + dims + " -> (" + lead +
          "n, k)>, affine_map<" + dims + " -> (" + lead + "m, n)>]";
  }
  return "func.func @" + spec.name + "(%a: " + a + ", %b: " + b + ") -> " + c +
         " {\n  %zero = arith.constant " + spec.zero + " : " + spec.acc +
         "\n  %e = tensor.empty() : " + c +
         "\n  %c = linalg.fill ins(%zero : " + spec.acc + ") outs(%e : " + c +
         ") -> " + c + "\n  %r = " + op + " ins(%a, %b : " + a + ", " + b +
         ") outs(%c : " + c + ") -> " + c + "\n  return %r : " + c + "\n}\n";
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
