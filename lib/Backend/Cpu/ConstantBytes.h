//===- ConstantBytes.h - large constants handed to the assembler as bytes -===//
//
// LLVM's assembly printer writes a constant array of floats or wide
// integers one element at a time, through an APFloat or APInt each: for a
// 64 MB weight that is seconds of code generation. An array of i8 it writes
// in one piece. Right before code generation, large constant globals are
// therefore rewritten to i8 arrays holding the same bytes, with the same
// name, linkage and alignment; the stages before (and their dumps) keep the
// typed constant.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace llvm {
class Module;
} // namespace llvm

namespace aot {

/// Rewrites every constant global of at least `minBytes` whose initializer
/// is an array (nested or not) of plain numbers to an i8 array of the same
/// bytes. Leaves the module alone when its byte order is not the host's.
void storeConstantsAsBytes(llvm::Module &module, std::uint64_t minBytes = 4096);

} // namespace aot
