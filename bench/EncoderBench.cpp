//===- EncoderBench.cpp - a transformer encoder layer, matmul by matmul ---===//
//
// Fusion and dispatch formation must not slow the matmuls of a real model
// down. The encoder layer of bench/models/encoder.mlir is compiled as a
// whole and timed; then its own matmul dispatches, as the `linalg` stage
// formed them (fused producers and consumers, destination-passing style),
// are made public, compiled from that stage on and each timed on its own,
// next to the same matmul compiled alone (fill + linalg.matmul or
// batch_matmul of the same shapes). Every compile: -O3, one thread.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Chain.h"
#include "Timer.h"

#include "aot/Compiler.h"

#include <cstdio>
#include <map>
#include <random>
#include <regex>
#include <string>
#include <vector>

namespace aot::bench {
namespace {

/// A tensor of uniform values in [-1, 1) for each tensor of `sig`.
std::vector<abi::Tensor> randomArgs(const FunctionSig &sig, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<abi::Tensor> out;
  for (const ValueSig &v : sig.args) {
    abi::Tensor t = abi::Tensor::zeros(v.dtype, v.shape);
    auto *data = static_cast<float *>(t.elementAt(0));
    for (std::int64_t i = 0; i < t.numElements(); ++i)
      data[i] = dist(rng);
    out.push_back(std::move(t));
  }
  return out;
}

/// "128x256" for a shape.
std::string shapeText(const std::vector<std::int64_t> &shape) {
  std::string s;
  for (std::int64_t d : shape) {
    if (!s.empty())
      s += 'x';
    s += std::to_string(d);
  }
  return s;
}

/// The matmul of a dispatch's first two arguments alone: fill + linalg.matmul
/// (rank 2) or linalg.batch_matmul (rank 3), returning a fresh tensor.
std::string aloneFunction(const std::string &name, const FunctionSig &sig) {
  const std::vector<std::int64_t> &a = sig.args[0].shape,
                                  &b = sig.args[1].shape;
  bool batch = a.size() == 3;
  std::vector<std::int64_t> c = a;
  c.back() = b.back();
  auto type = [](const std::vector<std::int64_t> &s) {
    return "tensor<" + shapeText(s) + "xf32>";
  };
  std::string op = batch ? "linalg.batch_matmul" : "linalg.matmul";
  return "func.func @" + name + "(%a: " + type(a) + ", %b: " + type(b) +
         ") -> " + type(c) + " {\n  %z = arith.constant 0.0 : f32\n" +
         "  %e = tensor.empty() : " + type(c) +
         "\n  %f = linalg.fill ins(%z : "
         "f32) outs(%e : " +
         type(c) + ") -> " + type(c) + "\n  %r = " + op +
         " ins(%a, %b : " + type(a) + ", " + type(b) +
         ") outs(%f : " + type(c) + ") -> " + type(c) +
         "\n  return %r : " + type(c) + "\n}\n";
}

} // namespace

double timeCall(LoadedModule &module, const FunctionSig &sig, bool quick) {
  std::vector<abi::Tensor> tensors = randomArgs(sig, 7);
  std::vector<CallArg> args(tensors.begin(), tensors.end());
  bool failed = false;
  Measurement m = measure(
      [&] {
        if (!module.call(sig.name, args))
          failed = true;
      },
      quick ? 0.05 : 0.5, 3, 2000);
  return failed ? 0 : m.seconds;
}

bool runEncoderBench(const Options &options) {
  std::printf("== transformer encoder layer (bench/models/encoder.mlir: 128 "
              "tokens, hidden 256,\n   4 heads, feed-forward 1024; -O3, one "
              "thread) ==\n");
  const std::string source = readFile(AOT_BENCH_ENCODER);
  Compiler compiler;
  auto fail = [](const char *what, const Error &e) {
    std::printf("error: %s:\n%s\n", what, e.str().c_str());
    return false;
  };

  // The layer as a whole.
  Pipeline base = Pipeline().optLevel(3).threads(1).runThreads(1);
  auto layer = compiler.compile(
      Source::memory(source, "encoder.mlir"),
      Pipeline(base).keepOnly({Stage::Linalg, Stage::Object}, {}));
  if (!layer)
    return fail("compiling the encoder layer failed", layer.error());
  auto layerModule = layer->load();
  if (!layerModule)
    return fail("loading the encoder layer failed", layerModule.error());
  double whole =
      timeCall(*layerModule, layer->manifest().functions[0], options.quick);
  std::printf("whole layer: %.3f ms per call\n", whole * 1e3);

  // The same layer as one function: the linalg stage without dispatch
  // formation, so that what calls between dispatches cost shows.
  std::string undivided = std::regex_replace(
      Pipeline::defaultStagePasses(Stage::Linalg),
      std::regex(",aot-form-dispatches,aot-deduplicate-dispatches"), "");
  auto single = compiler.compile(Source::memory(source, "encoder.mlir"),
                                 Pipeline(base)
                                     .setStagePasses(Stage::Linalg, undivided)
                                     .keepOnly({Stage::Object}, {}));
  if (!single)
    return fail("compiling the encoder layer as one function failed",
                single.error());
  auto singleModule = single->load();
  if (!singleModule)
    return fail("loading the encoder layer as one function failed",
                singleModule.error());
  double oneFunction =
      timeCall(*singleModule, single->manifest().functions[0], options.quick);
  std::printf("whole layer as one function (no dispatches): %.3f ms per "
              "call\n",
              oneFunction * 1e3);

  // Its matmul dispatches, public, compiled from the linalg stage on. The
  // inputs of the public functions are not protected here (the dispatches'
  // read-only arguments say so themselves), so a dispatch writes into the
  // buffer it is given, as it does inside the layer.
  std::string linalg = *layer->stage(Stage::Linalg);
  std::map<std::string, int> calls; // dispatch -> calls in the layer
  std::regex dispatch(
      R"(func\.func private @(encoder\$(batch_)?matmul_[0-9]+)\()");
  for (auto it = std::sregex_iterator(linalg.begin(), linalg.end(), dispatch);
       it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[1];
    std::string call = "call @" + name + "(";
    int n = 0;
    for (size_t at = linalg.find(call); at != std::string::npos;
         at = linalg.find(call, at + 1))
      ++n;
    calls[name] = n;
  }
  std::string exported = std::regex_replace(
      linalg, std::regex(R"(func\.func private @(encoder\$(batch_)?matmul_))"),
      "func.func @$1");
  // The stored manifest lists the layer's function only; read the
  // signatures off the functions instead.
  exported = std::regex_replace(exported,
                                std::regex(R"(aot\.manifest = "[^"]*")"), "");
  std::string bufferized = Pipeline::defaultStagePasses(Stage::Bufferized);
  bufferized =
      std::regex_replace(bufferized, std::regex("aot-protect-arguments,"), "");
  auto parts =
      compiler.compile(Source::memory(exported, "encoder.linalg.mlir"),
                       Pipeline(base)
                           .compileFrom(Stage::Tiled)
                           .setStagePasses(Stage::Bufferized, bufferized)
                           .keepOnly({Stage::Object}, {}));
  if (!parts)
    return fail("compiling the encoder's dispatches failed", parts.error());
  auto partsModule = parts->load();
  if (!partsModule)
    return fail("loading the encoder's dispatches failed", partsModule.error());

  // The same matmuls alone.
  std::string aloneSource;
  std::map<std::string, std::string> aloneName;
  int index = 0;
  for (const auto &[name, n] : calls) {
    const FunctionSig *sig = parts->manifest().find(name);
    if (!sig || sig->args.size() < 2)
      return fail("reading the dispatches",
                  Error::message("no signature for " + name));
    aloneName[name] = "alone_" + std::to_string(index++);
    aloneSource += aloneFunction(aloneName[name], *sig);
  }
  auto alone = compiler.compile(Source::memory(aloneSource, "alone.mlir"),
                                Pipeline(base).keepOnly({Stage::Object}, {}));
  if (!alone)
    return fail("compiling the matmuls alone failed", alone.error());
  auto aloneModule = alone->load();
  if (!aloneModule)
    return fail("loading the matmuls alone failed", aloneModule.error());

  std::printf("  %-26s  %5s  %-22s  %12s  %12s  %11s\n", "dispatch", "calls",
              "A @ B", "in the layer", "alone", "layer/alone");
  bool ok = whole > 0 && oneFunction > 0;
  for (const auto &[name, n] : calls) {
    const FunctionSig &sig = *parts->manifest().find(name);
    const FunctionSig &plain = *alone->manifest().find(aloneName[name]);
    double in = timeCall(*partsModule, sig, options.quick);
    double by = timeCall(*aloneModule, plain, options.quick);
    std::string shapes =
        shapeText(sig.args[0].shape) + " @ " + shapeText(sig.args[1].shape);
    std::printf("  %-26s  %5d  %-22s  %9.3f ms  %9.3f ms  %10.2fx\n",
                name.c_str(), n, shapes.c_str(), in * 1e3, by * 1e3,
                by > 0 ? in / by : 0.0);
    ok = ok && in > 0 && by > 0;
  }
  std::printf("(median of one call through LoadedModule::call, after a "
              "warm-up; a dispatch\n is called with its output buffer, the "
              "matmul alone allocates its result)\n\n");
  return ok;
}

} // namespace aot::bench
