//===- CudaBackend.h - NVIDIA GPU kernels with a host object --------------===//
#pragma once

#include "Backend/Backend.h"

namespace aot {

/// The CUDA back end. Its target specs, stages and link table are declared;
/// code generation is not built yet, and every compile for it says so.
const Backend &cudaBackend();

} // namespace aot
