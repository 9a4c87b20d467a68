//===- ErrorMessage.h - an error quoted inside another --------------------===//
#pragma once

#include "aot/Diagnostics.h"

#include <string>

namespace aot {

/// The first diagnostic's message alone, without location or severity, for
/// an error that quotes another ("its manifest is invalid: ..."), where
/// Error::str() would repeat "error:".
inline std::string errorMessage(const Error &e) {
  return e.diagnostics().empty() ? std::string()
                                 : e.diagnostics().front().message;
}

} // namespace aot
