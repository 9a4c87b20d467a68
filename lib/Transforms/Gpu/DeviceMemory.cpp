//===- DeviceMemory.cpp - tensor data in device memory --------------------===//
//
// The GPU this compiles for cannot read host memory (no HMM on the machines
// it targets), so every buffer of tensor data is device memory, and the
// public functions keep the host-memory ABI of the CPU target by copying at
// their boundary. Bookkeeping that the deallocation lowering adds (arrays of
// pointers and ownership flags the host code reads) stays in host memory:
// aot-gpu-mark-device-buffers marks, before that lowering, what is data.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Gpu/BufferPlacement.h"
#include "Transforms/Gpu/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aot {
#define GEN_PASS_DEF_GPUMARKDEVICEBUFFERS
#define GEN_PASS_DEF_GPUDEVICEMEMORY
#include "Transforms/Gpu/Passes.h.inc"

namespace {

/// The dynamic sizes of `value` (a memref), read from its descriptor.
llvm::SmallVector<mlir::Value>
dynamicSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value) {
  auto type = llvm::cast<mlir::MemRefType>(value.getType());
  llvm::SmallVector<mlir::Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(mlir::memref::DimOp::create(b, loc, value, i));
  return sizes;
}

/// `clone` as the buffer it makes (identity layout, cast back to the
/// clone's type where that has another) and a copy into it: the same ops
/// convert-bufferization-to-memref makes, but with the buffer made here, so
/// that it can be marked as device memory like every other.
void expandClone(mlir::bufferization::CloneOp clone, mlir::UnitAttr device) {
  mlir::OpBuilder b(clone);
  mlir::Location loc = clone.getLoc();
  auto type = llvm::cast<mlir::MemRefType>(clone.getType());
  auto bufferType = mlir::MemRefType::get(
      type.getShape(), type.getElementType(), mlir::MemRefLayoutAttrInterface(),
      type.getMemorySpace());
  auto alloc = mlir::memref::AllocOp::create(
      b, loc, bufferType, dynamicSizes(b, loc, clone.getInput()));
  alloc->setAttr(kDeviceBufferAttr, device);
  mlir::memref::CopyOp::create(b, loc, clone.getInput(), alloc);
  mlir::Value result = alloc;
  if (bufferType != type)
    result = mlir::memref::CastOp::create(b, loc, type, alloc);
  clone.replaceAllUsesWith(result);
  clone.erase();
}

/// Whether `buffer` only holds the sizes a memref.reshape takes: host code
/// stores them (tensor.from_elements of dims) and the reshape reads them on
/// the host into its result's descriptor, so the buffer stays host memory.
/// Host code may also read a size back, and the deallocation's bookkeeping
/// may take its address.
bool holdsOnlyReshapeSizes(mlir::Value buffer) {
  bool shape = false;
  for (mlir::OpOperand &use : buffer.getUses()) {
    mlir::Operation *user = use.getOwner();
    if (auto reshape = llvm::dyn_cast<mlir::memref::ReshapeOp>(user)) {
      if (reshape.getShape() != buffer)
        return false;
      shape = true;
    } else if (auto store = llvm::dyn_cast<mlir::memref::StoreOp>(user)) {
      if (store.getMemRef() != buffer)
        return false;
    } else if (auto load = llvm::dyn_cast<mlir::memref::LoadOp>(user)) {
      if (load.getMemRef() != buffer)
        return false;
    } else if (!llvm::isa<mlir::memref::DeallocOp,
                          mlir::memref::ExtractAlignedPointerAsIndexOp>(user)) {
      return false;
    }
  }
  return shape;
}

struct GpuMarkDeviceBuffersPass
    : impl::GpuMarkDeviceBuffersBase<GpuMarkDeviceBuffersPass> {
  void runOnOperation() override {
    mlir::UnitAttr unit = mlir::UnitAttr::get(&getContext());
    for (auto fn : getOperation().getOps<mlir::func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      fn->setAttr(kDeviceMemoryAttr, unit);
      llvm::SmallVector<mlir::bufferization::CloneOp> clones;
      fn.walk([&](mlir::Operation *op) {
        if (llvm::isa<mlir::memref::AllocOp, mlir::memref::AllocaOp>(op)) {
          if (!holdsOnlyReshapeSizes(op->getResult(0)))
            op->setAttr(kDeviceBufferAttr, unit);
        } else if (auto clone =
                       llvm::dyn_cast<mlir::bufferization::CloneOp>(op))
          clones.push_back(clone);
      });
      // A clone holds tensor data too (a result that would alias an
      // argument, say); lowered later, its buffer would be host memory.
      for (mlir::bufferization::CloneOp clone : clones)
        expandClone(clone, unit);
    }
  }
};

