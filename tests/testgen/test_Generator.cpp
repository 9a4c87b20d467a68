//===- test_Generator.cpp - the pieces of aot-testgen ---------------------===//
//
// The template renderer (and that every template problem is an internal
// error), the layout of long lines, and the spelling of names and values as
// C++ text.
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "CppText.h"
#include "Layout.h"
#include "Template.h"
#include "aot/CppNames.h"

#include <stdexcept>
#include <string>

using namespace aot::testgen;
using aot::cppElementType;
using aot::cppIdentifier;
using aot::headerWrapperNames;

TEST_SUITE_BEGIN("Generator");

TEST_CASE("render replaces each placeholder, verbatim") {
  CHECK(render("t", "a {{x}} b {{y_2}} {{x}}",
               {{"x", "1"}, {"y_2", "{{z}}"}}) == "a 1 b {{z}} 1");
  CHECK(render("t", "no placeholder", {}) == "no placeholder");
}

TEST_CASE("template problems are internal errors naming the template") {
  CHECK_THROWS_WITH_AS(render("t.tmpl", "{{x}}", {}),
                       "template t.tmpl: no value for placeholder '{{x}}'",
                       std::logic_error);
  CHECK_THROWS_WITH_AS(
      render("t.tmpl", "x", {{"x", "1"}}),
      "template t.tmpl: no placeholder '{{x}}' for a given value",
      std::logic_error);
  CHECK_THROWS_WITH_AS(render("t.tmpl", "{{Bad}}", {{"Bad", ""}}),
                       "template t.tmpl: malformed placeholder '{{Bad}}'",
                       std::logic_error);
  CHECK_THROWS_WITH_AS(render("t.tmpl", "{{x", {{"x", ""}}),
                       "template t.tmpl: '{{' without '}}'", std::logic_error);
  CHECK_THROWS_WITH_AS(renderTemplate("nothere.tmpl", {}),
                       "no template named 'nothere.tmpl'", std::logic_error);
}

TEST_CASE("the embedded templates are the files") {
  CHECK(renderTemplate("argument_check.cpp.tmpl", {{"var", "arg3"}}) ==
        "  const aot::abi::Comparison arg3Unchanged = arg3.unchanged();\n"
        "  CHECK_MESSAGE(arg3Unchanged.ok, arg3Unchanged.message);\n");
}

TEST_CASE("layOut keeps short lines and collapses blank lines") {
  CHECK(layOut("\n\na\n\n\n\nb\n") == "a\n\nb\n");
  CHECK(layOut("f() {\n\n  x;\n\n}\n") == "f() {\n  x;\n}\n");
  CHECK(layOut("namespace {\n\nx;\n\n} // namespace\n") ==
        "namespace {\n\nx;\n\n} // namespace\n");
}

TEST_CASE("layOut breaks a long comment at spaces") {
  std::string line = "  /// " + std::string(68, 'a') + " bbbb cccc";
  CHECK(layOut(line, 80) ==
        "  /// " + std::string(68, 'a') + " bbbb\n  /// cccc\n");
}

TEST_CASE("layOut breaks a long statement the way clang-format does") {
  // After the '=' when the right-hand side then fits.
  CHECK(layOut("  const aot::abi::Comparison result0Check = "
               "ref.check(\"dyn_axpb/result0\", result0, {-1, -1}, "
               "kTolerance);") ==
        "  const aot::abi::Comparison result0Check =\n"
        "      ref.check(\"dyn_axpb/result0\", result0, {-1, -1}, "
        "kTolerance);\n");
  // Arguments aligned after the parenthesis.
  CHECK(layOut("  auto result0 = aot_compiled::scalars::pack_scalars(arg0, "
               "arg1, arg2, arg3, arg4, arg5, arg6);") ==
        "  auto result0 = aot_compiled::scalars::pack_scalars(arg0, arg1, "
        "arg2, arg3,\n"
        "                                                     arg4, arg5, "
        "arg6);\n");
  // After the parenthesis, when that takes fewer lines.
  CHECK(layOut("  auto result0 = aot_compiled::conv2d::conv_stride2_bias("
               "arg0.desc(), arg1.desc(), arg2.desc());") ==
        "  auto result0 = aot_compiled::conv2d::conv_stride2_bias(\n"
        "      arg0.desc(), arg1.desc(), arg2.desc());\n");
  // After the '=' and then aligned.
  CHECK(layOut("  auto [result0, result1, result2, result3] = "
               "aot_compiled::float_casts::float_int(arg0.desc(), "
               "arg1.desc(), arg2.desc());") ==
        "  auto [result0, result1, result2, result3] =\n"
        "      aot_compiled::float_casts::float_int(arg0.desc(), "
        "arg1.desc(),\n"
        "                                           arg2.desc());\n");
}

TEST_CASE("layOut leaves a line it cannot break") {
  std::string line = "  x = \"" + std::string(90, 'a') + "\"";
  CHECK(layOut(line) == line + "\n");
}

TEST_CASE("cppIdentifier spells names as the typed header does") {
  CHECK(cppIdentifier("dyn_axpb") == "dyn_axpb");
  CHECK(cppIdentifier("class") == "class_");
  CHECK(cppIdentifier("scale.v2-fast") == "scale_v2_fast");
  CHECK(cppIdentifier("2d") == "_2d");
  CHECK(cppIdentifier("") == "_");
}

TEST_CASE("headerWrapperNames avoid each other and 'detail'") {
  aot::Manifest m;
  for (const char *name : {"a.b", "a_b", "detail", "class"})
    m.functions.push_back({name, "", {}, {}});
  CHECK(headerWrapperNames(m) ==
        std::vector<std::string>{"a_b", "a_b_", "detail_", "class_"});
}

TEST_CASE("cppStringLiteral escapes what C++ needs") {
  CHECK(cppStringLiteral("f/arg0") == "\"f/arg0\"");
  CHECK(cppStringLiteral("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(cppStringLiteral("a\n1") == "\"a\\0121\"");
  CHECK(cppStringLiteral("\xc3\xa9") == "\"\\303\\251\"");
}

TEST_CASE("cppDouble is the shortest exact floating-point literal") {
  CHECK(cppDouble(1e-5) == "1e-05");
  CHECK(cppDouble(0.1) == "0.1");
  CHECK(cppDouble(1) == "1.0");
  CHECK(cppDouble(0) == "0.0");
  CHECK(cppDouble(1e-300) == "1e-300");
}

TEST_CASE("cppShape and cppElementType") {
  CHECK(cppShape({-1, 4}) == "{-1, 4}");
  CHECK(cppShape({}) == "{}");
  CHECK(cppElementType(aot::abi::DType::I1) == "bool");
  CHECK(cppElementType(aot::abi::DType::BF16) == "aot::abi::bf16");
  CHECK(cppElementType(aot::abi::DType::I64) == "std::int64_t");
}

TEST_SUITE_END();
