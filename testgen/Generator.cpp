//===- Generator.cpp - a doctest test file for a compiled module ----------===//
//
// The text comes from the templates in testgen/templates/; this decides what
// goes into each placeholder. Statements are rendered on one line each and
// laid out at the end (Layout.h).
//
//===----------------------------------------------------------------------===//
#include "Generator.h"

#include "CppText.h"
#include "Layout.h"
#include "Template.h"
#include "aot/CppNames.h"
#include "aot/abi/ReferenceKeys.h"

#include <algorithm>
#include <set>

namespace aot::testgen {

namespace {

std::string baseName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// `text` safe inside a `//` comment: no line break, no backslash (which
/// would continue the comment onto the next line at a line end).
std::string commentText(std::string text) {
  for (char &c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == '\\')
      c = '?';
  return text;
}

std::string toleranceText(const abi::Tolerance &t) {
  return "rtol " + cppDouble(t.rtol) + ", atol " + cppDouble(t.atol) +
         ", ulp " + (t.ulp < 0 ? std::string("off") : std::to_string(t.ulp)) +
         " (integers and i1 exact)";
}

std::string signature(const FunctionSig &f) {
  std::string s = f.name + "(";
  for (size_t i = 0; i < f.args.size(); ++i)
    s += (i ? ", " : "") + f.args[i].str();
  s += ") -> (";
  for (size_t k = 0; k < f.results.size(); ++k)
    s += (k ? ", " : "") + f.results[k].str();
  return s + ")";
}

/// The functions to test, in manifest order, or the error naming one the
/// manifest lacks.
Expected<std::vector<size_t>> selectFunctions(const TestFileSpec &spec) {
  const Manifest &m = spec.manifest;
  std::vector<size_t> selected;
  if (spec.functions.empty()) {
    for (size_t i = 0; i < m.functions.size(); ++i)
      selected.push_back(i);
    return selected;
  }
  std::set<std::string> wanted;
  for (const std::string &name : spec.functions) {
    if (!m.find(name)) {
      std::string known;
      for (const FunctionSig &f : m.functions)
        known += (known.empty() ? "" : ", ") + f.name;
      return Error::message("--functions: the manifest " + spec.manifestName +
                            " has no function '" + name +
                            "' (it has: " + known + ")");
    }
    wanted.insert(name);
  }
  for (size_t i = 0; i < m.functions.size(); ++i)
    if (wanted.count(m.functions[i].name))
      selected.push_back(i);
  return selected;
}

/// Renders one TEST_CASE.
class TestCaseWriter {
public:
  TestCaseWriter(const abi::ReferenceKeys &keys, const std::string &module)
      : keys_(keys), module_(module) {}

