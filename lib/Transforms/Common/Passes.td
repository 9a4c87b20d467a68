//===- Passes.td - passes both back ends run ------------------------------===//
#ifndef AOT_TRANSFORMS_COMMON_PASSES
#define AOT_TRANSFORMS_COMMON_PASSES

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

def AccumulateHalfInF32
    : Pass<"aot-accumulate-half-in-f32", "mlir::func::FuncOp"> {
  let summary = "Sum f16 and bf16 contractions in f32, rounding once";
  let description = [{
    A contraction that multiplies and adds in f16 or bf16 (linalg.matmul,
    batch_matmul, a linalg.generic multiply-add, with a half accumulator;
    tosa.matmul once tosa-to-linalg made it one) becomes a linalg.contract
    into f32 from its initial values converted to f32, followed by one
    rounding of the result to the half type: computed in f32, as libraries
    do where the hardware has no half arithmetic, instead of rounding to the
    half type after every product. A contraction whose body is anything
    else (an integer product into f16, an f32 one truncated) is left as it
    is.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect"
  ];
}

def FuseElementwise : Pass<"aot-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops; keep reshapes out of contractions";
  let description = [{
    The patterns of upstream's `linalg-fuse-elementwise-ops` (elementwise
    fusion of a producer with one use, reshapes folded by expansion,
    constant folding), except that a `tensor.expand_shape` or
    `tensor.collapse_shape` is never folded into a contraction or a
    convolution: that would turn a `linalg.matmul` into a
    `linalg.generic` that tiling no longer recognises as one.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect"
  ];
}

def FormDispatches : Pass<"aot-form-dispatches", "mlir::ModuleOp"> {
  let summary = "Outline each fused group of linalg ops into its own function";
  let description = [{
    After fusion, each linalg op on tensors becomes a private function (a
    dispatch) named after the function, the op and its place among the
    function's dispatches: `mlp$matmul_3`; the op's location stays on the
    dispatch and on the call, a `func.call` marked `no_inline` (and the
    dispatch `noinline` for LLVM). Dispatches are in destination-passing
    style: the tensors a dispatch writes start as a `tensor.empty`, which
    becomes a `bufferization.alloc_tensor` the caller makes right before the
    call and passes in, after the tensors and values it reads; a
    `linalg.fill` of such a tensor is recomputed inside. A result whose only
    use is a `tensor.pad` by a constant is written into the padding: the
    dispatch takes the padded tensor as its destination, fills it and
    writes the middle, and the pad goes.
    Scalar and splat constants are copied in; large constants stay with the
    caller. Every later stage then works on small functions, so compile cost
    grows closer to linearly with the size of a model.
  }];
  let dependentDialects = [
    "mlir::bufferization::BufferizationDialect", "mlir::func::FuncDialect"
  ];
}

def DeduplicateDispatches
    : Pass<"aot-deduplicate-dispatches", "mlir::ModuleOp"> {
  let summary = "Keep one copy of dispatches that are the same function";
  let description = [{
    Dispatches with the same type and the same body (locations aside) are
    one function: the calls to the later ones call the first, and the later
    ones go. The layers of a model that repeat a block (every encoder layer
    of a transformer) are then compiled once, not once per layer. Each call
    keeps its own location.
  }];
}

