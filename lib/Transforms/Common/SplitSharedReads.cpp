//===- SplitSharedReads.cpp - aot-split-shared-reads ----------------------===//
//
// One-shot bufferization analyses every tensor operand of every op, and for
// each it visits every use of every alias of the operand's value: a tensor
// read by N dispatches (the weights of a model that shares them across
// layers, a mask every layer reads) costs N^2. Dispatches only read their
// inputs, so such a tensor can reach them as N separate values of one
// buffer: bufferization then sees N small alias sets instead of one big one.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Dispatches.h"
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace aot {
#define GEN_PASS_DEF_SPLITSHAREDREADS
#include "Transforms/Common/Passes.h.inc"

namespace {

bool isReadOnlyArg(mlir::func::FuncOp fn, unsigned index) {
  auto writable = fn.getArgAttrOfType<mlir::BoolAttr>(
      index, mlir::bufferization::BufferizationDialect::kWritableAttrName);
  return writable && !writable.getValue();
}

/// Whether nothing may write `value`'s buffer in place: an argument of a
/// public function that bufferization may not write (aot-protect-arguments),
/// a constant (a read-only global), or the result of a dispatch that writes
/// only into fresh buffers (so the result aliases nothing older).
bool isStableBuffer(mlir::Value value, const DispatchTable &dispatches) {
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
    auto fn = llvm::dyn_cast<mlir::func::FuncOp>(arg.getOwner()->getParentOp());
    return fn && arg.getOwner()->isEntryBlock() && fn.isPublic() &&
           isReadOnlyArg(fn, arg.getArgNumber());
  }
  mlir::Operation *def = value.getDefiningOp();
  if (llvm::isa<mlir::arith::ConstantOp>(def))
    return true;
  mlir::func::FuncOp callee = calledDispatch(def, dispatches);
  if (!callee)
    return false;
  for (mlir::OpOperand &operand : def->getOpOperands())
    if (llvm::isa<mlir::TensorType>(operand.get().getType()) &&
        !isReadOnlyArg(callee, operand.getOperandNumber()) &&
        !operand.get().getDefiningOp<mlir::bufferization::AllocTensorOp>())
      return false;
  return true;
}

struct SplitSharedReadsPass : impl::SplitSharedReadsBase<SplitSharedReadsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    DispatchTable dispatches = dispatchesOf(module);
    if (dispatches.empty())
      return markAllAnalysesPreserved();

    // Whether `use` is an input that its dispatch only reads.
    auto readOnlyInput = [&](mlir::OpOperand &use) {
      mlir::func::FuncOp callee = calledDispatch(use.getOwner(), dispatches);
      return callee && isReadOnlyArg(callee, use.getOperandNumber());
    };
    llvm::SmallVector<mlir::Value> shared;
    auto consider = [&](mlir::Value value) {
      auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
      if (type && !value.hasOneUse() && !value.use_empty() &&
          isStableBuffer(value, dispatches) &&
          llvm::all_of(value.getUses(), readOnlyInput))
        shared.push_back(value);
    };
    module.walk([&](mlir::Operation *op) {
      if (auto fn = llvm::dyn_cast<mlir::func::FuncOp>(op);
          fn && !fn.isExternal())
        for (mlir::BlockArgument arg : fn.getArguments())
          consider(arg);
      for (mlir::Value result : op->getResults())
        consider(result);
    });

    for (mlir::Value value : shared) {
      auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
      auto bufferType =
          mlir::MemRefType::get(type.getShape(), type.getElementType());
      mlir::OpBuilder b(value.getContext());
      b.setInsertionPointAfterValue(value);
      auto buffer = mlir::bufferization::ToBufferOp::create(
          b, value.getLoc(), bufferType, value, /*read_only=*/true);
      llvm::SmallVector<mlir::OpOperand *> uses;
      for (mlir::OpOperand &use : value.getUses())
        if (use.getOwner() != buffer)
          uses.push_back(&use);
      for (mlir::OpOperand *use : uses) {
        b.setInsertionPoint(use->getOwner());
        // `restrict`: bufferization takes the buffer as this tensor's own;
        // true here because no dispatch writes it.
        use->set(mlir::bufferization::ToTensorOp::create(
            b, value.getLoc(), type, buffer, /*restrict=*/true));
      }
    }
  }
};

} // namespace
} // namespace aot
