//===- Print.h - results as numpy prints them -----------------------------===//
#pragma once

#include "aot/abi/Tensor.h"

#include <cstdint>
#include <string>

namespace aot::run {

/// One element as text: the shortest decimal that reads back to the same
/// value (f16 and bf16 through float), integers exactly, i1 as True/False.
std::string formatElement(const abi::Tensor &t, std::int64_t flatIndex);

/// `t` as numpy's str() shows an array: nested brackets, one row per line,
/// columns aligned; with more than `limit` elements each axis shows its
/// first and last 3 entries around "...".
std::string formatTensor(const abi::Tensor &t, std::int64_t limit = 1000);

} // namespace aot::run