def SplitSharedReads : Pass<"aot-split-shared-reads", "mlir::ModuleOp"> {
  let summary = "Give each dispatch that reads a shared tensor its own name for it";
  let description = [{
    Before bufferization: a tensor read by several dispatches, each of which
    only reads it (`bufferization.writable = false` on that argument), and
    whose buffer nothing writes in place (a public function's protected
    argument, a call's result, a constant), is turned into a buffer once
    (`bufferization.to_buffer read_only`) and back into a tensor
    (`bufferization.to_tensor restrict`) before each call. One-shot
    bufferization then analyses N small alias sets rather than one that N
    reads share, which costs N^2.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def NumberConstants : Pass<"aot-number-constants", "mlir::ModuleOp"> {
  let summary = "Name and order constant globals by their first use";
  let description = [{
    One-shot bufferization turns tensor constants into `memref.global`s
    named `__constant_SHAPE` plus a counter, in the order it happens to
    visit functions, which depends on pointer values: two compiles of the
    same module could differ. This pass renames every such global after its
    type and the order of its first `memref.get_global` (functions in module
    order), and puts the globals in that order at the top of the module, so
    the output of a compile depends on its input alone.
  }];
}

def HideDispatchBuffers : Pass<"aot-hide-dispatch-buffers", "mlir::ModuleOp"> {
  let summary = "Keep the buffers only dispatches use out of deallocation";
  let description = [{
    After bufferization: a `memref.alloc` whose every use is in its own
    block, as an operand of a call to a dispatch (which returns nothing),
    a `memref.copy` or a `memref.dim`, becomes a `memref.alloca` marked
    `aot.heap`, which ownership-based deallocation leaves alone. Run
    `aot-free-dispatch-buffers` after the deallocation passes.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def FreeDispatchBuffers : Pass<"aot-free-dispatch-buffers", "mlir::ModuleOp"> {
  let summary = "Free the buffers only dispatches use after their last use";
  let description = [{
    Each `memref.alloca` marked `aot.heap` becomes a `memref.alloc` again,
    with a `memref.dealloc` after its last use in the block: linear in the
    number of buffers, and each freed as early as it can be.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def DecomposeAggregates
    : Pass<"aot-decompose-aggregates", "mlir::func::FuncOp"> {
  let summary = "Replace aggregate linalg ops (linalg.softmax, linalg.pack, "
                "linalg.unpack) by their parts";
  let description = [{
    Every op of linalg's AggregatedOpInterface, such as `linalg.softmax`,
    becomes the ops it is defined as (reductions and elementwise generics),
    which the later stages fuse, tile and vectorize. `linalg.pack` becomes a
    pad, a reshape and a transpose, `linalg.unpack` a transpose, a reshape
    and an extract_slice. `tensor.bitcast` becomes an elementwise generic,
    and a `tensor.reshape` between static shapes a `tensor.collapse_shape`
    to one dim and a `tensor.expand_shape` from it (no shape operand left
    to read when the code runs). An op that cannot be decomposed is an error
    naming it.
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect", "mlir::arith::ArithDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect"
  ];
}

def KeepConstantsNarrow
    : Pass<"aot-keep-constants-narrow", "mlir::func::FuncOp"> {
  let summary = "Widen large constants in the code, not at compile time";
  let description = [{
    An elementwise op on tensors whose operand is a constant (an i8 weight
    extended to i32, an f16 weight to f32) is folded into a new constant by
    the conversion to linalg: four or two times the bytes, in the object
    and in memory. When that would add more than 1 MiB (the limit IREE puts
    on constant evaluation), this pass turns the op into a `linalg.generic`
    first, without folding, so the weight stays as narrow as it came and
    the code widens it. Smaller folds happen as before. Runs before any
    pass that folds (every greedy rewrite does), such as the TOSA lowering.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def WeightsAsBytes : Pass<"aot-weights-as-bytes", "mlir::ModuleOp"> {
  let summary = "Make large constant globals arrays of bytes";
  let description = [{
    In the LLVM dialect: a constant global of at least `min-bytes` whose
    value is a dense or `dense_resource` array of integers or floats becomes
    an `!llvm.array<N x i8>` whose value is a `dense_resource` over the same
    bytes (no copy). LLVM then holds it as one byte string and writes it to
    the object in one piece, instead of converting and emitting every
    element on its own (seconds for 64 MB of weights). A splat that is not
    zero is written out first; a zero splat stays one (it takes no space in
    the object). Every constant global with bytes also gets `aot.weight_name`
    (where the constant came from, "m.mlir:12:8"), which names it in an
    external weights file even when a later step of a staged compile reads
    this stage back from a file of its own.
  }];
  let options = [
    Option<"minBytes", "min-bytes", "uint64_t", /*default=*/"1024",
           "Smallest constant, in bytes, that becomes bytes">
  ];
}

def FoldTosaShapes : Pass<"aot-fold-tosa-shapes"> {
  let summary = "TOSA shape operators as the constant shapes they compute";
  let description = [{
    Every `tosa.dim`, `tosa.concat_shape`, `tosa.slice_shape` and
    elementwise shape operator (`tosa.add_shape`, `sub`, `mul`, `div_floor`,
    `div_ceil`, `mod`, `max`, `min`, `exp2`, `log2_ceil`, `log2_floor`)
    whose operands are known when compiling becomes the `tosa.const_shape`
    of its value, in order, so that the TOSA lowerings see constant shapes.
    One whose operands are not (a dynamic dim) or whose result is undefined
    (a zero divisor) is an error at its location.
  }];
  let dependentDialects = ["mlir::tosa::TosaDialect"];
}

def ExpandMathPredicates : Pass<"aot-expand-math-predicates"> {
  let summary = "math.isinf and math.isnormal as comparisons";
  let description = [{
    No lowering to LLVM takes `math.isinf` or `math.isnormal` (isnan and
    isfinite have one): `isinf(x)` becomes `|x| == inf`, `isnormal(x)`
    becomes `|x| >= smallest normal && |x| < inf` (false for NaN, as both
    comparisons are ordered), on scalars, vectors and tensors alike.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def PromoteI4 : Pass<"aot-promote-i4", "mlir::ModuleOp"> {
  let summary = "i4 values as i8 values holding the same value";
  let description = [{
    Every i4 (scalar, tensor, vector, function argument and result) becomes
    an i8 holding its value, sign-extended, as the ABI passes i4 tensors:
    one byte per element. Ops whose result may leave -8..7 (addi, subi,
    muli, the divisions, shli, shrui, trunci and the conversions into i4)
    wrap it back; the unsigned ones (divui, remui, extui, uitofp, ...) read
    their operands' low four bits. An arith op on i4 that has no rule here
    fails the pass, naming it.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def ExpandFloat8 : Pass<"aot-expand-float8"> {
  let summary = "Conversions and constants of 8-bit floats as integer arithmetic";
  let description = [{
    After arith-emulate-unsupported-floats, what is left of the 8-bit float
    types (f8E4M3FN, f8E5M2 and their FNUZ variants) is arith.extf,
    arith.truncf and arith.constant. They become integer and f32 (or f64)
    arithmetic on the values' bytes, on scalars and vectors: extf exactly,
    truncf rounding to nearest even, overflowing to infinity (f8E5M2) or NaN
    (the others) as MLIR's constant folding does. LLVM then sees only bytes.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

#endif // AOT_TRANSFORMS_COMMON_PASSES
