//===- Passes.td - the CUDA back end's passes -----------------------------===//
#ifndef AOT_TRANSFORMS_GPU_PASSES
#define AOT_TRANSFORMS_GPU_PASSES

include "mlir/Pass/PassBase.td"

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
    (Gpu/WarpReductions.h says which reductions).
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
    kernel takes its old module's (unique) name, made a PTX identifier
    (characters other than letters, digits, `_` and `$` become `_`; the
    name it had is kept in `aot.source_name`, which traces and dumps show);
    launches are updated. A function outlining copied into several modules
    (a math function a kernel calls) is kept once.
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

#endif // AOT_TRANSFORMS_GPU_PASSES
