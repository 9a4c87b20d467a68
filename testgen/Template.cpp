//===- Template.cpp - a tiny placeholder renderer -------------------------===//
#include "Template.h"

#include <set>
#include <stdexcept>

namespace aot::testgen {

namespace {

struct EmbeddedTemplate {
  std::string_view name;
  std::string_view text;
};

// The files of testgen/templates/, embedded at build time by
// EmbedTemplates.cmake: one {"file name", R"(text)"} entry per file.
constexpr EmbeddedTemplate kTemplates[] = {
#include "Templates.inc"
};

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

} // namespace

std::string render(std::string_view name, std::string_view text,
                   const TemplateValues &values) {
  auto internal = [&](const std::string &problem) {
    return std::logic_error("template " + std::string(name) + ": " + problem);
  };
  std::string out;
  std::set<std::string_view> used;
  size_t pos = 0;
  while (true) {
    size_t open = text.find("{{", pos);
    out.append(text.substr(pos, open - pos));
    if (open == std::string_view::npos)
      break;
    size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos)
      throw internal("'{{' without '}}'");
    std::string_view key = text.substr(open + 2, close - open - 2);
    bool valid = !key.empty();
    for (char c : key)
      valid &= isNameChar(c);
    if (!valid)
      throw internal("malformed placeholder '{{" + std::string(key) + "}}'");
    auto it = values.find(key);
    if (it == values.end())
      throw internal("no value for placeholder '{{" + std::string(key) + "}}'");
    out += it->second;
    used.insert(it->first);
    pos = close + 2;
  }
  for (const auto &[key, value] : values)
    if (!used.count(key))
      throw internal("no placeholder '{{" + key + "}}' for a given value");
  return out;
}

std::string renderTemplate(std::string_view name,
                           const TemplateValues &values) {
  for (const EmbeddedTemplate &t : kTemplates)
    if (t.name == name)
      return render(name, t.text, values);
  throw std::logic_error("no template named '" + std::string(name) + "'");
}

} // namespace aot::testgen
