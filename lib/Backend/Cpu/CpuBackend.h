//===- CpuBackend.h - native object code for CPU targets ------------------===//
#pragma once

#include "Backend/Backend.h"

namespace aot {

/// The CPU back end: linalg tiled and vectorized, bufferized, lowered to the
/// LLVM dialect, then LLVM's -O pipeline and code generation (HostPath.h).
const Backend &cpuBackend();

} // namespace aot
