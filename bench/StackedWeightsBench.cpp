//===- StackedWeightsBench.cpp - layers that slice one stacked weight ----===//
//
// Models often keep the weights of their layers in one tensor (a scan over
// layers, a checkpoint's stacked parameters) and slice a layer's out where
// it is used. The slice must cost nothing: each layer's dispatch reads its
// weights where they are. Timed here: L layers of relu(x @ W_l + b_l), the
// weights sliced from a stacked L x K x K tensor, next to the same layers
// with every weight an argument of its own, on the same values; both
// checked against a plain loop in double. Every compile: -O3, one thread.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Timer.h"

#include "aot/Compiler.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace aot::bench {
namespace {

struct Shape {
  int layers, m, k;
};

std::string tensorType(std::initializer_list<int> dims) {
  std::string s = "tensor<";
  for (int d : dims)
    s += std::to_string(d) + "x";
  return s + "f32>";
}

/// The MLIR of `func.func @NAME`: the layers of `shape`, with the weights
/// stacked (`%w: L x K x K`, `%b: L x K`) or one argument per layer.
std::string mlpText(const Shape &shape, bool stacked) {
  const int l = shape.layers, m = shape.m, k = shape.k;
  std::string act = tensorType({m, k}), w = tensorType({k, k}),
              b = tensorType({k});
  std::string text = "func.func @" +
                     std::string(stacked ? "stacked" : "separate") +
                     "(%x: " + act;
  if (stacked)
    text += ", %w: " + tensorType({l, k, k}) + ", %b: " + tensorType({l, k});
  else
    for (int i = 0; i < l; ++i)
      text += ", %w" + std::to_string(i) + ": " + w + ", %b" +
              std::to_string(i) + ": " + b;
  text += ") -> " + act + " {\n  %z = arith.constant 0.0 : f32\n";
  std::string h = "%x";
  for (int i = 0; i < l; ++i) {
    std::string n = std::to_string(i);
    std::string wi = "%w" + n, bi = "%b" + n;
    if (stacked) {
      wi = "%ws" + n;
      bi = "%bs" + n;
      text += "  " + wi + " = tensor.extract_slice %w[" + n + ", 0, 0] [1, " +
              std::to_string(k) + ", " + std::to_string(k) +
              "] [1, 1, 1] : " + tensorType({l, k, k}) + " to " + w + "\n";
      text += "  " + bi + " = tensor.extract_slice %b[" + n + ", 0] [1, " +
              std::to_string(k) + "] [1, 1] : " + tensorType({l, k}) + " to " +
              b + "\n";
    }
    text += "  %e" + n + " = tensor.empty() : " + act + "\n";
    text += "  %f" + n + " = linalg.fill ins(%z : f32) outs(%e" + n + " : " +
            act + ") -> " + act + "\n";
    text += "  %m" + n + " = linalg.matmul ins(" + h + ", " + wi + " : " + act +
            ", " + w + ") outs(%f" + n + " : " + act + ") -> " + act + "\n";
    text += "  %h" + n +
            " = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, "
            "j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], "
            "iterator_types = [\"parallel\", \"parallel\"]} ins(%m" +
            n + ", " + bi + " : " + act + ", " + b + ") outs(%e" + n + " : " +
            act +
            ") {\n  ^bb0(%v: f32, %c: f32, %o: f32):\n"
            "    %s = arith.addf %v, %c : f32\n"
            "    %r = arith.maximumf %s, %z : f32\n"
            "    linalg.yield %r : f32\n  } -> " +
            act + "\n";
    h = "%h" + n;
  }
  return text + "  return " + h + " : " + act + "\n}\n";
}

/// The layers computed in double on the same values.
std::vector<double> reference(const Shape &shape, const std::vector<float> &x,
                              const std::vector<float> &w,
                              const std::vector<float> &b) {
  const int m = shape.m, k = shape.k;
  std::vector<double> h(x.begin(), x.end()), next(std::size_t(m) * k);
  for (int l = 0; l < shape.layers; ++l) {
    const float *wl = w.data() + std::size_t(l) * k * k;
    for (int i = 0; i < m; ++i) {
      double *row = next.data() + std::size_t(i) * k;
      for (int j = 0; j < k; ++j)
        row[j] = b[std::size_t(l) * k + j];
      for (int p = 0; p < k; ++p) {
        double a = h[std::size_t(i) * k + p];
        for (int j = 0; j < k; ++j)
          row[j] += a * wl[std::size_t(p) * k + j];
      }
      for (int j = 0; j < k; ++j)
        row[j] = std::max(row[j], 0.0);
    }
    h.swap(next);
  }
  return h;
}

/// The largest difference of `got` from `want`, relative to want's largest
/// magnitude.
double maxError(const std::vector<double> &want, const abi::Tensor &got) {
  double scale = 1e-30, worst = 0;
  for (double v : want)
    scale = std::max(scale, std::fabs(v));
  const auto *data = static_cast<const float *>(got.elementAt(0));
  for (std::size_t i = 0; i < want.size(); ++i)
    worst = std::max(worst, std::fabs(data[i] - want[i]) / scale);
  return worst;
}

} // namespace

