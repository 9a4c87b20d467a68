//===- MatmulVariantsBench.cpp - matmuls on unaligned data and on i8 ------===//
//
// Two cases a tuned library is also judged by: operands that are not
// 16-byte aligned (a view into a larger buffer, an odd offset into a
// weights file), against Eigen on the same unaligned memory; and the
// quantized matmul, i8 x i8 accumulated in i32, against Eigen's int32 GEMM
// on the same values widened beforehand (not timed). On one thread, then
// the same cases compiled for two (OpenMP) against Eigen on two.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "EigenThreads.h"
#include "Timer.h"

#include "aot/abi/Tensor.h"

#include <Eigen/Core>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace aot::bench {

namespace {

using RowMatrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using IntMatrix = Eigen::Matrix<std::int32_t, Eigen::Dynamic, Eigen::Dynamic,
                                Eigen::RowMajor>;

std::vector<std::int8_t> randomInt8(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-128, 127);
  std::vector<std::int8_t> v(count);
  for (std::int8_t &x : v)
    x = std::int8_t(dist(rng));
  return v;
}

/// One timed case: a compiled function on its arguments next to Eigen's
/// product of the same values.
struct Case {
  bool integer = false;
  std::string shape, function;
  double ops = 0;
  /// The buffers that `args` borrow.
  std::vector<std::shared_ptr<const void>> buffers;
  std::vector<CallArg> args;
  /// Eigen's product, into a matrix of its own.
  std::function<void()> eigen;
  /// Whether `result` (of `module`'s function on `args`) is right: the same
  /// bits as on aligned operands, or as Eigen's int32 product (after
  /// eigen() ran).
  std::function<bool(LoadedModule &module, const abi::Tensor &result)> right;
};

/// f32 N x N by N x N on operands 4 bytes past their allocation's 16-byte
/// alignment.
Case unalignedCase(std::int64_t n) {
  const std::size_t count = std::size_t(n * n);
  // One float in front of each operand: the data starts 4 bytes past the
  // allocation's (at least 16-byte) alignment.
  auto a = std::make_shared<std::vector<float>>(randomValues(count + 1, 1));
  auto b = std::make_shared<std::vector<float>>(randomValues(count + 1, 2));
  auto alignedA =
      std::make_shared<std::vector<float>>(a->begin() + 1, a->end());
  auto alignedB =
      std::make_shared<std::vector<float>>(b->begin() + 1, b->end());
  auto c = std::make_shared<RowMatrix>(n, n);
  Case cs;
  cs.shape = std::to_string(n);
  cs.function = "f32_" + std::to_string(n);
  cs.ops = 2.0 * double(n) * double(n) * double(n);
  cs.buffers = {a, b};
  cs.args = {abi::Tensor::borrow(a->data() + 1, {n, n}),
             abi::Tensor::borrow(b->data() + 1, {n, n})};
  cs.eigen = [a, b, c, n] {
    Eigen::Map<const RowMatrix, Eigen::Unaligned> ea(a->data() + 1, n, n),
        eb(b->data() + 1, n, n);
    c->noalias() = ea * eb;
  };
  cs.right = [alignedA, alignedB, n, count, function = cs.function](
                 LoadedModule &module, const abi::Tensor &result) {
    auto aligned =
        module.call(function, {abi::Tensor::borrow(alignedA->data(), {n, n}),
                               abi::Tensor::borrow(alignedB->data(), {n, n})});
    return aligned &&
           std::memcmp(result.data<float>(), (*aligned)[0].data<float>(),
                       count * sizeof(float)) == 0;
  };
  return cs;
}

