//===- MatmulBench.cpp - compiled f32 matmul vs Eigen ---------------------===//
//
// Generates one MLIR module with a linalg.fill + linalg.matmul function per
// size, compiles it in-process at -O3 for this machine, loads it, and times
// LoadedModule::call against Eigen's single-threaded product on the same
// data. Every compiled result is checked against Eigen's before its timing is
// believed.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "EigenThreads.h"
#include "MatmulError.h"
#include "Timer.h"

#include "aot/Compiler.h"
#include "aot/abi/Tensor.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace aot::bench {

namespace {

/// The name of the compiled function for size `n`.
std::string functionName(std::int64_t n) {
  return "matmul_" + std::to_string(n);
}

/// The compiled function with every size dynamic (tensor<?x?xf32>).
constexpr const char *kDynamicName = "matmul_dynamic";

/// MLIR text of a module with one `matmul_N` function per size:
/// C = A·B on tensor<NxNxf32>, the accumulator zero-filled by linalg.fill,
/// and `matmul_dynamic`, the same on tensor<?x?xf32>.
std::string matmulModule(const std::vector<std::int64_t> &sizes) {
  std::string text =
      "func.func @matmul_dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) "
      "-> tensor<?x?xf32> {\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %c1 = arith.constant 1 : index\n"
      "  %zero = arith.constant 0.0 : f32\n"
      "  %m = tensor.dim %a, %c0 : tensor<?x?xf32>\n"
      "  %n = tensor.dim %b, %c1 : tensor<?x?xf32>\n"
      "  %e = tensor.empty(%m, %n) : tensor<?x?xf32>\n"
      "  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> "
      "tensor<?x?xf32>\n"
      "  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) "
      "outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>\n"
      "  return %r : tensor<?x?xf32>\n}\n\n";
  for (std::int64_t n : sizes)
    text += matmulText({functionName(n), 1, n, n, n}) + "\n";
  return text;
}

/// A matrix of uniform values in [-1, 1) from a fixed seed.
RowMatrix randomMatrix(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  RowMatrix m(n, n);
  for (Eigen::Index i = 0; i < m.size(); ++i)
    m.data()[i] = dist(rng);
  return m;
}

/// One row of the table.
struct Row {
  std::int64_t n = 0;
  Measurement aot, dynamic, eigen;
  double relError = 0;
  bool ok = false;
};

/// Prints the table's header.
void printHeader() {
  std::printf("%6s | %11s %10s %5s | %13s %10s %5s | %9s | %11s %9s | %11s\n",
              "N", "aot GFLOP/s", "aot ms", "reps", "Eigen GFLOP/s", "Eigen ms",
              "reps", "aot/Eigen", "dyn GFLOP/s", "dyn/Eigen", "max rel err");
  std::printf("-------+------------------------------+-----------------------"
              "----------+-----------+-----------------------+-------------"
              "------\n");
}

/// Prints one row of the table.
void printRow(const Row &r) {
  double flop = 2.0 * double(r.n) * double(r.n) * double(r.n);
  double aotGflops = flop / r.aot.seconds * 1e-9;
  double eigenGflops = flop / r.eigen.seconds * 1e-9;
  double dynGflops = flop / r.dynamic.seconds * 1e-9;
  std::printf("%6lld | %11.2f %10.3f %5d | %13.2f %10.3f %5d | %8.2fx | "
              "%11.2f %8.2fx | %11.2e %s\n",
              static_cast<long long>(r.n), aotGflops, r.aot.seconds * 1e3,
              r.aot.reps, eigenGflops, r.eigen.seconds * 1e3, r.eigen.reps,
              aotGflops / eigenGflops, dynGflops, dynGflops / eigenGflops,
              r.relError, r.ok ? "ok" : "WRONG");
}

} // namespace

