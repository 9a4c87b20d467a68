//===- InvalidIr.cpp - aot-test-invalid-ir (test only) --------------------===//
#include "Transforms/Test/Passes.h"

namespace aot {
#define GEN_PASS_DEF_TESTINVALIDIR
#include "Transforms/Test/Passes.h.inc"

namespace {
struct TestInvalidIrPass : impl::TestInvalidIrBase<TestInvalidIrPass> {
  void runOnOperation() override {
    getOperation().walk([](mlir::func::ReturnOp ret) { ret->setOperands({}); });
  }
};
} // namespace
} // namespace aot
