//===- DispatchBuffers.cpp - the buffers a function hands to dispatches ---===//
//
// Ownership-based deallocation frees every buffer of a block at its end, in
// one `bufferization.dealloc` whose simplification compares each pair of
// buffers: quadratic in the number of layers of a model, and every
// intermediate tensor stays allocated until the function returns. The
// buffers a function allocates only to hand to dispatches need none of
// that: nothing else sees them, so they can be freed right after their last
// use. aot-hide-dispatch-buffers turns them into marked stack allocations,
// which the deallocation passes leave alone; aot-free-dispatch-buffers,
// after those passes, makes them heap allocations again, each freed after
// its last use in the block.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Dispatches.h"
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace aot {
#define GEN_PASS_DEF_HIDEDISPATCHBUFFERS
#define GEN_PASS_DEF_FREEDISPATCHBUFFERS
#include "Transforms/Common/Passes.h.inc"

namespace {

/// Marks a stack allocation that stands for a heap buffer.
constexpr llvm::StringLiteral kHeapAttr = "aot.heap";

/// Whether every use of `alloc` is in its block and neither keeps nor
/// returns the buffer: an operand of a call to a dispatch (which writes or
/// reads it and returns nothing that aliases it), a copy, or a dim.
bool onlyDispatchesUse(mlir::memref::AllocOp alloc,
                       const DispatchTable &dispatches) {
  return llvm::all_of(alloc->getUsers(), [&](mlir::Operation *user) {
    if (user->getBlock() != alloc->getBlock())
      return false;
    if (calledDispatch(user, dispatches))
      return user->getNumResults() == 0;
    return llvm::isa<mlir::memref::CopyOp, mlir::memref::DimOp>(user);
  });
}

struct HideDispatchBuffersPass
    : impl::HideDispatchBuffersBase<HideDispatchBuffersPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    DispatchTable dispatches = dispatchesOf(module);
    if (dispatches.empty())
      return markAllAnalysesPreserved();
    llvm::SmallVector<mlir::memref::AllocOp> allocs;
    module.walk([&](mlir::memref::AllocOp alloc) {
      if (onlyDispatchesUse(alloc, dispatches))
        allocs.push_back(alloc);
    });
    for (mlir::memref::AllocOp alloc : allocs) {
      mlir::OpBuilder b(alloc);
      auto stack = mlir::memref::AllocaOp::create(
          b, alloc.getLoc(), alloc.getType(), alloc.getDynamicSizes(),
          alloc.getSymbolOperands(), alloc.getAlignmentAttr());
      stack->setAttr(kHeapAttr, b.getUnitAttr());
      alloc.replaceAllUsesWith(stack.getResult());
      alloc.erase();
    }
  }
};

struct FreeDispatchBuffersPass
    : impl::FreeDispatchBuffersBase<FreeDispatchBuffersPass> {
  void runOnOperation() override {
    // Each buffer's last use, found before any op is added: adding one
    // makes the next order query in that block renumber it.
    llvm::SmallVector<std::pair<mlir::memref::AllocaOp, mlir::Operation *>>
        stacks;
    mlir::WalkResult walked =
        getOperation().walk([&](mlir::memref::AllocaOp stack) {
          if (!stack->hasAttr(kHeapAttr))
            return mlir::WalkResult::advance();
          // Later passes may have moved uses into nested regions: free after
          // the op of the block that holds the last one.
          mlir::Block *block = stack->getBlock();
          mlir::Operation *last = stack;
          for (mlir::Operation *user : stack->getUsers()) {
            mlir::Operation *op = block->findAncestorOpInBlock(*user);
            if (!op) {
              // Freeing before a use we cannot place would be a use after free.
              stack.emitError(
                  "internal error: a buffer handed to dispatches is "
                  "used outside the block that allocates it");
              return mlir::WalkResult::interrupt();
            }
            if (last->isBeforeInBlock(op))
              last = op;
          }
          stacks.emplace_back(stack, last);
          return mlir::WalkResult::advance();
        });
    if (walked.wasInterrupted())
      return signalPassFailure();
    for (auto [stack, last] : stacks) {
      mlir::OpBuilder b(stack);
      auto alloc = mlir::memref::AllocOp::create(
          b, stack.getLoc(), stack.getType(), stack.getDynamicSizes(),
          stack.getSymbolOperands(), stack.getAlignmentAttr());
      stack.replaceAllUsesWith(alloc.getResult());
      b.setInsertionPointAfter(last == stack ? alloc.getOperation() : last);
      mlir::memref::DeallocOp::create(b, alloc.getLoc(), alloc);
      stack.erase();
    }
  }
};

} // namespace
} // namespace aot
