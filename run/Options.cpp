//===- Options.cpp - aot-run's command line -------------------------------===//
#include "Options.h"

#include "Support/ToolOptions.h"

#include <charconv>
#include <cmath>

namespace aot::run {

std::string usage() {
  return R"(usage: aot-run MODULE [--function=NAME] [INPUT...] [options]

Calls a function of a compiled module on some data: prints its results,
writes them, checks them against a reference, or times it.

MODULE is a shared library that aot-compile wrote (it carries its manifest),
or an MLIR module (.mlir text or .mlirbc bytecode) or an ONNX model (.onnx),
compiled in this process first.

inputs, one per argument, in order (positional or --input=INPUT):
  @x.npy                     a tensor (or, as a 0-d array, a scalar)
  @inputs.npz                every argument, keys FUNC/argN (or InputN for a
                             module of one function): aot-compile's reference
                             scheme; the only input then
  2x3xf32=1,2,3,4,5,6        inline values (commas or spaces), row-major;
                             one value fills the tensor: 4x4xf32=0
  f32=0.5                    a scalar, or a 0-d tensor; i1 takes true/false
  --random-inputs            random values for every argument (floats in
                             [-1, 1), integers in [-8, 8] (i4: [-8, 7]), i1
                             either)
  --seed=N                   the random generator's seed (default 0)
  --dim=ARG:AXIS=SIZE        the size of a dynamic dim of a random input

options:
  --function=NAME            the function to call (needed when the module
                             has several)
  --output=@out.npz|@out.npy write the results (keys FUNC/resultN in .npz)
                             instead of printing them
  --expected=@ref.npz|@ref.npy
                             compare the results with a reference (keys
                             FUNC/resultN or OutputN); exit 1 naming the first
                             mismatch
  --rtol=X --atol=Y --ulp=N  the comparison's tolerance (1e-5, 1e-6, off),
                             as the generated tests compare
  --benchmark[=N]            time N calls after warm-up calls (default: as
                             many as fit in --benchmark-time); prints min,
                             median and max per call
  --benchmark-time=SECONDS   the time budget of --benchmark (default 1)
  --print-limit=N            print results of more elements elided (1000)
  --threads=N                threads of the code's parallel loops: compiled
                             with N for an MLIR module (default 0: the
                             OpenMP runtime's count); OMP_NUM_THREADS for a
                             shared library compiled with --threads=0
  -O0..-O3, --target=SPEC    how an MLIR module is compiled (default -O2,
                             host)
  --input-format=mlir|onnx   compile MODULE as MLIR or ONNX, whatever its
                             name
  --help                     print this help

exit status: 0 on success; 1 on an error (input, module, options), a result
that differs from --expected, or a crash of the compiled code.
)";
}

namespace {

const options::CommandLine kCommandLine("aot-run");

Error bad(const std::string &message) { return kCommandLine.bad(message); }

template <typename T> std::optional<T> number(std::string_view text) {
  T value{};
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

/// --dim=ARG:AXIS=SIZE
Expected<DimSize> parseDim(const std::string &text) {
  auto fail = [&] {
    return bad("--dim needs ARG:AXIS=SIZE (e.g. --dim=0:1=128), got '" + text +
               "'");
  };
  size_t colon = text.find(':'), eq = text.find('=');
  if (colon == std::string::npos || eq == std::string::npos || eq < colon)
    return fail();
  auto arg = number<int>(std::string_view(text).substr(0, colon));
  auto axis =
      number<int>(std::string_view(text).substr(colon + 1, eq - colon - 1));
  auto size = number<std::int64_t>(std::string_view(text).substr(eq + 1));
  if (!arg || !axis || !size || *arg < 0 || *axis < 0 || *size < 0)
    return fail();
  return DimSize{*arg, *axis, *size};
}

/// A file named after '@' (--output, --expected).
Expected<std::string> atFile(std::string_view option, const std::string &v) {
  if (v.size() < 2 || v[0] != '@')
    return bad(std::string(option) + " needs @FILE.npz or @FILE.npy, got '" +
               v + "'");
  std::string path = v.substr(1);
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() &&
           path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (!ends(".npz") && !ends(".npy"))
    return bad(std::string(option) + " names a .npz or .npy file, got '" +
               path + "'");
  return path;
}

Status parseArgument(const std::string &a, Options &o) {
  auto value = [&](std::string_view prefix) {
    return options::valueAfter(a, prefix);
  };
  if (a == "--help" || a == "-h") {
    o.help = true;
  } else if (auto v = value("--function=")) {
    if (v->empty())
      return bad("--function needs a function name");
    o.function = *v;
  } else if (auto v = value("--input=")) {
    o.inputs.push_back(*v);
  } else if (a == "--random-inputs") {
    o.randomInputs = true;
  } else if (auto v = value("--seed=")) {
    auto n = number<std::uint64_t>(*v);
    if (!n)
      return bad("--seed needs a non-negative integer, got '" + *v + "'");
    o.seed = *n;
  } else if (auto v = value("--dim=")) {
    auto dim = parseDim(*v);
    if (!dim)
      return dim.error();
    o.dims.push_back(*dim);
  } else if (auto v = value("--output=")) {
    auto path = atFile("--output", *v);
    if (!path)
      return path.error();
    o.output = *path;
  } else if (auto v = value("--expected=")) {
    auto path = atFile("--expected", *v);
    if (!path)
      return path.error();
    o.expected = *path;
  } else if (auto v = value("--rtol=")) {
    auto t = kCommandLine.tolerance("--rtol", *v);
    if (!t)
      return t.error();
    o.tolerance.rtol = *t;
  } else if (auto v = value("--atol=")) {
    auto t = kCommandLine.tolerance("--atol", *v);
    if (!t)
      return t.error();
    o.tolerance.atol = *t;
  } else if (auto v = value("--ulp=")) {
    auto u = kCommandLine.ulp("--ulp", *v);
    if (!u)
      return u.error();
    o.tolerance.ulp = *u;
  } else if (a == "--benchmark") {
    o.benchmark = true;
  } else if (auto v = value("--benchmark=")) {
    auto n = number<std::int64_t>(*v);
    if (!n || *n < 1)
      return bad("--benchmark needs a call count of 1 or more, got '" + *v +
                 "'");
    o.benchmark = true;
    o.benchmarkCalls = *n;
  } else if (auto v = value("--benchmark-time=")) {
    auto s = number<double>(*v);
    if (!s || !std::isfinite(*s) || *s <= 0)
      return bad("--benchmark-time needs a positive number of seconds, got '" +
                 *v + "'");
    o.benchmarkSeconds = *s;
  } else if (auto v = value("--print-limit=")) {
    auto n = number<std::int64_t>(*v);
    if (!n || *n < 0)
      return bad("--print-limit needs an element count, got '" + *v + "'");
    o.printLimit = *n;
  } else if (auto v = value("--threads=")) {
    auto n = number<unsigned>(*v);
    if (!n || *n > 1024)
      return bad("--threads needs a thread count (0 for the OpenMP "
                 "runtime's), got '" +
                 *v + "'");
    o.threads = *n;
    o.pipeline.runThreads(*n);
  } else if (a.size() == 3 && a.rfind("-O", 0) == 0) {
    if (a[2] < '0' || a[2] > '3')
      return bad("unknown optimisation level '" + a + "': use -O0..-O3");
    o.pipeline.optLevel(a[2] - '0');
  } else if (auto v = value("--input-format=")) {
    auto format = kCommandLine.inputFormat(*v);
    if (!format)
      return format.error();
    o.inputFormat = *format;
  } else if (auto v = value("--target=")) {
    auto target = Target::parse(*v);
    if (!target)
      return target.error();
    o.target = *target;
  } else if (a.size() > 1 && a[0] == '-' && a.find('=') == std::string::npos) {
    return bad("unknown option '" + a + "'");
  } else if (a.rfind("--", 0) == 0) {
    return bad("unknown option '" + a + "'");
  } else if (o.module.empty()) {
    o.module = a;
  } else {
    o.inputs.push_back(a);
  }
  return Status::ok();
}

} // namespace

Expected<Options> parseOptions(const std::vector<std::string> &args) {
  Options o;
  for (const std::string &a : args)
    if (Status s = parseArgument(a, o); !s)
      return s.error();
  if (o.help)
    return o;
  if (o.module.empty())
    return bad("no module: give a compiled .so or an .mlir/.mlirbc file");
  if (o.randomInputs && !o.inputs.empty())
    return bad("--random-inputs makes every input; it takes no other input");
  if (!o.dims.empty() && !o.randomInputs)
    return bad("--dim sizes the dynamic dims of --random-inputs; other "
               "inputs carry their own shapes");
  // The results must not replace a file the call reads.
  std::vector<options::NamedFile> inputs = {{"the module", o.module}};
  for (size_t i = 0; i < o.inputs.size(); ++i)
    if (o.inputs[i].size() > 1 && o.inputs[i][0] == '@')
      inputs.push_back({"input " + std::to_string(i), o.inputs[i].substr(1)});
  if (!o.expected.empty())
    inputs.push_back({"--expected", o.expected});
  std::vector<options::NamedFile> outputs;
  if (!o.output.empty())
    outputs.push_back({"--output", o.output});
  if (Status s = options::checkOutputFiles(inputs, outputs); !s)
    return s.error();
  return o;
}

} // namespace aot::run
