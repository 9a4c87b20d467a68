//===- Passes.td - the project's own passes -------------------------------===//
#ifndef AOT_TRANSFORMS_PASSES
#define AOT_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def ExportCInterface : Pass<"aot-export-c-interface", "mlir::ModuleOp"> {
  let summary = "Export every public function through the C interface";
  let description = [{
    Marks each public function with a body so that the lowering to the LLVM
    dialect emits `_mlir_ciface_NAME`, which takes memref descriptors by
    pointer and returns results through an out-pointer. Private functions
    stay internal.
  }];
}

def ProtectArguments : Pass<"aot-protect-arguments", "mlir::ModuleOp"> {
  let summary = "Forbid bufferization to write into the caller's tensors";
  let description = [{
    Marks every tensor argument of a public function as not writable, so
    one-shot bufferization copies before writing instead of reusing the
    caller's buffer: a compiled call never modifies its inputs.
  }];
}

def FormDispatches : Pass<"aot-form-dispatches", "mlir::ModuleOp"> {
  let summary = "Outline each fused group of linalg ops into its own function";
  let description = [{
    After fusion, each linalg op on tensors, together with the `linalg.fill`
    and `tensor.empty` that only initialise its output, becomes a private
    function (a dispatch) named after the function, the op and its place
    among the function's dispatches: `mlp$matmul_3`; the op's location
    stays on the dispatch and on the call. The op is replaced by a `func.call` marked `no_inline`.
    The dispatch takes the tensors and values it reads (scalar and splat
    constants are copied in; large constants stay with the caller) and
    returns what the rest of the function uses. Every later stage then
    works on small functions, so compile cost grows closer to linearly with
    the size of a model.
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def TileAndVectorize : Pass<"aot-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile linalg ops into register-sized blocks and vectorize them";
  let description = [{
    Tiles statically shaped contractions (matmul, batch_matmul) into
    register blocks with the reduction loop innermost, and statically shaped
    elementwise linalg.generic ops along their innermost dimension, then
    vectorizes the tiles. Ops it cannot tile evenly are left untouched for the
    loop lowering, so the pass never fails on valid input.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"8",
           "rows of a contraction's register block">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"32",
           "columns of a contraction's register block">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "elements per vector for elementwise ops">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect"
  ];
}

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

def TestCrash : Pass<"aot-test-crash", "mlir::ModuleOp"> {
  let summary = "Test only: crashes (SIGSEGV) when it runs";
  let description = [{
    Stands in for a compiler bug, so that the crash reproducer
    (--reproducer) can be tested on a pass that crashes rather than fails.
    It is in no default pipeline and must never be used otherwise.
  }];
}

#endif // AOT_TRANSFORMS_PASSES
