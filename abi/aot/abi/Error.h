//===- Error.h - the exception thrown by the ABI layer --------------------===//
#pragma once

#include "aot/abi/Config.h"

#include <stdexcept>
#include <string>

AOT_ABI_BEGIN_NAMESPACE

/// Thrown by the ABI layer on misuse (wrong dtype, rank or shape at a call,
/// a malformed .npy/.npz file). The message names the file, key or argument.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string &message) : std::runtime_error(message) {}
};

AOT_ABI_END_NAMESPACE