mlir::Value deviceAlloc(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::MemRefType type, mlir::ValueRange sizes) {
  return mlir::gpu::AllocOp::create(b, loc, type, /*asyncToken=*/mlir::Type(),
                                    /*asyncDependencies=*/mlir::ValueRange(),
                                    sizes,
                                    /*symbolOperands=*/mlir::ValueRange(),
                                    /*hostShared=*/false)
      .getMemref();
}

void deviceCopy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value dst,
                mlir::Value src) {
  mlir::gpu::MemcpyOp::create(b, loc, /*asyncToken=*/mlir::Type(),
                              /*asyncDependencies=*/mlir::ValueRange(), dst,
                              src);
}

/// Allocations, deallocations and copies of one function.
mlir::LogicalResult placeBuffers(mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::Operation *> ops;
  fn.walk([&](mlir::Operation *op) { ops.push_back(op); });
  mlir::OpBuilder b(fn.getContext());
  for (mlir::Operation *op : ops) {
    b.setInsertionPoint(op);
    if (auto alloc = llvm::dyn_cast<mlir::memref::AllocOp>(op)) {
      if (!alloc->hasAttr(kDeviceBufferAttr))
        continue;
      if (!alloc.getSymbolOperands().empty())
        return alloc.emitOpError(
            "has a layout with symbols; a device buffer cannot have one");
      alloc.replaceAllUsesWith(deviceAlloc(b, alloc.getLoc(), alloc.getType(),
                                           alloc.getDynamicSizes()));
      alloc.erase();
    } else if (auto alloca = llvm::dyn_cast<mlir::memref::AllocaOp>(op)) {
      if (!alloca->hasAttr(kDeviceBufferAttr))
        continue;
      mlir::Value buffer = deviceAlloc(b, alloca.getLoc(), alloca.getType(),
                                       alloca.getDynamicSizes());
      b.setInsertionPoint(alloca->getBlock()->getTerminator());
      mlir::gpu::DeallocOp::create(b, alloca.getLoc(), mlir::Type(),
                                   mlir::ValueRange(), buffer);
      alloca.replaceAllUsesWith(buffer);
      alloca.erase();
    } else if (auto dealloc = llvm::dyn_cast<mlir::memref::DeallocOp>(op)) {
      if (isHostMemory(dealloc.getMemref()))
        continue;
      mlir::gpu::DeallocOp::create(b, dealloc.getLoc(), mlir::Type(),
                                   mlir::ValueRange(), dealloc.getMemref());
      dealloc.erase();
    } else if (auto copy = llvm::dyn_cast<mlir::memref::CopyOp>(op)) {
      bool hostSource = isHostMemory(copy.getSource());
      bool hostTarget = isHostMemory(copy.getTarget());
      // Neither a kernel nor the host can run a copy between the two: a
      // buffer was left in host memory that should not have been.
      if (hostSource != hostTarget)
        return copy.emitOpError()
               << "copies " << (hostSource ? "host" : "device") << " memory to "
               << (hostTarget ? "host" : "device")
               << " memory; internal error of the GPU target's buffer "
                  "placement";
      if (hostSource)
        continue;
      mlir::linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                                   copy.getTarget());
      copy.erase();
    }
  }
  return mlir::success();
}

/// What a result of a device function is, seen from its caller.
struct ResultKind {
  int argument = -1; ///< the argument it is a view of, or -1
  int sameAs = -1;   ///< an earlier result with the same buffer, or -1
  bool constant = false;
};

