//===- ProtectArguments.cpp - aot-protect-arguments -----------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace aot {
#define GEN_PASS_DEF_PROTECTARGUMENTS
#include "Transforms/Common/Passes.h.inc"

namespace {
struct ProtectArgumentsPass : impl::ProtectArgumentsBase<ProtectArgumentsPass> {
  void runOnOperation() override {
    mlir::Builder b(&getContext());
    for (auto fn : getOperation().getOps<mlir::func::FuncOp>()) {
      if (!fn.isPublic() || fn.isExternal())
        continue;
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (llvm::isa<mlir::TensorType>(fn.getArgument(i).getType()))
          fn.setArgAttr(
              i, mlir::bufferization::BufferizationDialect::kWritableAttrName,
              b.getBoolAttr(false));
    }
  }
};
} // namespace
} // namespace aot
