//===- Dispatches.h - the functions aot-form-dispatches makes -------------===//
#pragma once

#include "Transforms/Attributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

namespace aot {

/// A module's dispatches by name.
using DispatchTable = llvm::DenseMap<mlir::StringAttr, mlir::func::FuncOp>;

inline DispatchTable dispatchesOf(mlir::ModuleOp module) {
  DispatchTable dispatches;
  for (auto fn : module.getOps<mlir::func::FuncOp>())
    if (fn->hasAttr(kDispatchAttr))
      dispatches[fn.getSymNameAttr()] = fn;
  return dispatches;
}

/// The dispatch `op` calls, or null when `op` is not a call to one.
inline mlir::func::FuncOp calledDispatch(mlir::Operation *op,
                                         const DispatchTable &dispatches) {
  auto call = llvm::dyn_cast_or_null<mlir::func::CallOp>(op);
  return call ? dispatches.lookup(call.getCalleeAttr().getAttr()) : nullptr;
}

} // namespace aot
