//===- Target.cpp - parsing target specifications -------------------------===//
#include "aot/Target.h"

namespace aot {

Expected<Target> Target::parse(std::string_view spec) {
  if (spec == "host")
    return Target::host();
  constexpr std::string_view prefix = "cpu:";
  if (spec.substr(0, prefix.size()) != prefix)
    return Error::message("unknown target '" + std::string(spec) +
                          "': expected 'host' or "
                          "'cpu:TRIPLE[,cpu=NAME][,features=LIST]'");
  std::string_view rest = spec.substr(prefix.size());
  Target t;
  bool first = true;
  while (!rest.empty() || first) {
    size_t comma = rest.find(',');
    std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view()
                                            : rest.substr(comma + 1);
    if (first) {
      if (part.empty())
        return Error::message("target '" + std::string(spec) +
                              "' names no triple after 'cpu:'");
      t.triple = part;
      first = false;
      continue;
    }
    if (part.substr(0, 4) == "cpu=") {
      t.cpu = part.substr(4);
    } else if (part.substr(0, 9) == "features=") {
      // Feature lists are comma-separated too: the rest of the spec belongs
      // to them.
      t.features = std::string(part.substr(9));
      if (!rest.empty())
        t.features += "," + std::string(rest);
      rest = {};
    } else {
      return Error::message("unknown target option '" + std::string(part) +
                            "' in '" + std::string(spec) +
                            "': expected cpu=NAME or features=LIST");
    }
  }
  return t;
}

std::string Target::str() const {
  if (isHost())
    return "host";
  std::string s = "cpu:" + triple;
  if (!cpu.empty())
    s += ",cpu=" + cpu;
  if (!features.empty())
    s += ",features=" + features;
  return s;
}

} // namespace aot
