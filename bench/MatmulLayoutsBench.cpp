//===- MatmulLayoutsBench.cpp - matmuls with B transposed, and batched ----===//
//
// Two shapes of matmul that models are made of besides C = A·B: B stored
// transposed (A·Bᵀ, B N x K: a linear layer's weights as PyTorch keeps
// them, attention's Q·Kᵀ), from one row of A (a matrix-vector product) to
// square, against Eigen's A * B.transpose() on the same memory; and batch
// matmuls (one matrix per head or per sample), against Eigen on each
// matrix of the batch in turn. One thread each; each result checked
// against Eigen's before anything is timed.
//
// Then few rows of A by f16 or bf16 weights, summed in f32 (a linear layer
// on one sample with half-precision weights), next to Eigen's f32 product
// of the same values widened beforehand (not timed): what a hand-written
// f32 GEMV reads, twice the weights' bytes.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "MatmulError.h"
#include "Timer.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace aot::bench {

namespace {

/// One case of the table: `batch` matmuls (1: a plain matmul, no batch
/// dim) of m x n by n x n, B stored transposed or not.
struct Case {
  std::int64_t batch, m, n;
  bool transposed;
  std::string name() const {
    return std::string(transposed ? "mmt_" : "bmm_") + std::to_string(batch) +
           "x" + std::to_string(m) + "x" + std::to_string(n);
  }
};

/// `rows` x `cols`, after the batch dim where there is one.
std::vector<std::int64_t> shapeOf(const Case &c, std::int64_t rows,
                                  std::int64_t cols) {
  std::vector<std::int64_t> shape = {rows, cols};
  if (c.batch > 1)
    shape.insert(shape.begin(), c.batch);
  return shape;
}

using ConstMap = Eigen::Map<const RowMatrix>;
using Map = Eigen::Map<RowMatrix>;

/// A case of the half-precision table: m x n by n x n, A and B of `type`
/// (f16 or bf16), the result f32.
struct HalfCase {
  std::int64_t m, n;
  bool transposed;
  std::string type;
  std::string name() const {
    return type + (transposed ? "_mmt_" : "_mm_") + std::to_string(m) + "x" +
           std::to_string(n);
  }
};

/// `values` rounded to T (abi::f16 or abi::bf16), and back to f32 in
/// `widened` (exact).
template <typename T>
std::vector<T> narrowed(const std::vector<float> &values,
                        std::vector<float> &widened) {
  std::vector<T> out;
  out.reserve(values.size());
  widened.clear();
  for (float v : values) {
    out.push_back(T(v));
    widened.push_back(float(out.back()));
  }
  return out;
}

/// The operands of a half-precision case: A (m x n) and B (n x n) of T.
template <typename T> struct NarrowOperands { std::vector<T> a, b; };

/// Fills `held` with random A and B rounded to T (their values widened
/// back in `wideA`, `wideB`) and returns them as call arguments, which
/// borrow `held`.
template <typename T>
std::vector<CallArg>
narrowOperands(std::int64_t m, std::int64_t n, NarrowOperands<T> &held,
               std::vector<float> &wideA, std::vector<float> &wideB) {
  held.a = narrowed<T>(randomValues(std::size_t(m * n), 1), wideA);
  held.b = narrowed<T>(randomValues(std::size_t(n * n), 2), wideB);
  return {abi::Tensor::borrow(held.a.data(), {m, n}),
          abi::Tensor::borrow(held.b.data(), {n, n})};
}

/// Times and checks the half-precision cases of `module`; false when a call
/// or a check failed.
bool runHalfCases(LoadedModule &module, const std::vector<HalfCase> &cases,
                  double budget) {
  std::printf("\n== few rows of A by f16/bf16 B, summed in f32, 1 thread, "
              "against Eigen f32 on the values widened ==\n");
  std::printf("%-20s | %-24s | %9s | %10s | %13s | %9s | %s\n", "case", "shape",
              "aot us", "aot B GB/s", "Eigen f32 us", "aot/Eigen",
              "max rel err");
  bool ok = true;
  for (const HalfCase &c : cases) {
    const std::int64_t m = c.m, n = c.n;
    std::vector<float> wideA, wideB;
    NarrowOperands<abi::f16> f16s;
    NarrowOperands<abi::bf16> bf16s;
    std::vector<CallArg> args = c.type == "f16"
                                    ? narrowOperands(m, n, f16s, wideA, wideB)
                                    : narrowOperands(m, n, bf16s, wideA, wideB);
    const std::string name = c.name();
    auto result = module.call(name, args);
    if (!result || result->size() != 1 ||
        (*result)[0].shape() != std::vector<std::int64_t>{m, n}) {
      std::printf("error: calling %s failed\n", name.c_str());
      return false;
    }
    ConstMap ea(wideA.data(), m, n), eb(wideB.data(), n, n);
    RowMatrix out(m, n);
    auto eigen = [&] {
      if (c.transposed)
        out.noalias() = ea * eb.transpose();
      else
        out.noalias() = ea * eb;
    };
    eigen();
    RowMatrix absA = ea.cwiseAbs(), absB = eb.cwiseAbs();
    RowMatrix scale = c.transposed ? RowMatrix(absA * absB.transpose())
                                   : RowMatrix(absA * absB);
    const double err = maxRelError((*result)[0], out, scale);
    result = std::vector<abi::Tensor>();
    bool failed = false;
    Measurement aot =
        measure([&] { failed |= !module.call(name, args); }, budget, 3, 1000);
    Measurement lib = measure(eigen, budget, 3, 1000);
    const std::string dims = std::to_string(m) + "x" + std::to_string(n) +
                             (c.transposed ? " * (" : " * ") +
                             std::to_string(n) + "x" + std::to_string(n) +
                             (c.transposed ? ")^T" : "");
    const bool good = err <= kMatmulTolerance;
    std::printf("%-20s | %-24s | %9.1f | %10.1f | %13.1f | %8.2fx | %.1e%s\n",
                name.c_str(), dims.c_str(), aot.seconds * 1e6,
                double(n * n * 2) / aot.seconds * 1e-9, lib.seconds * 1e6,
                lib.seconds / aot.seconds, err, good ? "" : " WRONG");
    ok = ok && good && !failed;
  }
  return ok;
}

} // namespace

