//===- ReductionBench.cpp - softmax, layer norm, bias add vs Eigen --------===//
//
// Row-wise reductions with elementwise math around them, compiled
// in-process at -O3 for this machine and timed through LoadedModule::call:
// the softmax of a 1024x1024 f32 tensor (TOSA, as importers write it) and
// a layer norm of the same (linalg) against Eigen's vectorized expressions
// of the same formulas, and a 4096x1024 bias add against a memcpy of the
// same bytes (read and written once: the bandwidth a compiled elementwise op
// can reach). Then the same softmax compiled for dynamic shapes
// (tensor<?x?xf32>), and the column sums of a 1024x1021 tensor (1021 is
// prime), static and dynamic, against Eigen's colwise sum. Every compiled
// result is checked against a double-precision reference first.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Timer.h"

#include "aot/Compiler.h"
#include "aot/abi/Tensor.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace aot::bench {

namespace {

using RowMatrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

constexpr std::int64_t kRows = 1024, kCols = 1024, kBiasRows = 4096,
                       kOddCols = 1021;

const char *const kModule = R"mlir(
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>

func.func @softmax(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<1024x1024xf32>) -> tensor<1024x1xf32>
  %d = tosa.sub %x, %m : (tensor<1024x1024xf32>, tensor<1024x1xf32>) -> tensor<1024x1024xf32>
  %e = tosa.exp %d : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<1024x1024xf32>) -> tensor<1024x1xf32>
  %r = tosa.reciprocal %s : (tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %zp : (tensor<1024x1024xf32>, tensor<1024x1xf32>, tensor<1xi8>) -> tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}

func.func @softmax_dyn(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %d = tosa.sub %x, %m : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %e = tosa.exp %d : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %r = tosa.reciprocal %s : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %zp : (tensor<?x?xf32>, tensor<?x1xf32>, tensor<1xi8>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @colsum(%x: tensor<1024x1021xf32>) -> tensor<1021xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1021xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1021xf32>) -> tensor<1021xf32>
  %sum = linalg.reduce ins(%x : tensor<1024x1021xf32>) outs(%z : tensor<1021xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<1021xf32>
}

func.func @colsum_dyn(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%z : tensor<?xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<?xf32>
}

func.func @layernorm(%x: tensor<1024x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<1024xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %sum = linalg.reduce ins(%x : tensor<1024x1024xf32>) outs(%z1 : tensor<1024xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<1024x1024xf32>, tensor<1024xf32>) outs(%e2 : tensor<1024x1024xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %v, %mean : f32
    linalg.yield %d : f32
  } -> tensor<1024x1024xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1024xf32>) -> tensor<1024xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<1024x1024xf32>) outs(%z2 : tensor<1024xf32>) {
  ^bb0(%d: f32, %acc: f32):
    %sq = arith.mulf %d, %d : f32
    %a = arith.addf %sq, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1024xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %ss, %g, %b : tensor<1024x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>)
      outs(%e2 : tensor<1024x1024xf32>) {
  ^bb0(%d: f32, %s: f32, %gv: f32, %bv: f32, %o: f32):
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %t = arith.mulf %d, %rs : f32
    %u = arith.mulf %t, %gv : f32
    %w = arith.addf %u, %bv : f32
    linalg.yield %w : f32
  } -> tensor<1024x1024xf32>
  return %y : tensor<1024x1024xf32>
}

func.func @bias_add(%x: tensor<4096x1024xf32>, %b: tensor<1024xf32>) -> tensor<4096x1024xf32> {
  %e = tensor.empty() : tensor<4096x1024xf32>
  %y = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4096x1024xf32>, tensor<1024xf32>) outs(%e : tensor<4096x1024xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  } -> tensor<4096x1024xf32>
  return %y : tensor<4096x1024xf32>
}
)mlir";

RowMatrix randomMatrix(std::int64_t rows, std::int64_t cols, unsigned seed,
                       float scale) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-scale, scale);
  RowMatrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i)
    m.data()[i] = dist(rng);
  return m;
}

void eigenSoftmax(const RowMatrix &x, RowMatrix &y) {
  Eigen::VectorXf max = x.rowwise().maxCoeff();
  y = (x.colwise() - max).array().exp();
  Eigen::VectorXf inv = y.rowwise().sum().cwiseInverse();
  y = inv.asDiagonal() * y;
}

void eigenLayerNorm(const RowMatrix &x, const RowVector &g, const RowVector &b,
                    RowMatrix &y) {
  Eigen::VectorXf mean = x.rowwise().mean();
  y = x.colwise() - mean;
  Eigen::VectorXf rs =
      ((y.array().square().rowwise().sum() / float(x.cols())) + 1e-5f)
          .rsqrt()
          .matrix();
  y = (rs.asDiagonal() * y).array().rowwise() * g.array();
  y.array().rowwise() += b.array();
}

