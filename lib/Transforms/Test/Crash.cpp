//===- Crash.cpp - aot-test-crash (test only) -----------------------------===//
#include "Transforms/Test/Passes.h"

#include <csignal>

namespace aot {
#define GEN_PASS_DEF_TESTCRASH
#include "Transforms/Test/Passes.h.inc"

namespace {
struct TestCrashPass : impl::TestCrashBase<TestCrashPass> {
  void runOnOperation() override {
    // What a null dereference in a pass would do, without undefined
    // behaviour the optimiser could remove.
    std::raise(SIGSEGV);
  }
};
} // namespace
} // namespace aot
