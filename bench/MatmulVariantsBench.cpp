//===- MatmulVariantsBench.cpp - matmuls on unaligned data and on i8 ------===//
//
// Two cases a tuned library is also judged by: operands that are not
// 16-byte aligned (a view into a larger buffer, an odd offset into a
// weights file), against Eigen on the same unaligned memory; and the
// quantized matmul, i8 x i8 accumulated in i32, against Eigen's int32 GEMM
// on the same values widened beforehand (not timed). One thread each.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Timer.h"

#include "aot/abi/Tensor.h"

#include <Eigen/Core>

#include <cstdint>
#include <cstdio>
#include <cstring>
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

} // namespace

bool runMatmulVariantsBench(const Options &options) {
  const std::vector<std::int64_t> sizes =
      options.quick ? std::vector<std::int64_t>{256}
                    : std::vector<std::int64_t>{1024, 2048};
  const double budget = options.quick ? 0.2 : 1.5;
  // The i8 cases: square, and few rows of A (a quantized linear layer on
  // one or four samples) by the largest B, stored K x N and transposed (N x
  // K, as PyTorch keeps a linear layer's weights).
  struct IntCase {
    std::string name;
    std::int64_t m, n;
    bool transposed = false;
  };
  std::vector<IntCase> intCases;
  for (std::int64_t n : sizes)
    intCases.push_back({"i8_" + std::to_string(n), n, n});
  for (bool transposed : {false, true})
    for (std::int64_t rows : {1, 4})
      intCases.push_back({"i8_" + std::to_string(rows) + "x" +
                              std::to_string(sizes.back()) +
                              (transposed ? "t" : ""),
                          rows, sizes.back(), transposed});
  std::string text;
  for (std::int64_t n : sizes)
    text += matmulText({"f32_" + std::to_string(n), 1, n, n, n});
  for (const IntCase &c : intCases)
    text +=
        matmulText({c.name, 1, c.m, c.n, c.n, c.transposed, "i8", "i32", "0"});
  std::optional<LoadedModule> module = compileAndLoad(text, "variants.mlir");
  if (!module)
    return false;
  Eigen::setNbThreads(1);
  bool ok = true;

  std::printf("\n== f32 matmul on operands 4 bytes past their allocation's "
              "16-byte alignment (not 16-byte aligned), 1 thread ==\n");
  std::printf("%6s | %11s | %13s | %9s | %s\n", "N", "aot GFLOP/s",
              "Eigen GFLOP/s", "aot/Eigen", "same as aligned");
  for (std::int64_t n : sizes) {
    std::size_t count = std::size_t(n * n);
    // One float in front of each operand: the data starts 4 bytes past the
    // allocation's (at least 16-byte) alignment.
    std::vector<float> a = randomValues(count + 1, 1),
                       b = randomValues(count + 1, 2);
    std::vector<float> alignedA(a.begin() + 1, a.end()),
        alignedB(b.begin() + 1, b.end());
    const std::string name = "f32_" + std::to_string(n);
    std::vector<CallArg> args = {abi::Tensor::borrow(a.data() + 1, {n, n}),
                                 abi::Tensor::borrow(b.data() + 1, {n, n})};
    std::vector<CallArg> alignedArgs = {
        abi::Tensor::borrow(alignedA.data(), {n, n}),
        abi::Tensor::borrow(alignedB.data(), {n, n})};
    auto r = module->call(name, args),
         aligned = module->call(name, alignedArgs);
    if (!r || !aligned) {
      std::printf("error: calling %s failed\n", name.c_str());
      return false;
    }
    bool same = std::memcmp((*r)[0].data<float>(), (*aligned)[0].data<float>(),
                            count * sizeof(float)) == 0;
    Eigen::Map<const RowMatrix, Eigen::Unaligned> ea(a.data() + 1, n, n),
        eb(b.data() + 1, n, n);
    RowMatrix c(n, n);
    bool failed = false;
    Measurement aot =
        measure([&] { failed |= !module->call(name, args); }, budget, 3, 1000);
    Measurement eigen =
        measure([&] { c.noalias() = ea * eb; }, budget, 3, 1000);
    double flop = 2.0 * double(n) * double(n) * double(n);
    std::printf("%6lld | %11.2f | %13.2f | %8.2fx | %s\n",
                static_cast<long long>(n), flop / aot.seconds * 1e-9,
                flop / eigen.seconds * 1e-9, eigen.seconds / aot.seconds,
                same ? "yes" : "NO");
    ok = ok && same && !failed;
  }

  std::printf("\n== i8 x i8 -> i32 matmul against Eigen int32 GEMM (operands "
              "widened beforehand, not timed), 1 thread ==\n");
  std::printf("%22s | %11s | %13s | %9s | %s\n", "A * B", "aot GOP/s",
              "Eigen GOP/s", "aot/Eigen", "exact");
  for (const IntCase &cs : intCases) {
    const std::int64_t m = cs.m, n = cs.n;
    std::vector<std::int8_t> a = randomInt8(std::size_t(m * n), 3),
                             b = randomInt8(std::size_t(n * n), 4);
    IntMatrix wa(m, n), wb(n, n), c(m, n);
    for (std::size_t i = 0; i < a.size(); ++i)
      wa.data()[i] = a[i];
    for (std::size_t i = 0; i < b.size(); ++i)
      wb.data()[i] = b[i];
    std::vector<CallArg> args = {abi::Tensor::borrow(a.data(), {m, n}),
                                 abi::Tensor::borrow(b.data(), {n, n})};
    auto r = module->call(cs.name, args);
    if (!r) {
      std::printf("error: calling %s failed\n", cs.name.c_str());
      return false;
    }
    auto product = [&] {
      if (cs.transposed)
        c.noalias() = wa * wb.transpose();
      else
        c.noalias() = wa * wb;
    };
    product();
    bool exact = std::memcmp((*r)[0].data<std::int32_t>(), c.data(),
                             std::size_t(m * n) * sizeof(std::int32_t)) == 0;
    bool failed = false;
    Measurement aot = measure([&] { failed |= !module->call(cs.name, args); },
                              budget, 3, 1000);
    Measurement eigen = measure(product, budget, 3, 1000);
    double ops = 2.0 * double(m) * double(n) * double(n);
    std::string shape = std::to_string(m) + "x" + std::to_string(n) +
                        (cs.transposed ? " * (" : " * ") + std::to_string(n) +
                        "x" + std::to_string(n) + (cs.transposed ? ")^T" : "");
    std::printf("%22s | %11.2f | %13.2f | %8.2fx | %s\n", shape.c_str(),
                ops / aot.seconds * 1e-9, ops / eigen.seconds * 1e-9,
                eigen.seconds / aot.seconds, exact ? "yes" : "NO");
    ok = ok && exact && !failed;
  }
  return ok;
}

} // namespace aot::bench