  std::string write(const FunctionSig &f, const std::string &wrapper) const {
    std::string arguments, callArguments, argumentChecks;
    for (size_t i = 0; i < f.args.size(); ++i) {
      const ValueSig &a = f.args[i];
      std::string var = "arg" + std::to_string(i),
                  key = keys_.argument(f.name, i);
      std::string type(cppElementType(a.dtype));
      TemplateValues v = {
          {"var", var}, {"type", type}, {"key", cppStringLiteral(key)}};
      callArguments += (i ? ", " : "") + var;
      if (a.isScalar()) {
        arguments += renderTemplate("scalar_argument.cpp.tmpl", v);
        continue;
      }
      v["rank"] = std::to_string(a.rank());
      v["shape"] = cppShape(a.shape);
      arguments += renderTemplate("tensor_argument.cpp.tmpl", v);
      callArguments += ".desc()";
      argumentChecks +=
          renderTemplate("argument_check.cpp.tmpl", {{"var", var}});
    }

    std::string resultChecks;
    for (size_t k = 0; k < f.results.size(); ++k) {
      const ValueSig &r = f.results[k];
      std::string var = "result" + std::to_string(k),
                  key = keys_.result(f.name, k);
      TemplateValues v = {{"var", var}, {"key", cppStringLiteral(key)}};
      if (r.isScalar()) {
        resultChecks += renderTemplate("scalar_result_check.cpp.tmpl", v);
        continue;
      }
      v["shape"] = cppShape(r.shape);
      resultChecks += renderTemplate("tensor_result_check.cpp.tmpl", v);
    }
    if (f.results.empty())
      resultChecks = "  // No results: the call returning is the check.\n";

    std::string call =
        renderTemplate("call.cpp.tmpl", {{"binding", binding(f)},
                                         {"module", module_},
                                         {"wrapper", wrapper},
                                         {"call_arguments", callArguments}});
    return renderTemplate("test_case.cpp.tmpl",
                          {{"signature", commentText(signature(f))},
                           {"test_name", cppStringLiteral(f.name)},
                           {"arguments", arguments},
                           {"call", call},
                           {"result_checks", resultChecks},
                           {"argument_checks", argumentChecks}});
  }

private:
  /// What the wrapper's value is bound to: nothing, one variable (typed
  /// for a scalar), or a structured binding of the tuple.
  static std::string binding(const FunctionSig &f) {
    if (f.results.empty())
      return "";
    if (f.results.size() == 1)
      return f.results[0].isScalar()
                 ? "const " + std::string(cppElementType(f.results[0].dtype)) +
                       " result0 = "
                 : "auto result0 = ";
    std::string names;
    for (size_t k = 0; k < f.results.size(); ++k)
      names += (k ? ", result" : "result") + std::to_string(k);
    return "auto [" + names + "] = ";
  }

  const abi::ReferenceKeys &keys_;
  const std::string &module_;
};

/// For code that runs on a GPU: the test main asks the GPU runtime first and
/// skips every test, with its reason, where no GPU is usable.
std::string deviceCheck(const Manifest &m) {
  if (m.target.rfind("cuda:", 0) != 0)
    return "";
  return "#include \"aot/abi/CudaStatus.h\"\n\n"
         "// Code for " +
         commentText(m.target) +
         ": without a usable GPU, the program prints why and\n"
         "// exits with status 77 (skipped).\n"
         "static const bool kNeedsGpu = "
         "aot::testing::setSkipCheck(&aotCudaUnavailable);\n";
}

} // namespace

Expected<std::string> generateTestFile(const TestFileSpec &spec) {
  const Manifest &m = spec.manifest;
  if (m.module.empty())
    return Error::message(spec.manifestName + ": the manifest has no module "
                                              "name");
  if (m.functions.empty())
    return Error::message(spec.manifestName +
                          ": the manifest lists no function to test");
  auto selected = selectFunctions(spec);
  if (!selected)
    return selected.error();

  // Spelled as aot-compile's header spells them; cppIdentifier leaves a
  // module name from aot-compile unchanged.
  const std::string module = cppIdentifier(m.module);
  const std::vector<std::string> wrappers = headerWrapperNames(m);
  std::vector<std::string> functionNames;
  for (const FunctionSig &f : m.functions)
    functionNames.push_back(f.name);
  const abi::ReferenceKeys keys =
      abi::ReferenceKeys::choose(functionNames, spec.referenceKeys);
  TestCaseWriter writer(keys, module);
  std::string testCases;
  for (size_t i : *selected)
    testCases += writer.write(m.functions[i], wrappers[i]);

  const abi::Tolerance &t = spec.tolerance;
  std::string text =
      renderTemplate("test_file.cpp.tmpl",
                     {{"module", commentText(m.module)},
                      {"manifest", commentText(baseName(spec.manifestName))},
                      {"header", spec.header},
                      {"reference", commentText(baseName(spec.referenceName))},
                      {"keys", keys.describe()},
                      {"tolerance_text", toleranceText(t)},
                      {"rtol", cppDouble(t.rtol)},
                      {"atol", cppDouble(t.atol)},
                      {"ulp", std::to_string(t.ulp < 0 ? -1 : t.ulp)},
                      {"suite", cppStringLiteral(m.module)},
                      {"device_check", deviceCheck(m)},
                      {"test_cases", testCases}});
  return layOut(text);
}

} // namespace aot::testgen
