//===- KernelTrace.h - --trace-kernels-to ---------------------------------===//
#pragma once

#include "aot/Diagnostics.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace aot {

/// Makes the host code of `module` (after kernel outlining) record, after
/// each gpu.launch_func, every buffer the kernel writes, through the
/// runtime's aotCudaTrace* functions, into `dir` as NNNN-KERNEL.npz, with
/// the source location of the op the kernel came from.
Status traceKernelLaunches(mlir::ModuleOp module, const std::string &dir);

} // namespace aot