bool runStackedWeightsBench(const Options &options) {
  std::printf("== layers whose weights are slices of one stacked tensor, "
              "next to the same\n   layers with each weight an argument of "
              "its own (-O3, one thread) ==\n");
  std::printf("  %-26s  %9s  %12s  %12s  %16s  %9s\n", "L layers, x @ W_l",
              "weights", "stacked", "separate", "stacked/separate",
              "max error");
  std::vector<Shape> shapes = {{8, 8, 1024}, {8, 128, 1024}, {64, 4, 256}};
  if (options.quick)
    shapes = {{4, 8, 256}};
  bool ok = true;
  for (const Shape &shape : shapes) {
    const int l = shape.layers, m = shape.m, k = shape.k;
    // Weights scaled so that the activations stay near 1 through the
    // layers: the check below compares them in relative terms.
    std::vector<float> x = randomValues(std::size_t(m) * k, 1),
                       w = randomValues(std::size_t(l) * k * k, 2),
                       b = randomValues(std::size_t(l) * k, 3);
    float scale = std::sqrt(3.0f / float(k));
    for (float &v : w)
      v *= scale;
    auto stacked = compileAndLoad(mlpText(shape, true), "stacked");
    auto separate = compileAndLoad(mlpText(shape, false), "separate");
    if (!stacked || !separate)
      return false;
    std::vector<CallArg> stackedArgs = {
        abi::Tensor::borrow(x.data(), {m, k}),
        abi::Tensor::borrow(w.data(), {l, k, k}),
        abi::Tensor::borrow(b.data(), {l, k})};
    std::vector<CallArg> separateArgs = {abi::Tensor::borrow(x.data(), {m, k})};
    for (int i = 0; i < l; ++i) {
      separateArgs.push_back(
          abi::Tensor::borrow(w.data() + std::size_t(i) * k * k, {k, k}));
      separateArgs.push_back(
          abi::Tensor::borrow(b.data() + std::size_t(i) * k, {k}));
    }
    std::vector<double> want = reference(shape, x, w, b);
    double worst = 0;
    auto timed = [&](LoadedModule &module, const char *name,
                     const std::vector<CallArg> &args) {
      auto first = module.call(name, args);
      if (!first || first->size() != 1) {
        std::printf("error: calling @%s failed%s\n", name,
                    first ? "" : (": " + first.error().str()).c_str());
        ok = false;
        return 0.0;
      }
      worst = std::max(worst, maxError(want, (*first)[0]));
      return measure([&] { (void)module.call(name, args); },
                     options.quick ? 0.05 : 0.5, 3, 2000)
          .seconds;
    };
    double inStack = timed(*stacked, "stacked", stackedArgs);
    double apart = timed(*separate, "separate", separateArgs);
    char what[64], bytes[32];
    std::snprintf(what, sizeof what, "%d x (%dx%d @ %dx%d)", l, m, k, k, k);
    std::snprintf(bytes, sizeof bytes, "%.1f MB",
                  double(l) * k * (k + 1) * 4 / 1e6);
    std::printf("  %-26s  %9s  %9.3f ms  %9.3f ms  %15.2fx  %9.1e\n", what,
                bytes, inStack * 1e3, apart * 1e3,
                apart > 0 ? inStack / apart : 0.0, worst);
    if (worst > 1e-4) {
      std::printf("error: the results differ from the reference by %.1e\n",
                  worst);
      ok = false;
    }
  }
  std::printf("(median of one call through LoadedModule::call, after a "
              "warm-up; max error:\n relative to the largest result, against "
              "the layers computed in double)\n\n");
  return ok;
}

} // namespace aot::bench
