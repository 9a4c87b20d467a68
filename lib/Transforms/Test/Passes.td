//===- Passes.td - passes that break the IR, for tests --------------------===//
#ifndef AOT_TRANSFORMS_TEST_PASSES
#define AOT_TRANSFORMS_TEST_PASSES

include "mlir/Pass/PassBase.td"

def TestMiscompileMulf
    : Pass<"aot-test-miscompile-mulf", "mlir::func::FuncOp"> {
  let summary = "Test only: a deliberately wrong rewrite of arith.mulf";
  let description = [{
    Rewrites `arith.mulf %a, %b` into `arith.addf %a, %b` through a rewrite
    pattern named `aot-test-mulf-to-addf`. It exists so that the action
    bisection (--bisect-actions) can be tested on a known miscompile; it is
    in no default pipeline and must never be used otherwise.
  }];
}

def TestInvalidIr : Pass<"aot-test-invalid-ir", "mlir::func::FuncOp"> {
  let summary = "Test only: leaves a function returning fewer values than it declares";
  let description = [{
    Stands in for a compiler bug that makes invalid IR, so that the check
    of the IR at the end of each stage, and --verify-each, can be tested. It
    drops the operands of the `func.return` of every function with results.
    It is in no default pipeline and must never be used otherwise.
  }];
}

def TestCrash : Pass<"aot-test-crash", "mlir::ModuleOp"> {
  let summary = "Test only: crashes (SIGSEGV) when it runs";
  let description = [{
    Stands in for a compiler bug, so that the crash reproducer
    (--reproducer) can be tested on a pass that crashes rather than fails.
    It is in no default pipeline and must never be used otherwise.
  }];
}

#endif // AOT_TRANSFORMS_TEST_PASSES
