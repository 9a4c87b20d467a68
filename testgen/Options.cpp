//===- Options.cpp - parsing aot-testgen's command line -------------------===//
#include "Options.h"

#include <charconv>
#include <cmath>
#include <optional>

namespace aot::testgen {

std::string usage() {
  return R"(usage: aot-testgen --manifest=M.json --reference=R.npz --header=NAME.h
                  -o OUT.cpp [options]

Writes a doctest test file that calls every function of a compiled module
(as described by the manifest aot-compile writes) through the typed wrappers
of NAME.h with inputs from a reference .npz, and checks each result against
the expectation stored there. The .npz is read for its key names only: the
values are read when the test runs (--reference=FILE or AOT_REFERENCE).
Keys are FUNC/argN and FUNC/resultN, or, for a module with one function,
InputN and OutputN. OUT.cpp is rewritten only when its content changes.

options:
  --manifest=FILE        the module's manifest (aot-compile -o M.json)
  --reference=FILE       the reference .npz
  --header=NAME.h        the typed header, as the #include line names it
  -o FILE                the test file to write ('-' for standard output)
  --rtol=X               relative tolerance for float results (default 1e-5)
  --atol=X               absolute tolerance for float results (default 1e-6)
  --ulp=N                also accept float results N ULPs away (default -1:
                         off)
  --functions=F,G        test only these functions (default: all)
  --help                 print this help

Integer and i1 results are always compared exactly.
exit status: 0 on success, 1 on an error in the input or the options.
)";
}

static Error bad(const std::string &message) {
  return Error::message(message + " (see aot-testgen --help)");
}

/// A finite, non-negative number, or nullopt.
static std::optional<double> parseTolerance(const std::string &text) {
  double v = 0;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) ||
      v < 0)
    return std::nullopt;
  return v;
}

static std::optional<std::int64_t> parseInteger(const std::string &text) {
  std::int64_t v = 0;
  const char *end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end)
    return std::nullopt;
  return v;
}

Expected<Options> parseOptions(const std::vector<std::string> &args) {
  Options o;
  bool haveOutput = false, haveFunctions = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const std::string &prefix) -> std::optional<std::string> {
      if (a.rfind(prefix, 0) == 0)
        return a.substr(prefix.size());
      return std::nullopt;
    };
    // Each file option once, with a non-empty value.
    auto file = [&](const char *flag, std::string &slot,
                    const std::string &v) -> std::optional<Error> {
      if (v.empty())
        return bad(std::string(flag) + " needs a file name");
      if (!slot.empty())
        return bad(std::string(flag) + " given twice");
      slot = v;
      return std::nullopt;
    };
    std::optional<Error> error;
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (auto v = value("--manifest=")) {
      error = file("--manifest", o.manifest, *v);
    } else if (auto v = value("--reference=")) {
      error = file("--reference", o.reference, *v);
    } else if (auto v = value("--header=")) {
      error = file("--header", o.header, *v);
      if (!error && v->find_first_of("\"\n\r") != std::string::npos)
        error = bad("--header: '" + *v +
                    "' cannot be named in an #include \"...\" line");
    } else if (a == "-o") {
      if (i + 1 >= args.size())
        return bad("-o needs a file name");
      if (haveOutput)
        return bad("-o given twice");
      haveOutput = true;
      error = file("-o", o.output, args[++i]);
    } else if (auto v = value("--rtol=")) {
      auto x = parseTolerance(*v);
      if (!x)
        return bad("--rtol: '" + *v + "' is not a finite number >= 0");
      o.tolerance.rtol = *x;
    } else if (auto v = value("--atol=")) {
      auto x = parseTolerance(*v);
      if (!x)
        return bad("--atol: '" + *v + "' is not a finite number >= 0");
      o.tolerance.atol = *x;
    } else if (auto v = value("--ulp=")) {
      auto n = parseInteger(*v);
      if (!n || *n < -1)
        return bad("--ulp: '" + *v + "' is not an integer >= -1");
      o.tolerance.ulp = *n;
    } else if (auto v = value("--functions=")) {
      if (haveFunctions)
        return bad("--functions given twice");
      haveFunctions = true;
      size_t start = 0;
      while (true) {
        size_t comma = v->find(',', start);
        std::string name = v->substr(start, comma - start);
        if (name.empty())
          return bad("--functions: empty function name in '" + *v + "'");
        o.functions.push_back(name);
        if (comma == std::string::npos)
          break;
        start = comma + 1;
      }
    } else if (a == "--manifest" || a == "--reference" || a == "--header" ||
               a == "--rtol" || a == "--atol" || a == "--ulp" ||
               a == "--functions") {
      return bad(a + " takes its value after '=': " + a + "=...");
    } else if (a.size() > 1 && a[0] == '-') {
      return bad("unknown option '" + a + "'");
    } else {
      return bad("unexpected argument '" + a + "'");
    }
    if (error)
      return *error;
  }
  if (o.help)
    return o;
  if (o.manifest.empty())
    return bad("missing --manifest=FILE");
  if (o.reference.empty())
    return bad("missing --reference=FILE");
  if (o.header.empty())
    return bad("missing --header=NAME.h");
  if (o.output.empty())
    return bad("missing -o FILE");
  return o;
}

} // namespace aot::testgen
