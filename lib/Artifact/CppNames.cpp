//===- CppNames.cpp - how the typed header spells names and types ---------===//
#include "aot/CppNames.h"

#include <cctype>
#include <set>

namespace aot {

std::string cppIdentifier(std::string_view name) {
  static const std::set<std::string, std::less<>> keywords = {
      "alignas",       "alignof",     "and",
      "and_eq",        "asm",         "auto",
      "bitand",        "bitor",       "bool",
      "break",         "case",        "catch",
      "char",          "char8_t",     "char16_t",
      "char32_t",      "class",       "co_await",
      "co_return",     "co_yield",    "compl",
      "concept",       "const",       "consteval",
      "constexpr",     "constinit",   "const_cast",
      "continue",      "decltype",    "default",
      "delete",        "do",          "double",
      "dynamic_cast",  "else",        "enum",
      "explicit",      "export",      "extern",
      "false",         "float",       "for",
      "friend",        "goto",        "if",
      "inline",        "int",         "long",
      "mutable",       "namespace",   "new",
      "noexcept",      "not",         "not_eq",
      "nullptr",       "operator",    "or",
      "or_eq",         "private",     "protected",
      "public",        "register",    "reinterpret_cast",
      "requires",      "return",      "short",
      "signed",        "sizeof",      "static",
      "static_assert", "static_cast", "struct",
      "switch",        "template",    "this",
      "thread_local",  "throw",       "true",
      "try",           "typedef",     "typeid",
      "typename",      "union",       "unsigned",
      "using",         "virtual",     "void",
      "volatile",      "wchar_t",     "while",
      "xor",           "xor_eq"};
  std::string out;
  for (char c : name)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
    out = "_" + out;
  if (keywords.count(out))
    out += "_";
  return out;
}

std::string_view cppElementType(abi::DType dtype) {
  switch (dtype) {
#define AOT_DTYPE(id, name, type, spelling, bytes, npy, safetensors)           \
  case abi::DType::id:                                                         \
    return spelling;
#include "aot/abi/DTypes.def"
#undef AOT_DTYPE
  }
  return "void";
}

std::vector<std::string> headerWrapperNames(const Manifest &manifest) {
  std::set<std::string> used = {"detail"};
  std::vector<std::string> names;
  for (const FunctionSig &f : manifest.functions) {
    std::string wrapper = cppIdentifier(f.name);
    while (used.count(wrapper))
      wrapper += "_";
    used.insert(wrapper);
    names.push_back(wrapper);
  }
  return names;
}

} // namespace aot