/// The kinds of `fn`'s results, from its return op; failure when it has
/// several return ops that disagree.
mlir::FailureOr<llvm::SmallVector<ResultKind>>
resultKinds(mlir::func::FuncOp fn) {
  std::optional<llvm::SmallVector<ResultKind>> kinds;
  mlir::WalkResult walk = fn.walk([&](mlir::func::ReturnOp ret) {
    llvm::SmallVector<ResultKind> here(ret.getNumOperands());
    llvm::SmallVector<mlir::Value> roots;
    for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
      mlir::Value root = rootBuffer(operand);
      roots.push_back(root);
      if (!llvm::isa<mlir::MemRefType>(operand.getType()))
        continue;
      if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(root);
          arg && arg.getOwner()->isEntryBlock() &&
          arg.getOwner()->getParentOp() == fn)
        here[i].argument = arg.getArgNumber();
      here[i].constant = isConstantBuffer(operand);
      for (size_t j = 0; j < i; ++j)
        if (roots[j] == root)
          here[i].sameAs = j;
    }
    if (!kinds) {
      kinds = here;
      return mlir::WalkResult::advance();
    }
    for (auto [a, b] : llvm::zip(*kinds, here))
      if (a.argument != b.argument || a.sameAs != b.sameAs ||
          a.constant != b.constant)
        return mlir::WalkResult::interrupt();
    return mlir::WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return fn.emitOpError("returns buffers that alias its arguments or each "
                          "other differently on different paths; the GPU "
                          "target cannot copy such results to the host"),
           mlir::failure();
  return kinds ? *kinds : llvm::SmallVector<ResultKind>();
}

/// The runtime function `name` taking `inputs` and returning nothing,
/// declared once.
mlir::func::FuncOp runtimeFunction(mlir::SymbolTable &symbols,
                                   mlir::Location loc, llvm::StringRef name,
                                   mlir::TypeRange inputs = {}) {
  if (auto fn = symbols.lookup<mlir::func::FuncOp>(name))
    return fn;
  mlir::OpBuilder b(loc.getContext());
  auto fn = mlir::func::FuncOp::create(
      b, loc, name, b.getFunctionType(inputs, mlir::TypeRange()));
  fn.setPrivate();
  symbols.insert(fn);
  return fn;
}

/// The public entry point on device memory, `fn$device`: the arguments of
/// `body` and then a stream (a CUstream, null for the runtime's own) that
/// every copy and kernel of the call runs on. A result that is a constant
/// is copied into a new buffer, so that each result the caller receives is
/// either one of its own buffers or a new cuMemAlloc'ed one.
mlir::LogicalResult addDeviceEntry(mlir::func::FuncOp fn,
                                   mlir::func::FuncOp body,
                                   llvm::ArrayRef<ResultKind> kinds,
                                   mlir::SymbolTable &symbols) {
  mlir::MLIRContext *ctx = fn.getContext();
  mlir::Location loc = fn.getLoc();
  std::string name = (fn.getName() + "$device").str();
  if (mlir::Operation *clash = symbols.lookup(name))
    return clash->emitOpError() << "is named like the device entry point of '"
                                << fn.getName() << "'; rename it";
  auto streamType = mlir::LLVM::LLVMPointerType::get(ctx);
  llvm::SmallVector<mlir::Type> inputs(body.getArgumentTypes());
  inputs.push_back(streamType);
  mlir::OpBuilder b(fn);
  b.setInsertionPointAfter(fn);
  auto entry = mlir::func::FuncOp::create(
      b, loc, name, b.getFunctionType(inputs, body.getResultTypes()));
  entry->setAttr("llvm.emit_c_interface", mlir::UnitAttr::get(ctx));
  symbols.insert(entry);
  mlir::Block *block = entry.addEntryBlock();
  b.setInsertionPointToStart(block);
  mlir::func::CallOp::create(
      b, loc, runtimeFunction(symbols, loc, "aotCudaBeginOn", {streamType}),
      block->getArguments().back());
  auto call = mlir::func::CallOp::create(b, loc, body,
                                         block->getArguments().drop_back());
  llvm::SmallVector<mlir::Value> results(call.getResults());
  for (auto [result, kind] : llvm::zip(results, kinds)) {
    auto type = llvm::dyn_cast<mlir::MemRefType>(result.getType());
    if (!type || !kind.constant)
      continue;
    mlir::Value copy = deviceAlloc(b, loc, type, dynamicSizes(b, loc, result));
    deviceCopy(b, loc, copy, result);
    result = copy;
  }
  mlir::func::ReturnOp::create(b, loc, results);
  return mlir::success();
}

