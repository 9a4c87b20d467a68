//===- aot-run.cpp - call compiled code from the shell --------------------===//
//
// Loads a compiled module (or compiles MLIR in this process), calls one of
// its functions on inputs from files, inline text or a random generator,
// and prints, writes, checks or times the results. Every argument is checked
// against the manifest before the code runs; errors exit 1 with a message
// naming the argument, and a crash of the compiled code is reported as one.
//
//===----------------------------------------------------------------------===//
#include "CrashGuard.h"
#include "Inputs.h"
#include "Options.h"
#include "Print.h"

#include "Support/ToolMain.h"
#include "aot/Compiler.h"
#include "aot/abi/Compare.h"
#include "aot/abi/Npy.h"
#include "aot/abi/Npz.h"
#include "aot/abi/ReferenceKeys.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>

namespace {

using aot::abi::Tensor;

int fail(const aot::Error &e) {
  std::cerr << e.str() << "\n";
  return 1;
}

bool endsWith(const std::string &s, std::string_view ext) {
  return s.size() >= ext.size() &&
         s.compare(s.size() - ext.size(), ext.size(), ext) == 0;
}

/// The module: MLIR compiled here, or a shared library loaded.
aot::Expected<aot::LoadedModule> loadModule(const aot::run::Options &o) {
  aot::Source source = aot::Source::file(o.module).format(o.inputFormat);
  if (o.inputFormat == aot::SourceFormat::Auto &&
      source.format() != aot::SourceFormat::Onnx &&
      !endsWith(o.module, ".mlir") && !endsWith(o.module, ".mlirbc")) {
    if (o.threads && *o.threads > 0)
      setenv("OMP_NUM_THREADS", std::to_string(*o.threads).c_str(), 1);
    return aot::LoadedModule::open(o.module);
  }
  std::vector<aot::Stage> text, bytecode;
  aot::Artifact::keepFor(aot::EmitKind::Object, o.pipeline, o.target, text,
                         bytecode);
  aot::Pipeline pipeline = o.pipeline;
  pipeline.keepOnly(std::move(text), std::move(bytecode));
  aot::Compiler compiler;
  auto artifact = compiler.compile(source, pipeline, o.target);
  if (!artifact)
    return artifact.error();
  for (const aot::Diagnostic &warning : artifact->warnings())
    std::cerr << warning.str() << "\n";
  return artifact->load();
}

aot::Expected<const aot::FunctionSig *>
pickFunction(const aot::Manifest &manifest, const std::string &name) {
  std::string names;
  for (const aot::FunctionSig &f : manifest.functions)
    names += (names.empty() ? "'" : ", '") + f.name + "'";
  if (name.empty()) {
    if (manifest.functions.size() == 1)
      return &manifest.functions.front();
    return aot::Error::message("module '" + manifest.module + "' has " +
                               std::to_string(manifest.functions.size()) +
                               " functions: name one with --function=NAME (" +
                               names + ")");
  }
  if (const aot::FunctionSig *f = manifest.find(name))
    return f;
  return aot::Error::message("module '" + manifest.module +
                             "' has no function '" + name + "'; it has " +
                             (names.empty() ? "none" : names));
}

/// The expected results, from an .npz (reference key scheme) or, for a
/// function of one result, an .npy.
aot::Expected<std::vector<Tensor>> expectedResults(const aot::Manifest &m,
                                                   const aot::FunctionSig &fn,
                                                   const std::string &path) {
  std::vector<Tensor> expected;
  if (endsWith(path, ".npy")) {
    if (fn.results.size() != 1)
      return aot::Error::message(
          "--expected=@" + path + ": '" + fn.name + "' has " +
          std::to_string(fn.results.size()) +
          " results; an .npy holds one (use an .npz with FUNC/resultN)");
    expected.push_back(aot::abi::readNpy(path));
    return expected;
  }
  std::map<std::string, Tensor> arrays = aot::abi::readNpz(path);
  std::vector<std::string> names, keys;
  for (const aot::FunctionSig &f : m.functions)
    names.push_back(f.name);
  for (const auto &[key, t] : arrays)
    keys.push_back(key);
  auto scheme = aot::abi::ReferenceKeys::choose(names, keys);
  for (size_t k = 0; k < fn.results.size(); ++k) {
    std::string key = scheme.result(fn.name, k);
    auto it = arrays.find(key);
    if (it == arrays.end())
      return aot::Error::message(path + ": no array '" + key + "' for result " +
                                 std::to_string(k) + " of '" + fn.name + "' (" +
                                 fn.results[k].str() + ")");
    expected.push_back(it->second);
  }
  return expected;
}

/// Compares every result; prints one line per result, true if all match.
aot::Expected<bool> check(const aot::run::Options &o, const aot::Manifest &m,
                          const aot::FunctionSig &fn,
                          const std::vector<Tensor> &results) {
  auto expected = expectedResults(m, fn, o.expected);
  if (!expected)
    return expected.error();
  bool ok = true;
  for (size_t k = 0; k < results.size(); ++k) {
    Tensor e = aot::abi::asDType((*expected)[k], results[k].dtype());
    aot::abi::Comparison c = aot::abi::compare(results[k], e, o.tolerance);
    std::cout << "result " << k << ": " << (c.ok ? "ok: " : "MISMATCH: ")
              << c.message << "\n";
    ok &= c.ok;
  }
  return ok;
}

void writeResults(const aot::run::Options &o, const aot::FunctionSig &fn,
                  const std::vector<Tensor> &results) {
  if (endsWith(o.output, ".npy")) {
    if (results.size() != 1)
      throw aot::abi::Error("--output=@" + o.output + ": '" + fn.name +
                            "' has " + std::to_string(results.size()) +
                            " results; an .npy holds one (use an .npz)");
    aot::abi::writeNpy(o.output, results[0]);
    return;
  }
  aot::abi::ReferenceKeys keys;
  std::map<std::string, Tensor> arrays;
  for (size_t k = 0; k < results.size(); ++k)
    arrays[keys.result(fn.name, k)] = results[k];
  aot::abi::writeNpz(o.output, arrays);
}

void printResults(const aot::run::Options &o, const aot::FunctionSig &fn,
                  const std::vector<Tensor> &results) {
  for (size_t k = 0; k < results.size(); ++k) {
    const Tensor &r = results[k];
    const aot::ValueSig &sig = fn.results[k];
    std::cout << "result " << k << ": " << sig.str();
    if (std::count(sig.shape.begin(), sig.shape.end(), -1))
      std::cout << ", shape " << aot::abi::shapeString(r.shape());
    std::cout << "\n" << aot::run::formatTensor(r, o.printLimit) << "\n";
  }
}

/// A time per call in the unit that shows it best.
std::string duration(double seconds) {
  char buf[32];
  if (seconds < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f us", seconds * 1e6);
  else if (seconds < 1)
    std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", seconds);
  return buf;
}

/// --benchmark: warm-up calls, then timed ones; min / median / max.
aot::Status benchmark(const aot::run::Options &o, aot::LoadedModule &module,
                      const aot::FunctionSig &fn,
                      const std::vector<aot::CallArg> &args) {
  using Clock = std::chrono::steady_clock;
  auto timedCall = [&]() -> aot::Expected<double> {
    auto start = Clock::now();
    auto results = module.call(fn.name, args);
    double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    if (!results)
      return results.error();
    return seconds;
  };
  // Warm-up: caches, page faults of the first allocations, OpenMP threads.
  int warmup = 0;
  for (auto start = Clock::now();
       warmup < 3 ||
       (warmup < 100 && Clock::now() - start < std::chrono::milliseconds(100));
       ++warmup)
    if (auto t = timedCall(); !t)
      return t.error();
  std::vector<double> times;
  auto start = Clock::now();
  while (o.benchmarkCalls
             ? std::int64_t(times.size()) < o.benchmarkCalls
             : times.size() < 5 ||
                   std::chrono::duration<double>(Clock::now() - start).count() <
                       o.benchmarkSeconds) {
    auto t = timedCall();
    if (!t)
      return t.error();
    times.push_back(*t);
  }
  std::sort(times.begin(), times.end());
  double median =
      times.size() % 2
          ? times[times.size() / 2]
          : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
  std::cout << "benchmark '" << fn.name << "': " << warmup
            << " warm-up calls, then " << times.size() << " timed calls\n"
            << "  min    " << duration(times.front()) << "\n"
            << "  median " << duration(median) << "\n"
            << "  max    " << duration(times.back()) << "\n";
  if (fn.results.size() == 1 && !fn.results[0].isScalar()) {
    auto results = module.call(fn.name, args);
    if (!results)
      return results.error();
    std::int64_t n = (*results)[0].numElements();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", double(n) / median);
    std::cout << "  " << buf << " elements/s (" << n
              << " result elements per call, at the median)\n";
  }
  return aot::Status::ok();
}

int run(const std::vector<std::string> &args) {
  auto options = aot::run::parseOptions(args);
  if (!options)
    return fail(options.error());
  const aot::run::Options &o = *options;
  if (o.help) {
    std::cout << aot::run::usage();
    return 0;
  }
  auto module = loadModule(o);
  if (!module)
    return fail(module.error());
  const aot::Manifest &manifest = module->manifest();
  auto fn = pickFunction(manifest, o.function);
  if (!fn)
    return fail(fn.error());
  auto inputs = aot::run::makeInputs(manifest, **fn, o);
  if (!inputs)
    return fail(inputs.error());

  aot::run::CrashGuard guard("function '" + (*fn)->name + "' of module '" +
                             manifest.module + "'");
  auto results = module->call((*fn)->name, *inputs);
  if (!results)
    return fail(results.error());
  int status = 0;
  if (!o.expected.empty()) {
    auto ok = check(o, manifest, **fn, *results);
    if (!ok)
      return fail(ok.error());
    status = *ok ? 0 : 1;
  }
  if (!o.output.empty())
    writeResults(o, **fn, *results);
  if (o.output.empty() && o.expected.empty() && !o.benchmark)
    printResults(o, **fn, *results);
  if (o.benchmark)
    if (aot::Status s = benchmark(o, *module, **fn, *inputs); !s)
      return fail(s.error());
  return status;
}

} // namespace

int main(int argc, char **argv) {
  return aot::toolMain("aot-run", argc, argv, run);
}
