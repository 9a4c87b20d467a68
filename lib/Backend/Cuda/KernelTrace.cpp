//===- KernelTrace.cpp - host code that records what each kernel wrote ----===//
//
// --trace-kernels-to=DIR: after each kernel launch, the host code hands the
// runtime every buffer the kernel writes (abi/runtime/CudaTrace.cpp), which
// copies them to the host and writes them as DIR/NNNN-KERNEL.npz. A buffer
// goes to the runtime as an index array [aligned address, offset, sizes...,
// strides...], so one runtime function takes every element type and rank.
//
//===----------------------------------------------------------------------===//
#include "Backend/Cuda/KernelTrace.h"
#include "Backend/Cuda/KernelDebug.h"

#include "Frontend/Frontend.h"
#include "Transforms/Attributes.h"
#include "Transforms/Gpu/BufferPlacement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/FileSystem.h"

namespace aot {

namespace {

/// The argument of `kernel`'s entry block that `value` is a view of, or -1.
int rootArgument(mlir::gpu::GPUFuncOp kernel, mlir::Value value) {
  while (value) {
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value))
      return arg.getOwner() == &kernel.getBody().front()
                 ? static_cast<int>(arg.getArgNumber())
                 : -1;
    auto view = value.getDefiningOp<mlir::ViewLikeOpInterface>();
    if (!view)
      return -1;
    value = view.getViewSource();
  }
  return -1;
}

/// Which memref arguments of `kernel` it writes, by argument number.
llvm::SmallBitVector writtenArguments(mlir::gpu::GPUFuncOp kernel) {
  llvm::SmallBitVector written(kernel.getNumArguments());
  kernel.walk([&](mlir::Operation *op) {
    auto effects = llvm::dyn_cast<mlir::MemoryEffectOpInterface>(op);
    if (!effects)
      return;
    llvm::SmallVector<mlir::MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (const auto &effect : list)
      if (llvm::isa<mlir::MemoryEffects::Write>(effect.getEffect()))
        if (mlir::Value v = effect.getValue())
          if (int arg = rootArgument(kernel, v); arg >= 0)
            written.set(arg);
  });
  return written;
}

/// Declares the runtime function `name` once.
mlir::func::FuncOp declare(mlir::ModuleOp module, llvm::StringRef name,
                           mlir::FunctionType type) {
  if (auto fn = module.lookupSymbol<mlir::func::FuncOp>(name))
    return fn;
  mlir::OpBuilder b(module.getBodyRegion());
  auto fn = mlir::func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

/// The descriptor of `buffer` as a host memref<?xindex>: the aligned
/// address, the offset, the sizes and the strides.
mlir::Value describe(mlir::OpBuilder &b, mlir::Location loc,
                     mlir::Value buffer) {
  auto type = llvm::cast<mlir::MemRefType>(buffer.getType());
  int64_t rank = type.getRank();
  auto meta = mlir::memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  llvm::SmallVector<mlir::Value> fields = {
      mlir::memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer),
      meta.getOffset()};
  llvm::append_range(fields, meta.getSizes());
  llvm::append_range(fields, meta.getStrides());
  auto arrayType = mlir::MemRefType::get({2 + 2 * rank}, b.getIndexType());
  mlir::Value array = mlir::memref::AllocaOp::create(b, loc, arrayType);
  for (auto [i, field] : llvm::enumerate(fields))
    mlir::memref::StoreOp::create(
        b, loc, field, array,
        mlir::ValueRange{mlir::arith::ConstantIndexOp::create(b, loc, i)});
  return mlir::memref::CastOp::create(
      b, loc,
      mlir::MemRefType::get({mlir::ShapedType::kDynamic}, b.getIndexType()),
      array);
}