/// Moves the body of public `fn` into a private `fn$body`, makes `fn` copy
/// its memref arguments to the device and its memref results back, and adds
/// the device-memory entry point `fn$device`.
mlir::FailureOr<mlir::func::FuncOp>
splitHostBoundary(mlir::func::FuncOp fn, mlir::SymbolTable &symbols) {
  auto kinds = resultKinds(fn);
  if (mlir::failed(kinds))
    return mlir::failure();
  std::string bodyName = (fn.getName() + "$body").str();
  if (mlir::Operation *clash = symbols.lookup(bodyName))
    return clash->emitOpError() << "is named like the device code of '"
                                << fn.getName() << "'; rename it";
  mlir::OpBuilder b(fn);
  auto device = llvm::cast<mlir::func::FuncOp>(b.clone(*fn));
  device.setName(bodyName);
  device.setPrivate();
  device->removeAttr("llvm.emit_c_interface");
  symbols.insert(device);

  // The public function is host code only: it copies and calls.
  fn->removeAttr(kDeviceMemoryAttr);
  mlir::Location loc = fn.getLoc();
  fn.getBody().getBlocks().clear();
  mlir::Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  // A call starts with a clean status (abi/aot/abi/CudaStatus.h).
  mlir::func::CallOp::create(b, loc,
                             runtimeFunction(symbols, loc, "aotCudaBegin"),
                             mlir::ValueRange());
  llvm::SmallVector<mlir::Value> args;
  llvm::SmallVector<mlir::Value> toFree;
  for (mlir::BlockArgument arg : entry->getArguments()) {
    auto type = llvm::dyn_cast<mlir::MemRefType>(arg.getType());
    if (!type) {
      args.push_back(arg);
      continue;
    }
    mlir::Value copy = deviceAlloc(b, loc, type, dynamicSizes(b, loc, arg));
    deviceCopy(b, loc, copy, arg);
    args.push_back(copy);
    toFree.push_back(copy);
  }
  auto call = mlir::func::CallOp::create(b, loc, device, args);
  llvm::SmallVector<mlir::Value> results;
  for (auto [result, kind] : llvm::zip(call.getResults(), *kinds)) {
    auto type = llvm::dyn_cast<mlir::MemRefType>(result.getType());
    if (!type) {
      results.push_back(result);
      continue;
    }
    // Every memref result is a new host buffer, as the CPU target's
    // results are when they do not alias.
    auto host = mlir::memref::AllocOp::create(
        b, loc, type, dynamicSizes(b, loc, result),
        /*alignment=*/b.getI64IntegerAttr(64));
    deviceCopy(b, loc, host, result);
    results.push_back(host);
    if (kind.argument < 0 && kind.sameAs < 0 && !kind.constant)
      toFree.push_back(result);
  }
  for (mlir::Value buffer : toFree)
    mlir::gpu::DeallocOp::create(b, loc, mlir::Type(), mlir::ValueRange(),
                                 buffer);
  mlir::func::ReturnOp::create(b, loc, results);
  if (mlir::failed(addDeviceEntry(fn, device, *kinds, symbols)))
    return mlir::failure();
  return device;
}

struct GpuDeviceMemoryPass : impl::GpuDeviceMemoryBase<GpuDeviceMemoryPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::SymbolTable symbols(module);
    llvm::SmallVector<mlir::func::FuncOp> functions(
        module.getOps<mlir::func::FuncOp>());
    for (mlir::func::FuncOp fn : functions) {
      if (!fn->hasAttr(kDeviceMemoryAttr))
        continue;
      if (mlir::failed(placeBuffers(fn)))
        return signalPassFailure();
    }
    // Calls between public functions go to the bodies on device memory.
    llvm::DenseMap<mlir::StringAttr, mlir::func::FuncOp> deviceOf;
    for (mlir::func::FuncOp fn : functions)
      if (fn->hasAttr(kDeviceMemoryAttr) && fn.isPublic()) {
        auto device = splitHostBoundary(fn, symbols);
        if (mlir::failed(device))
          return signalPassFailure();
        deviceOf[fn.getSymNameAttr()] = *device;
      }
    module.walk([&](mlir::func::CallOp call) {
      if (mlir::func::FuncOp device =
              deviceOf.lookup(call.getCalleeAttr().getAttr()))
        call.setCallee(device.getName());
    });
  }
};

} // namespace
} // namespace aot
