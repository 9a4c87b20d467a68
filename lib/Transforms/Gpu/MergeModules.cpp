//===- MergeModules.cpp - one gpu.module for every kernel -----------------===//
#include "Transforms/Attributes.h"
#include "Transforms/Gpu/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringExtras.h"

namespace aot {
#define GEN_PASS_DEF_GPUMERGEMODULES
#include "Transforms/Gpu/Passes.h.inc"

namespace {

/// `name` as a PTX identifier: letters, digits, '_' and '$', not starting
/// with a digit (ptxas rejects the '.' and '-' MLIR names may hold).
std::string ptxIdentifier(llvm::StringRef name) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) || c == '_' || c == '$' ? c : '_';
  if (id.size() < 2 || llvm::isDigit(id[0]))
    id.insert(0, "k_");
  return id;
}

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
        if (fn) {
          llvm::StringRef source = oneKernel ? old.getName() : oldName;
          std::string name = ptxIdentifier(source);
          if (name != source)
            fn->setAttr(kKernelSourceNameAttr,
                        mlir::StringAttr::get(fn.getContext(), source));
          fn.setName(name);
        }
        auto symbol = llvm::dyn_cast<mlir::SymbolOpInterface>(op);
        if (!fn && symbol && kernels.lookup(symbol.getName())) {
          // A function outlining copied into several kernels' modules (the
          // math functions of convert-math-to-funcs): the same function.
          op.erase();
          continue;
        }
        op.remove();
        if (symbol)
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
