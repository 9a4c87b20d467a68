//===- AccumulateHalfInF32.cpp - aot-accumulate-half-in-f32 ---------------===//
#include "Transforms/Common/ContractionForms.h"
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace aot {
#define GEN_PASS_DEF_ACCUMULATEHALFINF32
#include "Transforms/Common/Passes.h.inc"

namespace {
struct AccumulateHalfInF32Pass
    : impl::AccumulateHalfInF32Base<AccumulateHalfInF32Pass> {
  void runOnOperation() override {
    mlir::IRRewriter rewriter(&getContext());
    accumulateHalfInF32(rewriter, getOperation());
  }
};
} // namespace
} // namespace aot
