//===- MergeModules.cpp - one gpu.module for every kernel -----------------===//
#include "Transforms/Gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

namespace aot {
#define GEN_PASS_DEF_GPUMERGEMODULES
#include "Transforms/Gpu/Passes.h.inc"

namespace {

struct GpuMergeModulesPass : impl::GpuMergeModulesBase<GpuMergeModulesPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    llvm::SmallVector<mlir::gpu::GPUModuleOp> modules(
        module.getOps<mlir::gpu::GPUModuleOp>());
    if (modules.empty())
      return;
    mlir::OpBuilder b(modules.front());
    auto merged = mlir::gpu::GPUModuleOp::create(b, module.getLoc(), "kernels");
    mlir::SymbolTable symbols(module);
    symbols.insert(merged);
    mlir::SymbolTable kernels(merged);

    // Old (module, kernel) reference to the kernel's new name.
    llvm::DenseMap<mlir::Attribute, mlir::StringAttr> renamed;
    for (mlir::gpu::GPUModuleOp old : modules) {
      bool oneKernel =
          llvm::hasSingleElement(old.getOps<mlir::gpu::GPUFuncOp>());
      for (mlir::Operation &op :
           llvm::make_early_inc_range(old.getBody()->getOperations())) {
        auto fn = llvm::dyn_cast<mlir::gpu::GPUFuncOp>(op);
        mlir::StringAttr oldName = fn ? fn.getNameAttr() : mlir::StringAttr();
        if (fn && oneKernel)
          fn.setName(old.getName());
        op.remove();
        if (llvm::isa<mlir::SymbolOpInterface>(op))
          kernels.insert(&op);
        else
          merged.getBody()->push_back(&op);
        if (fn)
          renamed[mlir::SymbolRefAttr::get(
              old.getNameAttr(), {mlir::FlatSymbolRefAttr::get(oldName)})] =
              fn.getNameAttr();
      }
      symbols.erase(old);
    }
    module.walk([&](mlir::gpu::LaunchFuncOp launch) {
      if (mlir::StringAttr name = renamed.lookup(launch.getKernel()))
        launch.setKernelAttr(mlir::SymbolRefAttr::get(
            merged.getNameAttr(), {mlir::FlatSymbolRefAttr::get(name)}));
    });
  }
};

} // namespace
} // namespace aot
