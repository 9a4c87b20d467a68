//===- Passes.h - the project's own passes --------------------------------===//
#pragma once

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/DenseMap.h"

namespace aot {

/// All `rank` dims as one group: the reassociation of a collapse to one dim
/// or an expand from it.
inline mlir::ReassociationIndices allDims(int64_t rank) {
  mlir::ReassociationIndices dims;
  for (int64_t i = 0; i < rank; ++i)
    dims.push_back(i);
  return dims;
}

/// The unit attribute that marks a function made by aot-form-dispatches.
inline constexpr llvm::StringLiteral kDispatchAttr = "aot.dispatch";

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

/// On an scf.for whose iterations may run on threads of their own: set by
/// aot-tile-and-vectorize, read by aot-parallelize-loops. Its value (i64):
/// the fewest trips worth threads when the trip count is dynamic (0: any).
inline constexpr llvm::StringLiteral kParallelLoopAttr = "aot.parallel";
/// On an scf.for inside one marked kParallelLoopAttr whose trip count is
/// dynamic: runs on threads where that loop makes one trip (set by
/// aot-tile-and-vectorize, read by aot-parallelize-loops).
inline constexpr llvm::StringLiteral kParallelFallbackAttr =
    "aot.parallel_fallback";
/// On the scf.for along K of dot products computed several at a time: set
/// by aot-tile-and-vectorize, read by aot-prefetch-rows.
inline constexpr llvm::StringLiteral kPrefetchRowsAttr = "aot.prefetch_rows";
/// On the scf.for over K blocks of a cache-blocked matmul whose B (K x N) is
/// read where it lies: set by aot-tile-and-vectorize, read by
/// aot-prefetch-rows, which prefetches the next block while this one runs.
inline constexpr llvm::StringLiteral kPrefetchNextBlockAttr =
    "aot.prefetch_next_block";
/// On a vector.contract of 16 pairs of i16 into 16 i32 lanes (x86's
/// vpmaddwd plus an add): set by aot-tile-and-vectorize with x86-pair-dot,
/// lowered to the instruction by aot-x86-pair-dot.
inline constexpr llvm::StringLiteral kPairDotAttr = "aot.pair_dot";
/// On the scf.for along K of integer dot products whose accumulator takes
/// 32 values of K a step: set by aot-tile-and-vectorize with x86-pair-dot,
/// made pair dots into 16 lanes by aot-x86-pair-dot (pairDotProducts).
inline constexpr llvm::StringLiteral kPairDotProductsAttr =
    "aot.pair_dot_products";
/// On the module while a stage runs: Pipeline::runThreads, the threads the
/// compiled code runs on (read by aot-parallelize-loops).
inline constexpr llvm::StringLiteral kThreadsAttr = "aot.threads";

#define GEN_PASS_DECL
#include "Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Transforms/Passes.h.inc"

} // namespace aot
