//===- ModelTest.cpp - a model's compiled functions against numpy ---------===//
//
// Compiles the model named by AOT_MODEL in-process, loads it, and calls every
// exported function with the inputs stored in AOT_REFERENCE (an .npz written
// by the model's numpy script), comparing each result with the stored
// expectation under the tolerance AOT_RTOL / AOT_ATOL / AOT_ULP. AOT_OPT and
// AOT_TARGET pick the optimisation level and target. AOT_MODEL and
// AOT_REFERENCE may each name several files, separated by ':' as in PATH:
// the models are checked in turn, in one process. The leak tests do so:
// under valgrind, most of a test's time is the first translation of the
// compiler's code, which one process pays once.
//
//===----------------------------------------------------------------------===//
#include "aot/Compiler.h"
#include "aot/abi/Compare.h"
#include "aot/abi/Npy.h"
#include "aot/abi/Npz.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

std::string env(const char *name, const char *fallback = nullptr) {
  const char *v = std::getenv(name);
  if (v)
    return v;
  if (!fallback)
    FAIL("environment variable " << name << " is not set");
  return fallback;
}

/// The stored tensor for `key`, with bf16 restored from its uint16 bits.
aot::abi::Tensor lookup(const std::map<std::string, aot::abi::Tensor> &npz,
                        const std::string &key, aot::abi::DType dtype) {
  auto it = npz.find(key);
  if (it == npz.end())
    FAIL("reference has no key '" << key << "'");
  aot::abi::Tensor t = it->second;
  t = aot::abi::asDType(t, dtype);
  if (t.dtype() != dtype)
    FAIL("reference key '" << key << "' holds "
                           << aot::abi::dtypeName(t.dtype()) << ", expected "
                           << aot::abi::dtypeName(dtype));
  return t;
}

/// A scalar argument from a 0-d reference array.
aot::CallArg scalarArg(const aot::abi::Tensor &t) {
  const void *p = t.rawData();
  std::optional<aot::CallArg> arg;
  if (!aot::visitScalarCallArg(t.dtype(), [&](auto tag) {
        decltype(tag) v;
        std::memcpy(&v, p, sizeof v);
        arg = v;
      }))
    FAIL("no scalar argument of dtype " << aot::abi::dtypeName(t.dtype()));
  return *arg;
}

/// The files of a ':'-separated list.
std::vector<std::string> splitList(const std::string &list) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (true) {
    std::size_t end = list.find(':', begin);
    parts.push_back(list.substr(begin, end - begin));
    if (end == std::string::npos)
      return parts;
    begin = end + 1;
  }
}

/// Compiles `model`, loads it and checks every function against `reference`.
void checkModel(const std::string &model, const std::string &reference,
                const aot::Pipeline &pipeline, const aot::Target &target,
                const aot::abi::Tolerance &tol) {
  aot::Compiler compiler;
  auto artifact = compiler.compile(aot::Source::file(model), pipeline, target);
  REQUIRE_MESSAGE(bool(artifact), (artifact ? "" : artifact.error().str()));
  auto loaded = artifact->load();
  REQUIRE_MESSAGE(bool(loaded), (loaded ? "" : loaded.error().str()));
  const auto npz = aot::abi::readNpz(reference);
  REQUIRE(!loaded->manifest().functions.empty());

  for (const aot::FunctionSig &fn : loaded->manifest().functions) {
    CAPTURE(fn.name);
    std::vector<aot::CallArg> args;
    std::vector<std::pair<aot::abi::Tensor, aot::abi::Tensor>> inputs;
    for (size_t i = 0; i < fn.args.size(); ++i) {
      auto t = lookup(npz, fn.name + "/arg" + std::to_string(i),
                      fn.args[i].dtype);
      if (fn.args[i].isScalar()) {
        args.push_back(scalarArg(t));
        continue;
      }
      // Passed in a private copy, compared afterwards with the original:
      // a compiled call must not write into its arguments.
      aot::abi::Tensor copy = aot::abi::Tensor::zeros(t.dtype(), t.shape());
      std::memcpy(copy.rawData(), t.contiguous().rawData(),
                  std::size_t(t.numElements()) * t.elementSize());
      args.push_back(copy);
      inputs.emplace_back(copy, t);
    }
    auto results = loaded->call(fn.name, args);
    REQUIRE_MESSAGE(bool(results), (results ? "" : results.error().str()));
    REQUIRE(results->size() == fn.results.size());
    for (const auto &[passed, original] : inputs) {
      aot::abi::Tolerance exact{0, 0, 0};
      aot::abi::Comparison c = aot::abi::compare(passed, original, exact);
      CHECK_MESSAGE(c.ok, "the call modified an argument: " << c.message);
    }
    for (size_t k = 0; k < fn.results.size(); ++k) {
      std::string key = fn.name + "/result" + std::to_string(k);
      auto expected = lookup(npz, key, fn.results[k].dtype);
      aot::abi::Comparison c = aot::abi::compare((*results)[k], expected, tol);
      CHECK_MESSAGE(c.ok, key << ": " << c.message);
    }
  }
}

} // namespace

TEST_CASE("every function of the model matches its numpy reference") {
  const std::vector<std::string> models = splitList(env("AOT_MODEL"));
  const std::vector<std::string> references = splitList(env("AOT_REFERENCE"));
  REQUIRE_MESSAGE(models.size() == references.size(),
                  "AOT_MODEL names " << models.size()
                                     << " files and AOT_REFERENCE "
                                     << references.size());
  aot::abi::Tolerance tol;
  tol.rtol = std::stod(env("AOT_RTOL", "1e-5"));
  tol.atol = std::stod(env("AOT_ATOL", "1e-6"));
  tol.ulp = std::stoll(env("AOT_ULP", "-1"));
  auto target = aot::Target::parse(env("AOT_TARGET", "host"));
  REQUIRE_MESSAGE(bool(target), (target ? "" : target.error().str()));
  const aot::Pipeline pipeline =
      aot::Pipeline()
          .optLevel(std::stoi(env("AOT_OPT", "2")))
          .runThreads(unsigned(std::stoi(env("AOT_THREADS", "1"))));
  for (std::size_t i = 0; i < models.size(); ++i) {
    CAPTURE(models[i]);
    checkModel(models[i], references[i], pipeline, *target, tol);
  }
}
