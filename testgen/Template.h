//===- Template.h - a tiny placeholder renderer ---------------------------===//
//
// A template is text with placeholders `{{name}}` (name: lower-case letters,
// digits and '_'). Rendering replaces each by its value, verbatim; there is
// no escaping, no condition and no loop: the generator composes repeated
// parts by rendering small templates and passing the joined text on.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace aot::testgen {

/// Values for the placeholders of one template, by name.
using TemplateValues = std::map<std::string, std::string, std::less<>>;

/// `text` with every placeholder replaced by its value. Templates are part of
/// the program, so a placeholder without a value, a value without a
/// placeholder and a malformed `{{` are internal errors: they throw
/// std::logic_error naming the template (`name`).
std::string render(std::string_view name, std::string_view text,
                   const TemplateValues &values);

/// Renders the template file `name` embedded from testgen/templates/.
/// Throws std::logic_error for an unknown name (see render() for the rest).
std::string renderTemplate(std::string_view name, const TemplateValues &values);

} // namespace aot::testgen
