//===- ReferenceKeys.h - the names of arrays in a reference .npz ---------===//
//
// A reference .npz holds the arguments and expected results of compiled
// functions. Its keys follow one scheme, defined here and nowhere else:
// "FUNC/argN" and "FUNC/resultN", or, for a module with a single function,
// the "InputN" / "OutputN" numbering that mlir-tcp's aot_compile writes.
// aot-testgen, --bisect-actions and the tests all name arrays through this.
//
// Header-only, standard library only: no .npz reader is needed to name keys.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

AOT_ABI_BEGIN_NAMESPACE

/// How the arrays of a module's functions are named in its reference.
class ReferenceKeys {
public:
  enum class Scheme {
    PerFunction, ///< "FUNC/argN", "FUNC/resultN"
    Numbered,    ///< "InputN", "OutputN" (a single function)
  };

  explicit ReferenceKeys(Scheme scheme = Scheme::PerFunction)
      : scheme_(scheme) {}

  /// The scheme of a reference holding `keys` for a module whose functions
  /// are `functions`: Numbered only for a single function whose own
  /// "FUNC/..." keys are absent while an InputN or OutputN key is present.
  static ReferenceKeys choose(const std::vector<std::string> &functions,
                              const std::vector<std::string> &keys) {
    if (functions.size() != 1)
      return ReferenceKeys(Scheme::PerFunction);
    const std::string prefix = functions[0] + "/";
    bool ownKeys = false, numbered = false;
    for (const std::string &key : keys) {
      ownKeys |= key.rfind(prefix, 0) == 0;
      numbered |= isNumbered(key, "Input") || isNumbered(key, "Output");
    }
    return ReferenceKeys(!ownKeys && numbered ? Scheme::Numbered
                                              : Scheme::PerFunction);
  }

  Scheme scheme() const { return scheme_; }

  /// The key of argument `i` of `function`.
  std::string argument(std::string_view function, std::size_t i) const {
    return scheme_ == Scheme::Numbered
               ? "Input" + std::to_string(i)
               : std::string(function) + "/arg" + std::to_string(i);
  }
  /// The key of result `k` of `function`.
  std::string result(std::string_view function, std::size_t k) const {
    return scheme_ == Scheme::Numbered
               ? "Output" + std::to_string(k)
               : std::string(function) + "/result" + std::to_string(k);
  }
  /// The scheme in words, for generated comments and messages.
  std::string describe() const {
    return scheme_ == Scheme::Numbered
               ? "InputN (arguments), OutputN (results)"
               : "FUNC/argN (arguments), FUNC/resultN (results)";
  }

  /// Whether `key` is `word` followed by a decimal number ("Input0").
  static bool isNumbered(std::string_view key, std::string_view word) {
    if (key.size() <= word.size() || key.substr(0, word.size()) != word)
      return false;
    return std::all_of(key.begin() + word.size(), key.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
  }

private:
  Scheme scheme_;
};

AOT_ABI_END_NAMESPACE