bool runMatmulLayoutsBench(const Options &options) {
  const std::vector<Case> cases =
      options.quick
          ? std::vector<Case>{{1, 256, 256, true}, {2, 256, 256, false}}
          : std::vector<Case>{{1, 1024, 1024, true}, {1, 2048, 2048, true},
                              {1, 1, 2048, true},    {1, 4, 2048, true},
                              {1, 32, 2048, true},   {1, 1, 2048, false},
                              {1, 4, 2048, false},   {16, 256, 256, true},
                              {16, 256, 256, false}, {4, 1024, 1024, false}};
  const std::vector<HalfCase> halfCases =
      options.quick ? std::vector<HalfCase>{{1, 256, true, "f16"},
                                            {2, 256, false, "bf16"}}
                    : std::vector<HalfCase>{
                          {1, 2048, true, "f16"},  {1, 2048, false, "f16"},
                          {4, 2048, true, "f16"},  {4, 2048, false, "f16"},
                          {1, 2048, true, "bf16"}, {1, 2048, false, "bf16"}};
  const double budget = options.quick ? 0.2 : 1.5;
  std::string text;
  for (const Case &c : cases)
    text += matmulText({c.name(), c.batch, c.m, c.n, c.n, c.transposed});
  for (const HalfCase &c : halfCases)
    text += matmulText(
        {c.name(), 1, c.m, c.n, c.n, c.transposed, c.type, "f32", "0.0"});
  std::optional<LoadedModule> module = compileAndLoad(text, "layouts.mlir");
  if (!module)
    return false;
  Eigen::setNbThreads(1);

  std::printf("\n== f32 matmuls with B stored transposed (A*B^T, B N x K) "
              "and batch matmuls, 1 thread ==\n");
  std::printf("%-18s | %-28s | %11s | %13s | %9s | %s\n", "case", "shape",
              "aot GFLOP/s", "Eigen GFLOP/s", "aot/Eigen", "max rel err");
  bool ok = true;
  for (const Case &c : cases) {
    const std::int64_t m = c.m, n = c.n, aCount = m * n, bCount = n * n;
    std::vector<float> a = randomValues(std::size_t(c.batch * aCount), 1),
                       b = randomValues(std::size_t(c.batch * bCount), 2),
                       out(std::size_t(c.batch * aCount));
    std::vector<CallArg> args = {
        abi::Tensor::borrow(a.data(), shapeOf(c, m, n)),
        abi::Tensor::borrow(b.data(), shapeOf(c, n, n))};
    const std::string name = c.name();
    auto result = module->call(name, args);
    if (!result || result->size() != 1 ||
        (*result)[0].shape() != shapeOf(c, m, n)) {
      std::printf("error: calling %s failed\n", name.c_str());
      return false;
    }
    auto matrixA = [&](std::int64_t i) {
      return ConstMap(a.data() + i * aCount, m, n);
    };
    auto matrixB = [&](std::int64_t i) {
      return ConstMap(b.data() + i * bCount, n, n);
    };
    // Eigen, matrix by matrix of the batch.
    auto eigen = [&] {
      for (std::int64_t i = 0; i < c.batch; ++i) {
        Map ec(out.data() + i * aCount, m, n);
        if (c.transposed)
          ec.noalias() = matrixA(i) * matrixB(i).transpose();
        else
          ec.noalias() = matrixA(i) * matrixB(i);
      }
    };
    eigen();
    double err = 0;
    for (std::int64_t i = 0; i < c.batch; ++i) {
      RowMatrix absB = matrixB(i).cwiseAbs();
      RowMatrix scale =
          c.transposed ? RowMatrix(matrixA(i).cwiseAbs() * absB.transpose())
                       : RowMatrix(matrixA(i).cwiseAbs() * absB);
      RowMatrix expected = ConstMap(out.data() + i * aCount, m, n);
      err =
          std::max(err, maxRelError((*result)[0], expected, scale, i * aCount));
    }
    result = std::vector<abi::Tensor>(); // frees the checked result
    bool failed = false;
    Measurement aot =
        measure([&] { failed |= !module->call(name, args); }, budget, 3, 1000);
    Measurement lib = measure(eigen, budget, 3, 1000);
    const double flop =
        2.0 * double(c.batch) * double(m) * double(n) * double(n);
    const std::string dims = std::to_string(c.batch) + " x " +
                             std::to_string(m) + "x" + std::to_string(n) +
                             (c.transposed ? " * (" : " * ") +
                             std::to_string(n) + "x" + std::to_string(n) +
                             (c.transposed ? ")^T" : "");
    const bool good = err <= kMatmulTolerance; // false for NaN
    std::printf("%-18s | %-28s | %11.2f | %13.2f | %8.2fx | %.1e%s\n",
                name.c_str(), dims.c_str(), flop / aot.seconds * 1e-9,
                flop / lib.seconds * 1e-9, lib.seconds / aot.seconds, err,
                good ? "" : " WRONG");
    ok = ok && good && !failed;
  }
  ok = runHalfCases(*module, halfCases, budget) && ok;
  std::printf("max rel err = max |C_aot - C_eigen| / (|A|*|B|) elementwise; "
              "tolerance %.0e.\n",
              kMatmulTolerance);
  return ok;
}

} // namespace aot::bench