/// The sums of the columns of `x` in double precision, as floats.
RowMatrix columnSumsReference(const RowMatrix &x) {
  Eigen::MatrixXd sums = x.cast<double>().colwise().sum();
  return RowMatrix(sums.cast<float>());
}

/// Softmax and layer norm in double precision, row by row: the reference
/// both the compiled code and Eigen are checked against.
RowMatrix softmaxReference(const RowMatrix &x) {
  RowMatrix y(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    double max = -INFINITY, sum = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      max = std::max(max, double(x(i, j)));
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      sum += std::exp(double(x(i, j)) - max);
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      y(i, j) = float(std::exp(double(x(i, j)) - max) / sum);
  }
  return y;
}

RowMatrix layerNormReference(const RowMatrix &x, const RowVector &g,
                             const RowVector &b) {
  RowMatrix y(x.rows(), x.cols());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    double mean = 0, var = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      mean += x(i, j);
    mean /= double(x.cols());
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      var += (x(i, j) - mean) * (x(i, j) - mean);
    double rs = 1.0 / std::sqrt(var / double(x.cols()) + 1e-5);
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      y(i, j) = float((x(i, j) - mean) * rs * g(j) + b(j));
  }
  return y;
}

/// The largest |got - want| / max(|want|, floor) over all elements: the
/// relative error, or the absolute one where |want| is below `floor`.
double maxError(const float *got, const RowMatrix &want, double floor) {
  double worst = 0;
  for (Eigen::Index i = 0; i < want.size(); ++i) {
    float g = got[i];
    if (!std::isfinite(g))
      return INFINITY;
    worst =
        std::max(worst, std::abs(double(g) - want.data()[i]) /
                            std::max(std::abs(double(want.data()[i])), floor));
  }
  return worst;
}

} // namespace

