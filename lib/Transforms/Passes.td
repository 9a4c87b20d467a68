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

def TileAndVectorize : Pass<"aot-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile linalg ops into register-sized blocks and vectorize them";
  let description = [{
    Tiles contractions into register blocks with the reduction loop
    innermost: linalg.matmul and batch_matmul, and any linalg.generic that
    is one (one M, N and K loop and at most one batch loop, in any order,
    operands transposed or not). Large ones are first cut into cache
    blocks; an f32 matmul with many row blocks copies each block of B into
    a panel of contiguous strips that its register tiles then read. 2-D convolutions in NHWC layout (filter
    HWCF), depthwise convolutions and NHWC pooling: one output row, a block
    of pixels by channels, a loop per window position and input channel, so
    that each tile decomposes into a 1-D convolution the vectorizer takes.
    Also elementwise linalg.generic ops along their innermost dimension, and
    single-result reductions: along the innermost loop into a vector of
    partial results merged at the end of the row, along another loop with
    that loop innermost. Then vectorizes the tiles; vector math becomes
    MLIR's polynomial approximations, and row-invariant values are hoisted.
    A static dim gets the largest tile that divides it when that is at least
    half the wanted tile (along vector lanes, also a power of two); any
    other dim, dynamic ones included, the wanted tile, and its loop is
    peeled, so the full tiles become static (plain vectors) and the last,
    partial tile is vectorized at the full size with masks. Ops it cannot tile are left
    untouched for the loop lowering, so the pass never fails on valid input.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"8",
           "rows of a contraction's register block">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"32",
           "columns of a contraction's register block">,
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "elements per vector for elementwise ops">,
    Option<"pairDot", "x86-pair-dot", "bool", /*default=*/"false",
           "integer matmuls of i8 or i16 operands into i32 take two steps "
           "of K at a time with AVX-512's vpmaddwd (a target with "
           "AVX512BW; LLVM makes it vpdpwssd where the CPU has VNNI)">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect",
    "mlir::LLVM::LLVMDialect", "mlir::bufferization::BufferizationDialect"
  ];
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

def GpuMarkDeviceBuffers
    : Pass<"aot-gpu-mark-device-buffers", "mlir::ModuleOp"> {
  let summary = "Mark the buffers and functions that live on the GPU";
  let description = [{
    Before the deallocation ops are lowered (which adds host-side
    bookkeeping arrays), marks every `memref.alloc` and `memref.alloca`
    with `aot.device`: they hold tensor data, which lives in device memory.
    A buffer that only holds the sizes of a `memref.reshape` (stored by the
    host, read by the reshape into its result's descriptor) stays on the
    host. A `bufferization.clone` becomes such an alloc and a `memref.copy`.
    Marks every function with a body `aot.device_memory`: its memref
    arguments are device memory. What the later lowering adds is unmarked
    and stays on the host. Run `aot-gpu-device-memory` right after.
  }];
}

def GpuDeviceMemory : Pass<"aot-gpu-device-memory", "mlir::ModuleOp"> {
  let summary = "Put tensor data in device memory; public functions copy";
  let description = [{
    Marked allocations become `gpu.alloc` (a marked `memref.alloca` also
    gets a `gpu.dealloc` at the end of its block); a `memref.dealloc` of
    anything but a host allocation becomes `gpu.dealloc`; `memref.copy`
    between device buffers becomes `linalg.copy`, which later becomes a
    kernel. Each public function `f` keeps the host-memory interface: its
    body moves to a private `f$body` taking and returning device memory,
    and `f` copies its memref arguments to the device, calls it, copies
    each memref result into a new host buffer and frees the device memory.
    A public `f$device` takes and returns device memory, with a trailing
    stream argument (`!llvm.ptr`, a CUstream) that the call runs on.
  }];
  let dependentDialects = [
    "mlir::gpu::GPUDialect", "mlir::linalg::LinalgDialect",
    "mlir::memref::MemRefDialect", "mlir::LLVM::LLVMDialect"
  ];
}

def MathApproximation : Pass<"aot-math-approximation"> {
  let summary = "Replace math functions by MLIR's polynomial approximations";
  let description = [{
    Rewrites the `math` ops that MLIR can approximate with arithmetic
    (exp, expm1, log, log1p, log2, tanh, erf, erfc, sin, cos, atan, atan2,
    asin, acos, cbrt, rsqrt and those it expands from them), so that no
    math library function is called, and fma, sqrt, absf, floor, ceil,
    trunc, roundeven and copysign (instructions on a GPU) to LLVM
    intrinsics. The CUDA back end runs it in kernels when libdevice (the
    `__nv_` functions) was not found.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::vector::VectorDialect", "mlir::scf::SCFDialect",
    "mlir::LLVM::LLVMDialect"
  ];
}

def GpuMapLoops : Pass<"aot-gpu-map-loops", "mlir::func::FuncOp"> {
  let summary = "Make every access to device memory part of a parallel loop";
  let description = [{
    In functions marked `aot.device_memory`, after linalg ops became
    `scf.parallel` loops: tiles each outermost parallel loop into blocks
    of threads (the innermost dimension by up to `block-x`, the next by up
    to `block-y`, others by 1; never beyond a static trip count), and wraps
    what is left of host code that reads or writes device memory (loops
    over a reduction with no parallel dimension, element stores) into
    one-iteration parallel loops, which become single-thread kernels. A
    device element the host code needs is copied to a host buffer.
    In a large loop whose body is straight-line code (elementwise ops),
    each thread computes `elements-per-thread` elements of the innermost
    dimension, a block's width apart, so that it has that many loads in
    flight and neighbouring threads still touch neighbouring elements.
    A reduction along the last dimension of what it reads gets a warp per
    output element, its lanes along thread x, combined by xor shuffles
    (GpuWarpReduce.h says which reductions).
  }];
  let options = [
    Option<"blockX", "block-x", "int64_t", /*default=*/"32",
           "threads of a block along the innermost parallel dimension">,
    Option<"blockY", "block-y", "int64_t", /*default=*/"8",
           "threads along the next one">,
    Option<"block1d", "block-1d", "int64_t", /*default=*/"256",
           "threads of a block when the loop has one dimension">,
    Option<"perThread", "elements-per-thread", "int64_t", /*default=*/"4",
           "elements of the innermost dimension each thread of a large "
           "elementwise loop computes, a block apart (1: one)">
  ];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::gpu::GPUDialect",
    "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect"
  ];
}

def GpuCheckMapped : Pass<"aot-gpu-check-mapped", "mlir::func::FuncOp"> {
  let summary = "Fail on a parallel loop over device memory left on the host";
  let description = [{
    After `convert-parallel-loops-to-gpu`: an `scf.parallel` outside a
    `gpu.launch` in a function marked `aot.device_memory` is one the GPU
    lowering could not turn into a launch. Running it on the host would
    read device memory there, so it is an error at the loop's location
    (the op it came from), never a silent host fallback.
  }];
}

def GpuMergeModules : Pass<"aot-gpu-merge-modules", "mlir::ModuleOp"> {
  let summary = "Put every outlined kernel into one gpu.module";
  let description = [{
    Kernel outlining makes a `gpu.module` per kernel. One module means one
    PTX, one cubin, one `ptxas` run and one module load at run time. Each
    kernel takes its old module's (unique) name; launches are updated.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GpuDeviceConstants : Pass<"aot-gpu-device-constants", "mlir::ModuleOp"> {
  let summary = "Host code reads constant globals through their device copy";
  let description = [{
    In the LLVM dialect, after the host code is lowered: each address of a
    constant global taken by host code (a weight the kernels read) is
    replaced by a call to the runtime's `aotCudaConstant(address, size)`,
    which copies the constant to device memory once per process and
    returns its device address.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ParallelizeLoops : Pass<"aot-parallelize-loops", "mlir::ModuleOp"> {
  let summary = "Run the loops marked parallel on OpenMP threads";
  let description = [{
    After bufferization: every `scf.for` that aot-tile-and-vectorize marked
    `aot.parallel` (the outermost tile loop over a parallel dim of an op
    large enough to gain from threads) and that carries no values becomes
    an `scf.parallel`, which `convert-scf-to-openmp` turns into an OpenMP
    parallel loop with static scheduling. The thread count is the module's
    `aot.threads` attribute (set by the compile from Pipeline::runThreads):
    1, or no attribute, leaves every loop sequential (no OpenMP runtime
    needed); 0 uses the runtime's count when the code runs; N asks for N.
    A loop over a dynamic dim whose mark gives the fewest trips worth
    threads gets an `if` clause: below that many trips the calling thread
    runs it alone. The marks are removed either way.
  }];
  let dependentDialects = [
    "mlir::scf::SCFDialect", "mlir::omp::OpenMPDialect",
    "mlir::arith::ArithDialect",
    "mlir::LLVM::LLVMDialect", "mlir::memref::MemRefDialect"
  ];
}

def PrefetchRows : Pass<"aot-prefetch-rows"> {
  let summary = "Prefetch the rows that dot products stream side by side, and the next block of an unpacked B";
  let description = [{
    After bufferization: in every `scf.for` that aot-tile-and-vectorize
    marked `aot.prefetch_rows` (the loop along K of dot products computed
    several at a time), each `vector.transfer_read` of two rows or more
    from a slice of a buffer defined outside the loop gets a
    `memref.prefetch` per row, 512 bytes ahead of the read along the row
    (clamped to the buffer's last column). Reads of one row are left alone.
    In every `scf.for` marked `aot.prefetch_next_block` (the loop over K
    blocks of a matmul whose B is read where it lies), each register
    tile's loop along K prefetches as many bytes of the next block as it
    reads of this one, in the order that block lies in memory; where
    several tiles of rows run over each block, the loop over them is
    peeled and only its first pass prefetches. The marks are removed.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
    "mlir::memref::MemRefDialect"
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

def X86PairDot : Pass<"aot-x86-pair-dot", "mlir::ModuleOp"> {
  let summary = "Pair dots of integer matmuls as x86's vpmaddwd";
  let description = [{
    After bufferization: every `vector.contract` that aot-tile-and-vectorize
    tagged `aot.pair_dot` (16 pairs of i16 into 16 i32 lanes, plus an
    accumulator) becomes a call of `llvm.x86.avx512.pmaddw.d.512` and an
    `arith.addi`, which LLVM fuses into `vpdpwssd` on a CPU with AVX-512
    VNNI. Untagged contractions are left alone. First, each loop marked
    `aot.pair_dot_products` (integer dot products whose 32 lanes of i32
    partial sums are only added together after the loop) becomes pair dots
    into 16 lanes.
  }];
  let dependentDialects = [
    "mlir::LLVM::LLVMDialect", "mlir::vector::VectorDialect",
    "mlir::arith::ArithDialect"
  ];
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

def BitCountsToLlvm : Pass<"aot-bit-counts-to-llvm"> {
  let summary = "math.ctlz, math.cttz, math.ctpop and math.trunc as LLVM "
                "intrinsics";
  let description = [{
    For GPU kernels, whose lowering (convert-gpu-to-nvvm) leaves these
    integer ops alone and makes math.trunc a call of libm's `truncf`, which
    kernels cannot link: each becomes the LLVM intrinsic (`llvm.intr.ctlz`,
    `cttz`, `ctpop`, a zero input giving the bit width; `llvm.intr.trunc`),
    which the NVPTX back end has instructions for. Scalars and vectors.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // AOT_TRANSFORMS_PASSES