/// The same static matmuls compiled with Pipeline::runThreads(2) (OpenMP),
/// against the 1-thread build, in this run; the results are checked
/// against the 1-thread build's, which must be bit for bit the same.
bool runThreadedMatmul(const std::vector<std::int64_t> &sizes, double budget,
                       int minReps, int maxReps) {
  std::printf("\n== f32 matmul on 2 threads (aot --threads=2: OpenMP, "
              "libomp) against 1 thread ==\n");
  const std::string source = matmulModule(sizes);
  std::optional<LoadedModule> one = compileAndLoad(source, "matmul.mlir", 1);
  std::optional<LoadedModule> two = compileAndLoad(source, "matmul.mlir", 2);
  if (!one || !two)
    return false;
  const bool eigenThreads = eigenOnThreads(2);
  std::printf("%6s | %16s | %17s | %7s | %9s | %13s | %11s | %17s | %s\n", "N",
              "1 thread GFLOP/s", "2 threads GFLOP/s", "2T/1T", "same bits",
              "dyn 2T GFLOP/s", "dyn/static", "Eigen 2T GFLOP/s",
              "aot/Eigen (2T)");
  bool ok = true;
  for (std::int64_t n : sizes) {
    RowMatrix a = randomMatrix(n, 1), b = randomMatrix(n, 2);
    const std::string name = functionName(n);
    std::vector<CallArg> args = {abi::Tensor::borrow(a.data(), {n, n}),
                                 abi::Tensor::borrow(b.data(), {n, n})};
    auto r1 = one->call(name, args), r2 = two->call(name, args),
         dyn = two->call(kDynamicName, args);
    if (!r1 || !r2 || !dyn) {
      std::printf("error: calling %s failed\n", name.c_str());
      return false;
    }
    size_t bytes = size_t(n) * size_t(n) * sizeof(float);
    bool same =
        std::memcmp((*r1)[0].data<float>(), (*r2)[0].data<float>(), bytes) == 0;
    // The dynamic function on two threads against the 1-thread static one,
    // by the matmul tolerance (its tiles are not all the static ones).
    RowMatrix scale = a.cwiseAbs() * b.cwiseAbs(), expected(n, n);
    std::memcpy(expected.data(), (*r1)[0].data<float>(), bytes);
    const bool dynOk =
        maxRelError((*dyn)[0], expected, scale) <= kMatmulTolerance;
    bool failed = false;
    Measurement t1 = measure([&] { failed |= !one->call(name, args); }, budget,
                             minReps, maxReps);
    Measurement t2 = measure([&] { failed |= !two->call(name, args); }, budget,
                             minReps, maxReps);
    Measurement td = measure([&] { failed |= !two->call(kDynamicName, args); },
                             budget, minReps, maxReps);
    RowMatrix c(n, n);
    Measurement eigen{};
    if (eigenThreads)
      eigen = measure([&] { c.noalias() = a * b; }, budget, minReps, maxReps);
    double flop = 2.0 * double(n) * double(n) * double(n);
    std::printf("%6lld | %16.2f | %17.2f | %6.2fx | %9s | %11.2f %s | %10.2fx",
                static_cast<long long>(n), flop / t1.seconds * 1e-9,
                flop / t2.seconds * 1e-9, t1.seconds / t2.seconds,
                same ? "yes" : "NO", flop / td.seconds * 1e-9,
                dynOk ? "ok" : "WRONG", t2.seconds / td.seconds);
    if (eigenThreads)
      std::printf(" | %17.2f | %13.2fx\n", flop / eigen.seconds * 1e-9,
                  eigen.seconds / t2.seconds);
    else
      std::printf(" | %17s | %14s\n", "(no OpenMP)", "");
    std::fflush(stdout);
    ok = ok && same && dynOk && !failed;
  }
  eigenOnThreads(1);
  return ok;
}

