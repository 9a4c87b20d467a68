//===- BufferPlacement.cpp - where a buffer lives, for the GPU passes -----===//
#include "Transforms/Gpu/BufferPlacement.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace aot {

mlir::Value rootBuffer(mlir::Value value) {
  while (mlir::Operation *op = value.getDefiningOp()) {
    if (auto view = llvm::dyn_cast<mlir::ViewLikeOpInterface>(op)) {
      value = view.getViewSource();
      continue;
    }
    if (auto meta =
            llvm::dyn_cast<mlir::memref::ExtractStridedMetadataOp>(op)) {
      value = meta.getSource();
      continue;
    }
    if (auto cast = llvm::dyn_cast<mlir::memref::CastOp>(op)) {
      value = cast.getSource();
      continue;
    }
    break;
  }
  return value;
}

bool isHostMemory(mlir::Value value) {
  mlir::Value root = rootBuffer(value);
  if (mlir::Operation *op = root.getDefiningOp())
    return llvm::isa<mlir::memref::AllocOp, mlir::memref::AllocaOp>(op) &&
           !op->hasAttr(kDeviceBufferAttr);
  auto fn = llvm::dyn_cast<mlir::func::FuncOp>(
      llvm::cast<mlir::BlockArgument>(root).getOwner()->getParentOp());
  if (!fn) {
    // A block argument of a loop or a branch: where its values come from
    // is not traced; the data such values carry is tensor data.
    return false;
  }
  return !fn->hasAttr(kDeviceMemoryAttr);
}

bool isConstantBuffer(mlir::Value value) {
  return rootBuffer(value).getDefiningOp<mlir::memref::GetGlobalOp>() !=
         nullptr;
}

} // namespace aot
