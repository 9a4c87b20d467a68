//===- CppNames.h - how the typed header spells names and types -----------===//
//
// The generated header (Artifact::header) and anything that calls into it
// (the tests aot-testgen writes) must agree on these spellings.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "aot/Manifest.h"
#include "aot/abi/DType.h"

#include <string>
#include <string_view>
#include <vector>

namespace aot {

/// `name` as a C++ identifier: other characters become '_', a leading digit
/// (or nothing) gets a '_' in front, a C++ keyword a '_' behind.
std::string cppIdentifier(std::string_view name);

/// The C++ element type of `dtype` in the typed header ("float",
/// "std::int32_t", "aot::abi::bf16", ...).
std::string_view cppElementType(abi::DType dtype);

/// The typed header's wrapper name of each function of `manifest`, in order:
/// cppIdentifier of the function's name, with '_' appended while it collides
/// with an earlier wrapper or with the header's `detail` namespace.
std::vector<std::string> headerWrapperNames(const Manifest &manifest);

} // namespace aot
