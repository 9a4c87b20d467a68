//===- ConvBench.cpp - compiled NHWC convolutions vs Eigen ----------------===//
//
// Compiles 2-D convolutions in NHWC layout with HWCF filters
// (linalg.conv_2d_nhwc_hwcf, stride 1, no padding) in-process at -O3 for
// this machine, and times LoadedModule::call against Eigen doing what a
// hand-written library does: im2col (each output pixel's window as a row)
// and one single-threaded GEMM with the filter as a (KH*KW*C) x F matrix.
// The im2col copy is part of Eigen's time. Every compiled result is checked
// against Eigen's before its timing is believed.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "EigenThreads.h"
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

using RowMatrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// One convolution: input 1 x H x W x C, filter KH x KW x C x F.
struct ConvCase {
  const char *name;
  std::int64_t h, w, c, k, f;
  std::int64_t oh() const { return h - k + 1; }
  std::int64_t ow() const { return w - k + 1; }
  double flop() const { return 2.0 * oh() * ow() * f * k * k * c; }
};

std::string shape(std::initializer_list<std::int64_t> dims) {
  std::string s = "tensor<";
  for (std::int64_t d : dims)
    s += std::to_string(d) + "x";
  return s + "f32>";
}

std::string convFunction(const ConvCase &c) {
  std::string in = shape({1, c.h, c.w, c.c});
  std::string filter = shape({c.k, c.k, c.c, c.f});
  std::string out = shape({1, c.oh(), c.ow(), c.f});
  return "func.func @" + std::string(c.name) + "(%x: " + in +
         ", %w: " + filter + ") -> " + out +
         " {\n"
         "  %zero = arith.constant 0.0 : f32\n"
         "  %e = tensor.empty() : " +
         out +
         "\n"
         "  %acc = linalg.fill ins(%zero : f32) outs(%e : " +
         out + ") -> " + out +
         "\n"
         "  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : "
         "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : " +
         in + ", " + filter + ") outs(%acc : " + out + ") -> " + out +
         "\n"
         "  return %r : " +
         out + "\n}\n\n";
}


/// Eigen's convolution: im2col into `patches`, then one GEMM into `out`.
void eigenConv(const ConvCase &c, const std::vector<float> &input,
               const std::vector<float> &filter, RowMatrix &patches,
               RowMatrix &out) {
  const std::int64_t window = c.k * c.k * c.c;
  for (std::int64_t y = 0; y < c.oh(); ++y)
    for (std::int64_t x = 0; x < c.ow(); ++x) {
      float *row = patches.data() + (y * c.ow() + x) * window;
      for (std::int64_t ky = 0; ky < c.k; ++ky)
        std::copy_n(input.data() + ((y + ky) * c.w + x) * c.c, c.k * c.c,
                    row + ky * c.k * c.c);
    }
  Eigen::Map<const RowMatrix> weights(filter.data(), window, c.f);
  out.noalias() = patches * weights;
}

} // namespace

/// The same convolutions compiled with Pipeline::runThreads(2) against the
/// 1-thread build (results bit for bit the same) and Eigen on 2 threads.
bool runThreadedConv(const std::vector<ConvCase> &cases,
                     const std::string &text, double budget) {
  std::printf("\n2 threads (aot --threads=2, OpenMP) against 1:\n");
  std::optional<LoadedModule> one = compileAndLoad(text, "conv.mlir", 1);
  std::optional<LoadedModule> two = compileAndLoad(text, "conv.mlir", 2);
  if (!one || !two)
    return false;
  const bool eigenThreads = eigenOnThreads(2);
  std::printf("%-8s | %16s | %17s | %7s | %9s | %16s | %s\n", "case",
              "1 thread GFLOP/s", "2 threads GFLOP/s", "2T/1T", "same bits",
              "Eigen 2T GFLOP/s", "aot/Eigen (2T)");
  bool ok = true;
  for (const ConvCase &c : cases) {
    std::vector<float> input = randomValues(c.h * c.w * c.c, 1);
    std::vector<float> filter = randomValues(c.k * c.k * c.c * c.f, 2);
    std::vector<CallArg> args = {
        abi::Tensor::borrow(input.data(), {1, c.h, c.w, c.c}),
        abi::Tensor::borrow(filter.data(), {c.k, c.k, c.c, c.f})};
    auto r1 = one->call(c.name, args), r2 = two->call(c.name, args);
    if (!r1 || !r2) {
      std::printf("error: calling %s failed\n", c.name);
      return false;
    }
    bool same = std::memcmp((*r1)[0].data<float>(), (*r2)[0].data<float>(),
                            size_t(c.oh() * c.ow() * c.f) * sizeof(float)) == 0;
    bool failed = false;
    Measurement t1 = measure([&] { failed |= !one->call(c.name, args); },
                             budget, 3, 1000);
    Measurement t2 = measure([&] { failed |= !two->call(c.name, args); },
                             budget, 3, 1000);
    std::printf("%-8s | %16.2f | %17.2f | %6.2fx | %9s", c.name,
                c.flop() / t1.seconds * 1e-9, c.flop() / t2.seconds * 1e-9,
                t1.seconds / t2.seconds, same ? "yes" : "NO");
    if (eigenThreads) {
      RowMatrix patches(c.oh() * c.ow(), c.k * c.k * c.c);
      RowMatrix out(c.oh() * c.ow(), c.f);
      Measurement eigen = measure(
          [&] { eigenConv(c, input, filter, patches, out); }, budget, 3, 1000);
      std::printf(" | %16.2f | %13.2fx\n", c.flop() / eigen.seconds * 1e-9,
                  eigen.seconds / t2.seconds);
    } else {
      std::printf(" | %16s |\n", "(no OpenMP)");
    }
    ok = ok && same && !failed;
  }
  eigenOnThreads(1);
  return ok;
}

