//===- Bisect.cpp - finding the action that breaks a model ----------------===//
#include "aot/Bisect.h"

#include "aot/abi/Compare.h"
#include "aot/abi/ReferenceFile.h"
#include "aot/abi/ReferenceKeys.h"

#include <map>
#include <optional>

namespace aot {

namespace {

/// One compile-and-check under some action control.
struct Outcome {
  bool compiled = false;
  bool matches = false;
  /// The compile error, or the first mismatch, or "".
  std::string message;
};

CallArg scalarArgument(const abi::ReferenceFile &ref, const std::string &key,
                       abi::DType dtype) {
  std::optional<CallArg> arg;
  if (!visitScalarCallArg(
          dtype, [&](auto tag) { arg = ref.scalar<decltype(tag)>(key); }))
    throw abi::Error(key + ": no scalar argument of dtype " +
                     std::string(abi::dtypeName(dtype)));
  return *arg;
}

class Bisector {
public:
  Bisector(const Compiler &compiler, const Source &source,
           const Pipeline &pipeline, const Target &target,
           const abi::ReferenceFile &reference, const abi::Tolerance &tol)
      : compiler_(compiler), source_(source), pipeline_(pipeline),
        target_(target), reference_(reference), tol_(tol) {}

  int compiles() const { return compiles_; }

  /// Compiles with `skip` deciding over each action (and `seen`, if given,
  /// recording all of them), calls every function and compares.
  Outcome run(const std::function<bool(const ActionInfo &)> &skip,
              std::vector<ActionInfo> *seen = nullptr) {
    ++compiles_;
    DebugOptions debug = pipeline_.debug();
    debug.actionControl = [&](const ActionInfo &a) {
      if (seen)
        seen->push_back(a);
      return skip(a);
    };
    Pipeline p = pipeline_;
    p.debug(std::move(debug));
    Outcome out;
    auto artifact = compiler_.compile(source_, p, target_);
    if (!artifact) {
      out.message = artifact.error().str();
      return out;
    }
    auto loaded = artifact->load();
    if (!loaded) {
      out.message = loaded.error().str();
      return out;
    }
    out.compiled = true;
    const std::vector<FunctionSig> &functions = loaded->manifest().functions;
    std::vector<std::string> names;
    for (const FunctionSig &fn : functions)
      names.push_back(fn.name);
    // The same keys aot-testgen reads: FUNC/argN, or InputN for one function.
    abi::ReferenceKeys keys =
        abi::ReferenceKeys::choose(names, reference_.keys());
    for (const FunctionSig &fn : functions) {
      std::vector<CallArg> args;
      for (size_t i = 0; i < fn.args.size(); ++i) {
        const ValueSig &a = fn.args[i];
        std::string key = keys.argument(fn.name, i);
        if (a.isScalar())
          args.push_back(scalarArgument(reference_, key, a.dtype));
        else
          args.push_back(reference_.tensor(key, a.dtype, a.shape).contiguous());
      }
      auto results = loaded->call(fn.name, args);
      if (!results) {
        out.message = results.error().str();
        return out;
      }
      for (size_t k = 0; k < fn.results.size(); ++k) {
        std::string key = keys.result(fn.name, k);
        abi::Tensor expected =
            reference_.expected(key, fn.results[k].dtype, fn.results[k].shape);
        abi::Comparison c = abi::compare((*results)[k], expected, tol_);
        if (!c.ok) {
          out.message = key + ": " + c.message;
          return out;
        }
      }
    }
    out.matches = true;
    return out;
  }

  bool fixedBySkipping(std::int64_t pass, std::int64_t lo, std::int64_t hi) {
    Outcome o = run([&](const ActionInfo &a) {
      return a.tag == "apply-pattern" && a.passExecution == pass &&
             a.ordinalInPass >= lo && a.ordinalInPass < hi;
    });
    return o.compiled && o.matches;
  }

private:
  const Compiler &compiler_;
  const Source &source_;
  const Pipeline &pipeline_;
  const Target &target_;
  const abi::ReferenceFile &reference_;
  abi::Tolerance tol_;
  int compiles_ = 0;
};

} // namespace

Expected<BisectResult> bisectActions(const Compiler &compiler,
                                     const Source &source,
                                     const Pipeline &pipeline,
                                     const Target &target,
                                     const std::string &referencePath,
                                     const abi::Tolerance &tolerance) {
  try {
    abi::ReferenceFile reference = abi::ReferenceFile::open(referencePath);
    Bisector bisector(compiler, source, pipeline, target, reference, tolerance);
    BisectResult result;
    std::vector<ActionInfo> actions;
    Outcome baseline =
        bisector.run([](const ActionInfo &) { return false; }, &actions);
    result.compiles = bisector.compiles();
    if (!baseline.compiled)
      return Error::message("cannot bisect: the module does not compile: " +
                            baseline.message);
    if (baseline.matches) {
      result.summary = "every result matches the reference: nothing to bisect";
      return result;
    }
    result.baseline = baseline.message;

    // Pass executions that applied patterns, in order, and how many.
    std::map<std::int64_t, std::int64_t> patternsPerPass;
    std::map<std::int64_t, const ActionInfo *> byIndex;
    for (const ActionInfo &a : actions) {
      byIndex[a.index] = &a;
      if (a.tag == "apply-pattern" && a.passExecution)
        ++patternsPerPass[a.passExecution];
    }
    for (const auto &[pass, count] : patternsPerPass) {
      if (!bisector.fixedBySkipping(pass, 0, count))
        continue;
      // Halve the range while one half alone repairs the result.
      std::int64_t lo = 0, hi = count;
      while (hi - lo > 1) {
        std::int64_t mid = lo + (hi - lo) / 2;
        if (bisector.fixedBySkipping(pass, lo, mid))
          hi = mid;
        else if (bisector.fixedBySkipping(pass, mid, hi))
          lo = mid;
        else
          break;
      }
      result.compiles = bisector.compiles();
      for (const ActionInfo &a : actions)
        if (a.tag == "apply-pattern" && a.passExecution == pass &&
            a.ordinalInPass == lo) {
          result.action = a;
          break;
        }
      result.pass = *byIndex[pass];
      result.found = true;
      result.summary =
          hi - lo == 1
              ? "skipping this pattern application alone makes every "
                "result match"
              : "skipping applications " + std::to_string(lo) + ".." +
                    std::to_string(hi - 1) +
                    " of this pass together makes every result match; no "
                    "single one of them does (the first is shown)";
      return result;
    }
    result.compiles = bisector.compiles();
    result.summary = "no pass's pattern applications, skipped together, make "
                     "the results match (or skipping them breaks the compile)";
    return result;
  } catch (const std::exception &e) {
    return Error::message(e.what());
  }
}

} // namespace aot