bool runMatmulBench(const Options &options) {
  // Besides powers of two, 1000 (no power of two of more than 8 divides it)
  // and 1021 (prime): sizes whose tiles cannot all be full.
  const std::vector<std::int64_t> sizes =
      options.quick
          ? std::vector<std::int64_t>{256}
          : std::vector<std::int64_t>{256, 512, 1000, 1021, 1024, 2048, 4096};
  // Seconds of timed runs per implementation and size, and the bounds on
  // the repetition count; the full run stays well under a minute even when
  // the compiled code is slow.
  const double budget = options.quick ? 0.2 : 1.5;
  const int minReps = options.quick ? 3 : 5;
  const int maxReps = 1000;

  std::printf("== f32 matmul C = A*B (square, row-major, 1 thread) ==\n");
  Eigen::setNbThreads(1);

  aot::Compiler compiler;
  Timer compileTimer;
  Expected<Artifact> artifact =
      compiler.compile(Source::memory(matmulModule(sizes), "matmul.mlir"),
                       Pipeline().optLevel(3).runThreads(1), Target::host());
  if (!artifact) {
    std::printf("error: compiling the matmul module failed:\n%s\n",
                artifact.error().str().c_str());
    return false;
  }
  double compileSeconds = compileTimer.seconds();
  Expected<LoadedModule> module = artifact->load();
  if (!module) {
    std::printf("error: loading the matmul module failed:\n%s\n",
                module.error().str().c_str());
    return false;
  }
  std::printf("compiled %zu function(s) in-process in %.1f ms (-O3, host "
              "target), loaded with Artifact::load()\n\n",
              sizes.size(), compileSeconds * 1e3);

  printHeader();
  bool allOk = true;
  for (std::int64_t n : sizes) {
    RowMatrix a = randomMatrix(n, 1), b = randomMatrix(n, 2);
    RowMatrix c(n, n);
    const std::string name = functionName(n);
    std::vector<CallArg> args = {abi::Tensor::borrow(a.data(), {n, n}),
                                 abi::Tensor::borrow(b.data(), {n, n})};

    // Check the compiled result before timing anything.
    Expected<std::vector<abi::Tensor>> result = module->call(name, args);
    if (!result) {
      std::printf("error: calling %s failed:\n%s\n", name.c_str(),
                  result.error().str().c_str());
      return false;
    }
    if (result->size() != 1 || (*result)[0].dtype() != abi::DType::F32 ||
        (*result)[0].shape() != std::vector<std::int64_t>{n, n}) {
      std::printf("error: %s did not return one f32 tensor of [%lld, %lld]\n",
                  name.c_str(), static_cast<long long>(n),
                  static_cast<long long>(n));
      return false;
    }
    c.noalias() = a * b;
    RowMatrix scale = a.cwiseAbs() * b.cwiseAbs();

    Row row;
    row.n = n;
    row.relError = maxRelError((*result)[0], c, scale);
    // The dynamic function too; the worse of the two errors is reported.
    Expected<std::vector<abi::Tensor>> dynamic =
        module->call(kDynamicName, args);
    if (!dynamic || dynamic->size() != 1 ||
        (*dynamic)[0].shape() != std::vector<std::int64_t>{n, n}) {
      std::printf("error: %s did not return one [%lld, %lld] tensor%s\n",
                  kDynamicName, static_cast<long long>(n),
                  static_cast<long long>(n),
                  dynamic ? "" : (": " + dynamic.error().str()).c_str());
      return false;
    }
    row.relError = std::max(row.relError, maxRelError((*dynamic)[0], c, scale));
    row.ok = row.relError <= kMatmulTolerance; // false for NaN
    result = std::vector<abi::Tensor>();       // frees the checked result
    dynamic = std::vector<abi::Tensor>();

    bool callFailed = false;
    row.aot = measure(
        [&] {
          // The result vector owns the buffer the compiled code malloc'ed;
          // it is freed when the vector goes at the end of this statement.
          if (!module->call(name, args))
            callFailed = true;
        },
        budget, minReps, maxReps);
    row.dynamic = measure(
        [&] {
          if (!module->call(kDynamicName, args))
            callFailed = true;
        },
        budget, minReps, maxReps);
    row.eigen = measure([&] { c.noalias() = a * b; }, budget, minReps, maxReps);
    if (callFailed) {
      std::printf("error: a timed call of %s failed\n", name.c_str());
      return false;
    }
    printRow(row);
    std::fflush(stdout);
    allOk = allOk && row.ok;
  }

  std::printf(
      "\nGFLOP/s = 2*N^3 / median wall-clock time of one call, after a "
      "warm-up.\n"
      "aot: LoadedModule::call, which checks the arguments against the "
      "manifest, and the\n"
      "     compiled code mallocs the NxN result on every call; the result "
      "is freed when\n"
      "     its owning tensor goes. That allocation and the checks are "
      "part of the ABI cost\n"
      "     measured here. Eigen writes C.noalias() = A * B into a "
      "preallocated C.\n"
      "dyn: one compiled function on tensor<?x?xf32> for every N (sizes "
      "known at run time).\n"
      "max rel err = max |C_aot - C_eigen| / (|A|*|B|) elementwise; "
      "tolerance %.0e.\n",
      kMatmulTolerance);
  if (!allOk)
    std::printf("error: the compiled matmul is WRONG: its error exceeds the "
                "tolerance\n");
  allOk = runThreadedMatmul(sizes, budget, minReps, maxReps) && allOk;
  allOk = runMatmulVariantsBench(options) && allOk;
  return runMatmulLayoutsBench(options) && allOk;
}

} // namespace aot::bench
