//===- DeduplicateDispatches.cpp - aot-deduplicate-dispatches -------------===//
//
// Models repeat themselves: every layer of a deep network makes the same
// dispatches with other arguments. Compiling each copy costs time in every
// later stage and space in the object; one copy of each is enough.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Passes.h"

#include "llvm/ADT/DenseMap.h"

namespace aot {
#define GEN_PASS_DEF_DEDUPLICATEDISPATCHES
#include "Transforms/Common/Passes.h.inc"

namespace {

constexpr auto kIgnoreLocations =
    mlir::OperationEquivalence::Flags::IgnoreLocations;

/// A hash of a dispatch's type and body that equal dispatches share: the
/// ops' names, attributes and types, not their locations or value names.
llvm::hash_code hashOf(mlir::func::FuncOp fn) {
  llvm::hash_code hash = mlir::hash_value(fn.getFunctionType());
  fn.getBody().walk([&](mlir::Operation *op) {
    hash = llvm::hash_combine(
        hash,
        mlir::OperationEquivalence::computeHash(
            op, mlir::OperationEquivalence::ignoreHashValue,
            mlir::OperationEquivalence::ignoreHashValue, kIgnoreLocations));
  });
  return hash;
}

bool sameFunction(mlir::func::FuncOp a, mlir::func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         a.getAllArgAttrs() == b.getAllArgAttrs() &&
         a.getAllResultAttrs() == b.getAllResultAttrs() &&
         mlir::OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), kIgnoreLocations);
}

struct DeduplicateDispatchesPass
    : impl::DeduplicateDispatchesBase<DeduplicateDispatchesPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    llvm::DenseMap<llvm::hash_code, llvm::SmallVector<mlir::func::FuncOp, 1>>
        kept;
    llvm::DenseMap<mlir::StringAttr, mlir::FlatSymbolRefAttr> replaced;
    llvm::SmallVector<mlir::func::FuncOp> duplicates;
    for (auto fn : module.getOps<mlir::func::FuncOp>()) {
      if (!fn->hasAttr(kDispatchAttr) || fn.isExternal() || fn.isPublic())
        continue;
      auto &candidates = kept[hashOf(fn)];
      auto same = llvm::find_if(candidates, [&](mlir::func::FuncOp other) {
        return sameFunction(fn, other);
      });
      if (same == candidates.end()) {
        candidates.push_back(fn);
        continue;
      }
      replaced[fn.getSymNameAttr()] =
          mlir::FlatSymbolRefAttr::get(same->getSymNameAttr());
      duplicates.push_back(fn);
    }
    if (duplicates.empty())
      return markAllAnalysesPreserved();
    // One walk over the calls, not a symbol-use scan per duplicate: the
    // latter is quadratic in the number of layers.
    module.walk([&](mlir::func::CallOp call) {
      auto it = replaced.find(call.getCalleeAttr().getAttr());
      if (it != replaced.end())
        call.setCalleeAttr(it->second);
    });
    for (mlir::func::FuncOp fn : duplicates)
      fn.erase();
  }
};

} // namespace
} // namespace aot
