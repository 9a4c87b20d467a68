//===- Inputs.h - the arguments aot-run passes ----------------------------===//
#pragma once

#include "Options.h"

#include "aot/Artifact.h"
#include "aot/Manifest.h"

#include <vector>

namespace aot::run {

/// The arguments of `fn` from the command line's inputs (files, inline
/// values or random ones). Each error names the input and the argument,
/// with both sides of a mismatch; the call itself checks shapes again.
Expected<std::vector<CallArg>> makeInputs(const Manifest &manifest,
                                          const FunctionSig &fn,
                                          const Options &options);

/// A tensor from inline text: `2x3xf32=1,2,3,4,5,6`, `4xi32=0` (one value
/// fills it), `f32=0.5` (rank 0). Throws abi::Error saying what is wrong.
abi::Tensor parseInlineTensor(const std::string &text);

} // namespace aot::run
