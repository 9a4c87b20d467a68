//===- TargetSpec.h - splitting the text of a target spec -----------------===//
#pragma once

#include <string_view>
#include <vector>

namespace aot {

/// What follows "KIND:" in a target spec, split at commas: the head (a
/// triple, a chip) and KEY=VALUE options. `features=` takes the rest of the
/// spec, commas included, since feature lists are comma-separated too.
struct TargetSpecParts {
  struct Option {
    std::string_view part; ///< as written: "cpu=skylake"
    std::string_view key;  ///< "cpu"; the whole part when it has no '='
    std::string_view value;
  };
  std::string_view head;
  std::vector<Option> options;
};

TargetSpecParts splitTargetSpec(std::string_view rest);

} // namespace aot
