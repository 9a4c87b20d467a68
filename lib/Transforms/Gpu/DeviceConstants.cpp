//===- DeviceConstants.cpp - kernels read weights from device memory ------===//
#include "Transforms/Gpu/BufferPlacement.h"
#include "Transforms/Gpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace aot {
#define GEN_PASS_DEF_GPUDEVICECONSTANTS
#include "Transforms/Gpu/Passes.h.inc"

namespace {

/// The runtime function (abi/runtime/CudaRuntime.cpp) that returns the
/// device copy of a constant, made on first use.
constexpr llvm::StringLiteral kConstantFn = "aotCudaConstant";

struct GpuDeviceConstantsPass
    : impl::GpuDeviceConstantsBase<GpuDeviceConstantsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::SymbolTable symbols(module);
    mlir::DataLayout layout(module);
    mlir::MLIRContext *ctx = &getContext();
    auto ptr = mlir::LLVM::LLVMPointerType::get(ctx);
    auto i64 = mlir::IntegerType::get(ctx, 64);
    mlir::LLVM::LLVMFuncOp runtime;
    for (auto fn : module.getOps<mlir::LLVM::LLVMFuncOp>()) {
      llvm::SmallVector<mlir::LLVM::AddressOfOp> addresses;
      fn.walk([&](mlir::LLVM::AddressOfOp a) { addresses.push_back(a); });
      for (mlir::LLVM::AddressOfOp address : addresses) {
        auto global =
            symbols.lookup<mlir::LLVM::GlobalOp>(address.getGlobalName());
        if (!global || !global.getConstant() || global->hasAttr(kHostOnlyAttr))
          continue;
        if (!runtime) {
          runtime = symbols.lookup<mlir::LLVM::LLVMFuncOp>(kConstantFn);
          if (!runtime) {
            mlir::OpBuilder b = mlir::OpBuilder::atBlockEnd(module.getBody());
            runtime = mlir::LLVM::LLVMFuncOp::create(
                b, module.getLoc(), kConstantFn,
                mlir::LLVM::LLVMFunctionType::get(ptr, {ptr, i64}));
          }
        }
        mlir::OpBuilder b(address->getBlock(),
                          std::next(address->getIterator()));
        mlir::Location loc = address.getLoc();
        uint64_t bytes = layout.getTypeSize(global.getType()).getFixedValue();
        mlir::Value size = mlir::LLVM::ConstantOp::create(
            b, loc, i64, b.getI64IntegerAttr(bytes));
        auto call = mlir::LLVM::CallOp::create(
            b, loc, runtime, mlir::ValueRange{address.getResult(), size});
        address.getResult().replaceAllUsesExcept(call.getResult(), call);
      }
    }
    for (auto global : module.getOps<mlir::LLVM::GlobalOp>())
      global->removeAttr(kHostOnlyAttr);
  }
};

} // namespace
} // namespace aot
