// An scf.parallel reduction has no GPU mapping yet: the cuda target refuses
// it at the loop, as an error (it used to become a kernel returning the
// wrong type, and could crash the compiler); the CPU target compiles it.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %{expect-exit} 1 aot-compile %s --target=cuda:sm_90 -o %t/x.o 2>&1 | FileCheck %s
// RUN: %{expect-exit} 0 aot-compile %s -o %t/cpu.o

func.func @sum(%a: tensor<40xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %z = arith.constant 0.0 : f32
  // CHECK: gpu-parallel-reduction.mlir:[[@LINE+1]]:8: error: cannot run on the GPU yet: an scf.parallel loop with a reduction (scf.reduce); the CPU target compiles it
  %r = scf.parallel (%i) = (%c0) to (%c40) step (%c1) init (%z) -> f32 {
    %v = tensor.extract %a[%i] : tensor<40xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