bool runConvBench(const Options &options) {
  const std::vector<ConvCase> cases =
      options.quick ? std::vector<ConvCase>{{"conv3x3", 18, 18, 32, 3, 32}}
                    : std::vector<ConvCase>{{"conv3x3", 58, 58, 64, 3, 64},
                                            {"conv1x1", 56, 56, 64, 1, 256}};
  const double budget = options.quick ? 0.2 : 1.5;
  std::printf("== f32 conv 2-D NHWC x HWCF, stride 1 (1 thread) vs Eigen "
              "im2col + GEMM ==\n");
  Eigen::setNbThreads(1);
  std::string text;
  for (const ConvCase &c : cases)
    text += convFunction(c);
  std::optional<LoadedModule> module = compileAndLoad(text, "conv.mlir");
  if (!module)
    return false;
  std::printf("%-8s %-28s | %11s %9s | %13s %9s | %9s | %s\n", "case",
              "input * filter", "aot GFLOP/s", "aot ms", "Eigen GFLOP/s",
              "Eigen ms", "aot/Eigen", "max abs err");
  bool allOk = true;
  for (const ConvCase &c : cases) {
    std::vector<float> input = randomValues(c.h * c.w * c.c, 1);
    std::vector<float> filter = randomValues(c.k * c.k * c.c * c.f, 2);
    RowMatrix patches(c.oh() * c.ow(), c.k * c.k * c.c);
    RowMatrix expected(c.oh() * c.ow(), c.f);
    eigenConv(c, input, filter, patches, expected);
    std::vector<CallArg> args = {
        abi::Tensor::borrow(input.data(), {1, c.h, c.w, c.c}),
        abi::Tensor::borrow(filter.data(), {c.k, c.k, c.c, c.f})};
    Expected<std::vector<abi::Tensor>> result = module->call(c.name, args);
    if (!result || result->size() != 1) {
      std::printf("error: calling %s failed%s\n", c.name,
                  result ? "" : (": " + result.error().str()).c_str());
      return false;
    }
    double worst = 0;
    for (std::int64_t i = 0; i < expected.size(); ++i) {
      float got = *static_cast<const float *>((*result)[0].elementAt(i));
      worst = std::max(worst, std::isfinite(got)
                                  ? double(std::abs(got - expected.data()[i]))
                                  : INFINITY);
    }
    // Sums of up to 576 products of values in [-1, 1].
    bool ok = worst <= 1e-3;
    result = std::vector<abi::Tensor>();
    bool callFailed = false;
    Measurement aot = measure(
        [&] {
          if (!module->call(c.name, args))
            callFailed = true;
        },
        budget, 3, 1000);
    Measurement eigen =
        measure([&] { eigenConv(c, input, filter, patches, expected); }, budget,
                3, 1000);
    if (callFailed) {
      std::printf("error: a timed call of %s failed\n", c.name);
      return false;
    }
    std::string what = "1x" + std::to_string(c.h) + "x" + std::to_string(c.w) +
                       "x" + std::to_string(c.c) + " * " + std::to_string(c.k) +
                       "x" + std::to_string(c.k) + "x" + std::to_string(c.c) +
                       "x" + std::to_string(c.f);
    double aotGflops = c.flop() / aot.seconds * 1e-9;
    double eigenGflops = c.flop() / eigen.seconds * 1e-9;
    std::printf("%-8s %-28s | %11.2f %9.3f | %13.2f %9.3f | %8.2fx | "
                "%.2e %s\n",
                c.name, what.c_str(), aotGflops, aot.seconds * 1e3, eigenGflops,
                eigen.seconds * 1e3, aotGflops / eigenGflops, worst,
                ok ? "ok" : "WRONG");
    std::fflush(stdout);
    allOk = allOk && ok;
  }
  allOk = runThreadedConv(cases, text, budget) && allOk;
  std::printf("\naot: LoadedModule::call (argument checks, a fresh result "
              "buffer each call);\n"
              "Eigen: im2col of the input, then one GEMM with the filter as "
              "a (KH*KW*C) x F matrix,\n"
              "       both timed. GFLOP/s = 2*OH*OW*F*KH*KW*C / median time "
              "of one call.\n");
  return allOk;
}

} // namespace aot::bench
