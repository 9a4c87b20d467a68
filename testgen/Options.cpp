//===- Options.cpp - parsing aot-testgen's command line -------------------===//
#include "Options.h"

#include "Support/ToolOptions.h"

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

namespace {

const options::CommandLine kCommandLine("aot-testgen");

Error bad(const std::string &message) { return kCommandLine.bad(message); }

/// What the arguments say so far.
struct Parsed {
  Options o;
  bool haveOutput = false, haveFunctions = false;
};

/// A file option: given once, with a non-empty value.
Status setFile(const char *flag, std::string &slot, const std::string &v) {
  Expected<std::string> path = kCommandLine.fileName(flag, v);
  if (!path)
    return path.error();
  if (!slot.empty())
    return bad(std::string(flag) + " given twice");
  slot = std::move(*path);
  return Status::ok();
}

/// --manifest, --reference, --header; nullopt for other arguments.
std::optional<Status> parseFileOption(const std::string &a, Parsed &p) {
  if (auto v = options::valueAfter(a, "--manifest="))
    return setFile("--manifest", p.o.manifest, *v);
  if (auto v = options::valueAfter(a, "--reference="))
    return setFile("--reference", p.o.reference, *v);
  if (auto v = options::valueAfter(a, "--header=")) {
    if (Status s = setFile("--header", p.o.header, *v); !s)
      return s;
    if (v->find_first_of("\"\n\r") != std::string::npos)
      return Status(bad("--header: '" + *v +
                        "' cannot be named in an #include \"...\" line"));
    return Status::ok();
  }
  return std::nullopt;
}

/// What the generated test checks: tolerances and functions.
std::optional<Status> parseCheckOption(const std::string &a, Parsed &p) {
  abi::Tolerance &tolerance = p.o.tolerance;
  if (auto v = options::valueAfter(a, "--rtol=")) {
    auto x = kCommandLine.tolerance("--rtol", *v);
    if (!x)
      return Status(x.error());
    tolerance.rtol = *x;
  } else if (auto v = options::valueAfter(a, "--atol=")) {
    auto x = kCommandLine.tolerance("--atol", *v);
    if (!x)
      return Status(x.error());
    tolerance.atol = *x;
  } else if (auto v = options::valueAfter(a, "--ulp=")) {
    auto n = kCommandLine.ulp("--ulp", *v);
    if (!n)
      return Status(n.error());
    tolerance.ulp = *n;
  } else if (auto v = options::valueAfter(a, "--functions=")) {
    if (p.haveFunctions)
      return Status(bad("--functions given twice"));
    p.haveFunctions = true;
    auto names = kCommandLine.functionNames("--functions", *v);
    if (!names)
      return Status(names.error());
    p.o.functions = std::move(*names);
  } else {
    return std::nullopt;
  }
  return Status::ok();
}

/// Why an argument that no option claims is wrong.
Error unexpected(const std::string &a) {
  if (a == "--manifest" || a == "--reference" || a == "--header" ||
      a == "--rtol" || a == "--atol" || a == "--ulp" || a == "--functions")
    return bad(a + " takes its value after '=': " + a + "=...");
  if (a.size() > 1 && a[0] == '-')
    return bad("unknown option '" + a + "'");
  return bad("unexpected argument '" + a + "'");
}

/// Goes through the arguments in order; the first bad one is the error.
Status parseArguments(const std::vector<std::string> &args, Parsed &p) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    std::optional<Status> handled;
    if (a == "--help" || a == "-h") {
      p.o.help = true;
      continue;
    }
    if (a == "-o") {
      if (i + 1 >= args.size())
        return bad("-o needs a file name");
      if (p.haveOutput)
        return bad("-o given twice");
      p.haveOutput = true;
      handled = setFile("-o", p.o.output, args[++i]);
    }
    if (!handled)
      handled = parseFileOption(a, p);
    if (!handled)
      handled = parseCheckOption(a, p);
    if (!handled)
      return unexpected(a);
    if (!*handled)
      return *handled;
  }
  return Status::ok();
}

} // namespace

Expected<Options> parseOptions(const std::vector<std::string> &args) {
  Parsed p;
  if (Status s = parseArguments(args, p); !s)
    return s.error();
  const Options &o = p.o;
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
  // The test file must not replace what it is generated from.
  if (Status s = options::checkOutputFiles(
          {{"--manifest", o.manifest}, {"--reference", o.reference}},
          {{"-o", o.output}});
      !s)
    return s.error();
  return o;
}

} // namespace aot::testgen
