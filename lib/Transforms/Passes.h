//===- Passes.h - every aot- pass, by back end ----------------------------===//
//
// The passes live in four folders, each with its Passes.td: Common/ (both
// back ends run them), Cpu/, Gpu/ (the CUDA back end) and Test/ (passes that
// break the IR on purpose, for the debugging tools' tests). This header is
// for those that register or run passes of several folders.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Transforms/Common/Passes.h"
#include "Transforms/Cpu/Passes.h"
#include "Transforms/Gpu/Passes.h"
#include "Transforms/Test/Passes.h"

namespace aot {

/// Registers every aot- pass under its name (for textual pipelines).
inline void registerAotPasses() {
  registerAotCommonPasses();
  registerAotCpuPasses();
  registerAotGpuPasses();
  registerAotTestPasses();
}

} // namespace aot