bool runReductionBench(const Options &options) {
  const double budget = options.quick ? 0.2 : 1.5;
  std::printf("== softmax and layer norm (1024x1024 f32) vs Eigen, bias add "
              "(4096x1024) vs memcpy, column sums (1024x1021) vs Eigen "
              "(1 thread) ==\n");
  Eigen::setNbThreads(1);
  std::optional<LoadedModule> module =
      compileAndLoad(kModule, "reductions.mlir");
  if (!module)
    return false;

  RowMatrix x = randomMatrix(kRows, kCols, 1, 5.0f);
  RowMatrix big = randomMatrix(kBiasRows, kCols, 3, 1.0f);
  RowVector g = randomMatrix(1, kCols, 4, 1.0f);
  RowVector b = randomMatrix(1, kCols, 5, 1.0f);
  RowMatrix odd = randomMatrix(kRows, kOddCols, 6, 1.0f);
  RowMatrix y(kRows, kCols), biased(kBiasRows, kCols), sums(1, kOddCols);
  auto tensor = [](auto &m) {
    return abi::Tensor::borrow(m.data(), {std::int64_t(m.rows()) == 1
                                              ? std::int64_t(m.cols())
                                              : std::int64_t(m.rows()),
                                          std::int64_t(m.cols())});
  };
  auto vector = [](RowVector &v) {
    return abi::Tensor::borrow(v.data(), {std::int64_t(v.cols())});
  };

  struct Case {
    const char *name;
    std::vector<CallArg> args;
    std::function<void()> baseline;
    const RowMatrix *baselineResult; ///< null: memcpy, not checked
    RowMatrix reference;
    double bytes; ///< read and written by one call
    double floor; ///< see maxError
    double tolerance;
  };
  std::vector<Case> cases;
  // The same softmax compiled for static and for dynamic shapes.
  for (const char *name : {"softmax", "softmax_dyn"})
    cases.push_back({name,
                     {tensor(x)},
                     [&] { eigenSoftmax(x, y); },
                     &y,
                     softmaxReference(x),
                     2.0 * x.size() * 4,
                     1e-30,
                     1e-5});
  cases.push_back({"layernorm",
                   {tensor(x), vector(g), vector(b)},
                   [&] { eigenLayerNorm(x, g, b, y); },
                   &y,
                   layerNormReference(x, g, b),
                   2.0 * x.size() * 4,
                   1.0,
                   1e-5});
  cases.push_back({"bias_add",
                   {tensor(big), vector(b)},
                   [&] {
                     std::memcpy(biased.data(), big.data(),
                                 big.size() * sizeof(float));
                   },
                   nullptr,
                   RowMatrix(big.rowwise() + b),
                   2.0 * big.size() * 4,
                   1e-30,
                   0.0});
  for (const char *name : {"colsum", "colsum_dyn"})
    cases.push_back({name,
                     {tensor(odd)},
                     [&] { sums = odd.colwise().sum(); },
                     &sums,
                     columnSumsReference(odd),
                     (odd.size() + sums.size()) * 4.0,
                     1.0,
                     // 1024 terms summed in f32, in order (as Eigen does).
                     1e-4});

  std::printf("%-11s | %9s %9s | %-14s %9s %9s | %9s | %s\n", "case", "aot ms",
              "aot GB/s", "baseline", "ms", "GB/s", "aot/base", "max error");
  bool allOk = true;
  for (Case &c : cases) {
    Expected<std::vector<abi::Tensor>> result = module->call(c.name, c.args);
    if (!result || result->size() != 1) {
      std::printf("error: calling %s failed%s\n", c.name,
                  result ? "" : (": " + result.error().str()).c_str());
      return false;
    }
    double err = maxError(static_cast<const float *>((*result)[0].rawData()),
                          c.reference, c.floor);
    bool ok = (*result)[0].isContiguous() && err <= c.tolerance;
    double baseErr = 0;
    if (c.baselineResult) {
      c.baseline();
      baseErr = maxError(c.baselineResult->data(), c.reference, c.floor);
    }
    result = std::vector<abi::Tensor>();
    bool callFailed = false;
    Measurement aot = measure(
        [&] {
          if (!module->call(c.name, c.args))
            callFailed = true;
        },
        budget, 3, 1000);
    Measurement base = measure(c.baseline, budget, 3, 1000);
    if (callFailed) {
      std::printf("error: a timed call of %s failed\n", c.name);
      return false;
    }
    std::printf("%-11s | %9.3f %9.2f | %-14s %9.3f %9.2f | %8.2fx | %.2e %s\n",
                c.name, aot.seconds * 1e3, c.bytes / aot.seconds * 1e-9,
                c.baselineResult ? "Eigen" : "memcpy", base.seconds * 1e3,
                c.bytes / base.seconds * 1e-9, base.seconds / aot.seconds, err,
                ok ? "ok" : "WRONG");
    if (c.baselineResult)
      std::printf("%-11s   (Eigen's own error against the reference: %.2e)\n",
                  "", baseErr);
    std::fflush(stdout);
    allOk = allOk && ok;
  }
  // Two threads: the rows (softmax, layer norm) or row blocks (bias add)
  // split between OpenMP threads; the results must be the same bits. The
  // baselines are those above: Eigen threads only its products, not these
  // row-wise expressions, and memcpy is one thread.
  std::optional<LoadedModule> threaded =
      compileAndLoad(kModule, "reductions.mlir", 2);
  if (!threaded)
    return false;
  std::printf("\n2 threads (aot --threads=2, OpenMP) against 1:\n");
  std::printf("%-11s | %12s | %13s | %7s | %9s | %s\n", "case", "1 thread ms",
              "2 threads ms", "2T/1T", "same bits", "aot 2T / baseline");
  for (Case &c : cases) {
    auto r1 = module->call(c.name, c.args), r2 = threaded->call(c.name, c.args);
    if (!r1 || !r2) {
      std::printf("error: calling %s failed\n", c.name);
      return false;
    }
    bool same =
        (*r1)[0].shape() == (*r2)[0].shape() &&
        std::memcmp((*r1)[0].rawData(), (*r2)[0].rawData(),
                    std::size_t(c.reference.size()) * sizeof(float)) == 0;
    bool failed = false;
    Measurement t1 = measure([&] { failed |= !module->call(c.name, c.args); },
                             budget, 3, 1000);
    Measurement t2 = measure([&] { failed |= !threaded->call(c.name, c.args); },
                             budget, 3, 1000);
    Measurement base = measure(c.baseline, budget, 3, 1000);
    std::printf("%-11s | %12.3f | %13.3f | %6.2fx | %9s | %16.2fx\n", c.name,
                t1.seconds * 1e3, t2.seconds * 1e3, t1.seconds / t2.seconds,
                same ? "yes" : "NO", base.seconds / t2.seconds);
    allOk = allOk && same && !failed;
  }
  std::printf("\naot/base > 1: the compiled code is faster. GB/s counts the "
              "tensor read and the\nresult written once. aot: "
              "LoadedModule::call, a fresh result buffer each call.\n"
              "max error: against a double-precision reference, relative "
              "(layer norm, column sums:\nabsolute where |value| < 1).\n");
  return allOk;
}

} // namespace aot::bench