/// i8 m x n by n x n (or by n x n stored transposed) into i32.
Case intCase(const std::string &function, std::int64_t m, std::int64_t n,
             bool transposed) {
  auto a = std::make_shared<std::vector<std::int8_t>>(
      randomInt8(std::size_t(m * n), 3));
  auto b = std::make_shared<std::vector<std::int8_t>>(
      randomInt8(std::size_t(n * n), 4));
  auto wa = std::make_shared<IntMatrix>(m, n),
       wb = std::make_shared<IntMatrix>(n, n),
       c = std::make_shared<IntMatrix>(m, n);
  for (std::size_t i = 0; i < a->size(); ++i)
    wa->data()[i] = (*a)[i];
  for (std::size_t i = 0; i < b->size(); ++i)
    wb->data()[i] = (*b)[i];
  Case cs;
  cs.integer = true;
  cs.function = function;
  cs.shape = std::to_string(m) + "x" + std::to_string(n) +
             (transposed ? " * (" : " * ") + std::to_string(n) + "x" +
             std::to_string(n) + (transposed ? ")^T" : "");
  cs.ops = 2.0 * double(m) * double(n) * double(n);
  cs.buffers = {a, b};
  cs.args = {abi::Tensor::borrow(a->data(), {m, n}),
             abi::Tensor::borrow(b->data(), {n, n})};
  cs.eigen = [wa, wb, c, transposed] {
    if (transposed)
      c->noalias() = *wa * wb->transpose();
    else
      c->noalias() = *wa * *wb;
  };
  cs.right = [c](LoadedModule &, const abi::Tensor &result) {
    return std::memcmp(result.data<std::int32_t>(), c->data(),
                       std::size_t(c->size()) * sizeof(std::int32_t)) == 0;
  };
  return cs;
}

/// The one-thread table of the cases of one kind: compiled against Eigen,
/// each result checked.
bool printOneThread(LoadedModule &module, std::vector<Case> &cases,
                    bool integer, double budget) {
  if (integer) {
    std::printf("\n== i8 x i8 -> i32 matmul against Eigen int32 GEMM "
                "(operands widened beforehand, not timed), 1 thread ==\n");
    std::printf("%22s | %11s | %13s | %9s | %s\n", "A * B", "aot GOP/s",
                "Eigen GOP/s", "aot/Eigen", "exact");
  } else {
    std::printf("\n== f32 matmul on operands 4 bytes past their allocation's "
                "16-byte alignment (not 16-byte aligned), 1 thread ==\n");
    std::printf("%22s | %11s | %13s | %9s | %s\n", "N", "aot GFLOP/s",
                "Eigen GFLOP/s", "aot/Eigen", "same as aligned");
  }
  bool ok = true;
  for (Case &cs : cases) {
    if (cs.integer != integer)
      continue;
    auto r = module.call(cs.function, cs.args);
    if (!r) {
      std::printf("error: calling %s failed\n", cs.function.c_str());
      return false;
    }
    cs.eigen();
    const bool right = cs.right(module, (*r)[0]);
    bool failed = false;
    Measurement aot = measure(
        [&] { failed |= !module.call(cs.function, cs.args); }, budget, 3, 1000);
    Measurement eigen = measure(cs.eigen, budget, 3, 1000);
    std::printf("%22s | %11.2f | %13.2f | %8.2fx | %s\n", cs.shape.c_str(),
                cs.ops / aot.seconds * 1e-9, cs.ops / eigen.seconds * 1e-9,
                eigen.seconds / aot.seconds, right ? "yes" : "NO");
    ok = ok && right && !failed;
  }
  return ok;
}