/// A global string's address, one global per distinct text.
mlir::Value text(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef value,
                 llvm::StringMap<std::string> &names) {
  auto [it, added] = names.try_emplace(value, "aot_trace_text_" +
                                                  std::to_string(names.size()));
  std::string withNul = value.str();
  withNul.push_back('\0');
  if (!added) {
    auto type = mlir::LLVM::LLVMPointerType::get(b.getContext());
    return mlir::LLVM::AddressOfOp::create(b, loc, type, it->second);
  }
  mlir::Value address = mlir::LLVM::createGlobalString(
      loc, b, it->second, withNul, mlir::LLVM::Linkage::Internal);
  // The runtime reads the text on the host: no device copy of it.
  if (auto global =
          mlir::SymbolTable::lookupNearestSymbolFrom<mlir::LLVM::GlobalOp>(
              b.getInsertionBlock()->getParentOp(),
              b.getStringAttr(it->second)))
    global->setAttr(kHostOnlyAttr, b.getUnitAttr());
  return address;
}

/// The kernel's name as its source gave it.
llvm::StringRef sourceName(mlir::gpu::GPUFuncOp kernel) {
  if (auto source =
          kernel->getAttrOfType<mlir::StringAttr>(kKernelSourceNameAttr))
    return source.getValue();
  return kernel.getName();
}

} // namespace

Status traceKernelLaunches(mlir::ModuleOp module, const std::string &to) {
  // The code runs in another working directory than the compile.
  llvm::SmallString<256> absolute(to);
  if (std::error_code ec = llvm::sys::fs::make_absolute(absolute))
    return Error::at(to, 0, 0,
                     "cannot make the path absolute: " + ec.message());
  std::string dir(absolute);
  mlir::MLIRContext *ctx = module.getContext();
  mlir::OpBuilder b(ctx);
  auto ptr = mlir::LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type();
  auto launchFn = declare(module, "aotCudaTraceLaunch",
                          b.getFunctionType({ptr, ptr, ptr}, {}));
  auto bufferFn = declare(
      module, "aotCudaTraceBuffer",
      b.getFunctionType({i32, i32, i32,
                         mlir::MemRefType::get({mlir::ShapedType::kDynamic},
                                               b.getIndexType())},
                        {}));
  auto endFn = declare(module, "aotCudaTraceEnd", b.getFunctionType({}, {}));
  llvm::StringMap<std::string> names;
  llvm::SmallVector<mlir::gpu::LaunchFuncOp> launches;
  module.walk([&](mlir::gpu::LaunchFuncOp l) { launches.push_back(l); });
  for (mlir::gpu::LaunchFuncOp launch : launches) {
    auto kernel =
        mlir::SymbolTable::lookupNearestSymbolFrom<mlir::gpu::GPUFuncOp>(
            launch, launch.getKernel());
    if (!kernel)
      continue;
    llvm::SmallBitVector written = writtenArguments(kernel);
    mlir::Location loc = launch.getLoc();
    b.setInsertionPointAfter(launch);
    mlir::func::CallOp::create(
        b, loc, launchFn,
        mlir::ValueRange{text(b, loc, dir, names),
                         text(b, loc, sourceName(kernel), names),
                         text(b, loc, locationText(kernel.getLoc()), names)});
    for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
      auto type = llvm::dyn_cast<mlir::MemRefType>(operand.getType());
      if (!type || i >= written.size() || !written.test(i))
        continue;
      std::optional<abi::DType> dtype = dtypeOf(type.getElementType());
      if (!dtype && type.getElementType().isIndex())
        dtype = abi::DType::I64;
      if (!dtype)
        continue;
      auto constant = [&](int64_t v) -> mlir::Value {
        return mlir::arith::ConstantIntOp::create(b, loc, i32, v);
      };
      mlir::func::CallOp::create(
          b, loc, bufferFn,
          mlir::ValueRange{constant(static_cast<int64_t>(i)),
                           constant(static_cast<int64_t>(*dtype)),
                           constant(type.getRank()),
                           describe(b, loc, operand)});
    }
    mlir::func::CallOp::create(b, loc, endFn, mlir::ValueRange());
  }
  return Status::ok();
}

} // namespace aot
