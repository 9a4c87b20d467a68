// RUN: not --crash aot-opt %s --aot-test-crash 2>&1 | FileCheck %s
// RUN: not aot-opt %s --aot-test-crash --mlir-pass-pipeline-crash-reproducer=%t.repro.mlir 2>&1 | FileCheck %s --check-prefix=RECOVERED
// RUN: FileCheck %s --check-prefix=REPRO --input-file=%t.repro.mlir

// Test only: the pass raises SIGSEGV as soon as it runs, standing in for a
// pass with a bug, so that the crash reproducer can be tested.

// Left to itself, the process dies of the signal (not --crash) with LLVM's
// stack dump naming the command, and prints no IR.
// CHECK:     Stack dump:
// CHECK:     Program arguments: {{.*}}aot-opt {{.*}}--aot-test-crash
// CHECK-NOT: func.func @f

// With crash recovery, MLIR reports the crash as the failure of this pass and
// writes a reproducer.
// RECOVERED:      error: Failures have been detected while processing an MLIR pass pipeline
// RECOVERED-NEXT: note: Pipeline failed while executing [`TestCrash` on 'builtin.module' operation]: reproducer generated at `{{.*}}.repro.mlir`

// The reproducer holds the IR as it was when the pass started, and the
// pipeline that crashed.
// REPRO:       func.func @f(%[[X:.*]]: f32) -> f32
// REPRO-NEXT:    %[[Y:.*]] = arith.addf %[[X]], %[[X]] : f32
// REPRO-NEXT:    return %[[Y]] : f32
// REPRO:       pipeline: "builtin.module(aot-test-crash)"
func.func @f(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
