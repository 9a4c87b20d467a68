//===- ExportCInterface.cpp - aot-export-c-interface ----------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace aot {
#define GEN_PASS_DEF_EXPORTCINTERFACE
#include "Transforms/Common/Passes.h.inc"

namespace {
struct ExportCInterfacePass : impl::ExportCInterfaceBase<ExportCInterfacePass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::Builder b(module.getContext());
    for (auto fn : module.getOps<mlir::func::FuncOp>())
      if (fn.isPublic() && !fn.isExternal())
        fn->setAttr(mlir::LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    b.getUnitAttr());
  }
};
} // namespace
} // namespace aot
