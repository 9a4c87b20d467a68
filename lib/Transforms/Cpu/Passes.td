//===- Passes.td - the CPU back end's passes ------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_PASSES
#define AOT_TRANSFORMS_CPU_PASSES

include "mlir/Pass/PassBase.td"

def TileAndVectorize : Pass<"aot-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile linalg ops into register-sized blocks and vectorize them";
  let description = [{
    Tiles contractions into register blocks with the reduction loop
    innermost: linalg.matmul and batch_matmul, and any linalg.generic that
    is one (one M, N and K loop and at most one batch loop, in any order,
    operands transposed or not). Large ones are first cut into cache
    blocks; an f32 matmul with many row blocks copies each block of B into
    a panel of contiguous strips that its register tiles then read. Where
    the results start as a fill and each block runs all of K, each block
    fills its own slice instead of the whole being filled first. 2-D convolutions in NHWC layout (filter
    HWCF), depthwise convolutions and NHWC pooling: one output row, a block
    of pixels by channels, a loop per window position and input channel, so
    that each tile decomposes into a 1-D convolution the vectorizer takes.
    linalg.transpose: where it moves the innermost dim and both dims it
    swaps are multiples of 8, 8 x 8 tiles read as rows and transposed in
    registers; where it keeps the innermost dim, rows copied as vectors.
    Also elementwise linalg.generic ops along their innermost dimension, and
    single-result reductions: along the innermost loop into a vector of
    partial results merged at the end of the row, along another loop with
    that loop innermost. Then vectorizes the tiles; vector math becomes
    MLIR's polynomial approximations (erf on f32: one rational function,
    within 6 ulp), and row-invariant values are hoisted.
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

def WinogradConvolutions
    : Pass<"aot-winograd-convolutions", "mlir::func::FuncOp"> {
  let summary = "3 x 3 convolutions of unit strides by Winograd's F(2 x 2, 3 x 3)";
  let description = [{
    Rewrites each linalg.conv_2d_nhwc_hwcf on f32 with a 3 x 3 filter that
    is a constant, unit strides and dilations, static dims but the batch,
    channels in and out in whole vectors and images of at least 32 blocks
    of 2 x 2 outputs, as Winograd's minimal filtering F(2 x 2, 3 x 3): the
    filter becomes 16 matrices C x F at compile time (G g G^T, a constant
    named after the filter with `.winograd`); each 4 x 4 block of the
    input, one for every 2 x 2 block of outputs, becomes 16 rows of C
    values; linalg.batch_matmuls multiply the 16 sets of rows by the 16
    matrices, an image at a time or, for images of fewer than 128 blocks,
    groups of images of 128 rows or more and then the images left over
    (static rows); and each block's 16 rows of products become its 2 x 2
    outputs, added to the convolution's initial value. The two transforms
    are emitted as vector loops over tensors (a block of pixels and a
    vector of channels at a time), their loop over rows of blocks marked
    `aot.parallel` and `aot.disjoint_writes`; the batch_matmuls and their
    fills, marked `aot.disjoint_writes`, are left to
    aot-tile-and-vectorize. 16 products per output pair of channels and
    2 x 2 pixels in place of 36; the results differ from the direct
    convolution's by rounding (the coefficients are 1, -1 and 1/2).
    Other convolutions are left alone.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"8",
           "channels per vector in the transforms">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::bufferization::BufferizationDialect",
    "mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect"
  ];
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
    runs it alone. A scratch buffer allocated before a marked loop becomes
    each iteration's own (a stack buffer) where it is small and static,
    else the loop stays sequential; a loop also marked
    `aot.disjoint_writes` writes its own part of the buffers that the code
    after it uses, and those stay shared. The marks are removed either way.
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

#endif // AOT_TRANSFORMS_CPU_PASSES
