//===- TargetSpec.cpp - splitting the text of a target spec ---------------===//
#include "Backend/TargetSpec.h"

namespace aot {

TargetSpecParts splitTargetSpec(std::string_view rest) {
  TargetSpecParts parts;
  size_t comma = rest.find(',');
  parts.head = rest.substr(0, comma);
  rest = comma == std::string_view::npos ? std::string_view()
                                         : rest.substr(comma + 1);
  while (!rest.empty()) {
    comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    if (part.starts_with("features="))
      part = rest;
    rest = comma == std::string_view::npos || part == rest
               ? std::string_view()
               : rest.substr(comma + 1);
    size_t eq = part.find('=');
    parts.options.push_back({part, part.substr(0, eq),
                             eq == std::string_view::npos
                                 ? std::string_view()
                                 : part.substr(eq + 1)});
  }
  return parts;
}

} // namespace aot