/// Every case compiled for two threads against one, and against Eigen on
/// two threads; the two threads' results must be the bits of one thread's.
bool printTwoThreads(LoadedModule &one, LoadedModule &two,
                     const std::vector<Case> &cases, double budget) {
  std::printf("\n== the same on 2 threads (aot --threads=2: OpenMP, libomp; "
              "Eigen with OpenMP) ==\n");
  const bool eigenThreads = eigenOnThreads(2);
  std::printf("%22s | %9s | %9s | %7s | %9s | %9s | %s\n", "case", "1T G/s",
              "2T G/s", "2T/1T", "same bits", "Eigen 2T", "aot/Eigen (2T)");
  bool ok = true;
  for (const Case &cs : cases) {
    auto r1 = one.call(cs.function, cs.args),
         r2 = two.call(cs.function, cs.args);
    if (!r1 || !r2) {
      std::printf("error: calling %s failed\n", cs.function.c_str());
      eigenOnThreads(1);
      return false;
    }
    const abi::Tensor &t1 = (*r1)[0], &t2 = (*r2)[0];
    const std::size_t bytes = std::size_t(t1.numElements()) * t1.elementSize();
    const bool same = t1.shape() == t2.shape() && t1.dtype() == t2.dtype() &&
                      std::memcmp(t1.rawData(), t2.rawData(), bytes) == 0;
    bool failed = false;
    Measurement m1 = measure([&] { failed |= !one.call(cs.function, cs.args); },
                             budget, 3, 1000);
    Measurement m2 = measure([&] { failed |= !two.call(cs.function, cs.args); },
                             budget, 3, 1000);
    const std::string label =
        (cs.integer ? "i8 " : "f32 unaligned ") + cs.shape;
    std::printf("%22s | %9.2f | %9.2f | %6.2fx | %9s", label.c_str(),
                cs.ops / m1.seconds * 1e-9, cs.ops / m2.seconds * 1e-9,
                m1.seconds / m2.seconds, same ? "yes" : "NO");
    if (eigenThreads) {
      Measurement eigen = measure(cs.eigen, budget, 3, 1000);
      std::printf(" | %9.2f | %13.2fx\n", cs.ops / eigen.seconds * 1e-9,
                  eigen.seconds / m2.seconds);
    } else {
      std::printf(" | %9s | %14s\n", "(no OpenMP)", "");
    }
    std::fflush(stdout);
    ok = ok && same && !failed;
  }
  std::printf("G/s: GFLOP/s for f32, GOP/s for i8.\n");
  eigenOnThreads(1);
  return ok;
}

} // namespace

bool runMatmulVariantsBench(const Options &options) {
  const std::vector<std::int64_t> sizes =
      options.quick ? std::vector<std::int64_t>{256}
                    : std::vector<std::int64_t>{1024, 2048};
  const double budget = options.quick ? 0.2 : 1.5;
  std::vector<Case> cases;
  std::string text;
  for (std::int64_t n : sizes) {
    cases.push_back(unalignedCase(n));
    text += matmulText({cases.back().function, 1, n, n, n});
  }
  // The i8 cases: square, and few rows of A (a quantized linear layer on
  // one or four samples) by the largest B, stored K x N and transposed (N x
  // K, as PyTorch keeps a linear layer's weights).
  auto addInt = [&](std::int64_t m, std::int64_t n, bool transposed) {
    const std::string name = m == n ? "i8_" + std::to_string(n)
                                    : "i8_" + std::to_string(m) + "x" +
                                          std::to_string(n) +
                                          (transposed ? "t" : "");
    cases.push_back(intCase(name, m, n, transposed));
    text += matmulText({name, 1, m, n, n, transposed, "i8", "i32", "0"});
  };
  for (std::int64_t n : sizes)
    addInt(n, n, false);
  for (bool transposed : {false, true})
    for (std::int64_t rows : {1, 4})
      addInt(rows, sizes.back(), transposed);
  std::optional<LoadedModule> one = compileAndLoad(text, "variants.mlir");
  std::optional<LoadedModule> two = compileAndLoad(text, "variants.mlir", 2);
  if (!one || !two)
    return false;
  Eigen::setNbThreads(1);
  bool ok = printOneThread(*one, cases, false, budget);
  ok = printOneThread(*one, cases, true, budget) && ok;
  return printTwoThreads(*one, *two, cases, budget) && ok;
}

} // namespace aot::bench
