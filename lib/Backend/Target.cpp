//===- Target.cpp - target specs, parsed by the back end of their kind ----===//
#include "aot/Target.h"

#include "Backend/Backend.h"

namespace aot {

/// "'host', 'cpu:TRIPLE...' or 'cuda:CHIP...'": every back end's syntax.
static std::string expectedSpecs() {
  std::string out = "'host'";
  std::span<const Backend *const> backends = allBackends();
  for (size_t i = 0; i < backends.size(); ++i)
    out += std::string(i + 1 == backends.size() ? " or '" : ", '") +
           std::string(backends[i]->specSyntax()) + "'";
  return out;
}

Expected<Target> Target::parse(std::string_view spec) {
  if (spec == "host")
    return Target::host();
  size_t colon = spec.find(':');
  const Backend *backend = colon == std::string_view::npos
                               ? nullptr
                               : backendNamed(spec.substr(0, colon));
  if (!backend)
    return Error::message("unknown target '" + std::string(spec) +
                          "': expected " + expectedSpecs());
  return backend->parseTarget(spec.substr(colon + 1), spec);
}

std::string Target::str() const {
  return backendFor(*this).targetString(*this);
}

std::vector<std::string> Target::kinds() {
  std::vector<std::string> out;
  for (const Backend *backend : allBackends())
    out.emplace_back(backend->name());
  return out;
}

} // namespace aot
