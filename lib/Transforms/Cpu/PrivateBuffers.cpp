//===- PrivateBuffers.cpp - scratch buffers of a loop made per iteration --===//
//
// Why a buffer before the loop holds nothing an iteration needs from the
// one before: it comes from a tensor that every iteration starts from anew
// (an empty tensor, or partial results it initializes); one-shot
// bufferization writes such a tensor in place only where its contents are
// not read again, and copies it otherwise (then the buffer before the loop
// is only read, and stays shared).
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/PrivateBuffers.h"
#include "Transforms/Attributes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/SetVector.h"

namespace aot {

namespace {

/// The most bytes a buffer takes on a thread's stack (libomp's worker
/// threads have 4 MiB or more).
constexpr int64_t kMaxPrivateBytes = 64 * 1024;

/// The buffer that `v` is a view of, through subviews, casts and reshapes.
mlir::Value viewRoot(mlir::Value v) {
  while (auto view = v.getDefiningOp<mlir::ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether `use` may write the memory it names: an op that says it writes
/// there, or one that does not say (a call).
bool mayWrite(mlir::OpOperand &use) {
  auto effects = llvm::dyn_cast<mlir::MemoryEffectOpInterface>(use.getOwner());
  if (!effects)
    return !use.getOwner()
                ->hasTrait<mlir::OpTrait::HasRecursiveMemoryEffects>();
  llvm::SmallVector<mlir::MemoryEffects::EffectInstance> list;
  effects.getEffectsOnValue(use.get(), list);
  return llvm::any_of(list, [](const mlir::MemoryEffects::EffectInstance &e) {
    return llvm::isa<mlir::MemoryEffects::Write>(e.getEffect());
  });
}

/// Whether `alloc` can become a stack buffer of each iteration of `loop`:
/// static and small, its uses inside `loop` but for its deallocation.
bool privatizable(mlir::memref::AllocOp alloc, mlir::scf::ForOp loop) {
  mlir::MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return false;
  int64_t bytes =
      type.getNumElements() * int64_t(type.getElementTypeBitWidth() + 7) / 8;
  if (bytes > kMaxPrivateBytes)
    return false;
  return llvm::all_of(alloc->getUses(), [&](mlir::OpOperand &use) {
    return llvm::isa<mlir::memref::DeallocOp>(use.getOwner()) ||
           loop->isProperAncestor(use.getOwner());
  });
}

/// Whether `user` runs after `loop` ends: after it, or after an op around
/// it, in the same block.
bool runsAfter(mlir::Operation *user, mlir::scf::ForOp loop) {
  for (mlir::Operation *scope = loop; scope; scope = scope->getParentOp()) {
    mlir::Operation *at = scope->getBlock()->findAncestorOpInBlock(*user);
    if (at)
      return at != scope && scope->isBeforeInBlock(at);
  }
  return false;
}

/// Whether `buffer`, or a view of it, is used after `loop` (its
/// deallocation aside).
bool usedAfter(mlir::Value buffer, mlir::scf::ForOp loop) {
  for (mlir::Operation *user : buffer.getUsers()) {
    if (llvm::isa<mlir::memref::DeallocOp>(user))
      continue;
    auto view = llvm::dyn_cast<mlir::ViewLikeOpInterface>(user);
    if (view && view.getViewSource() == buffer &&
        usedAfter(user->getResult(0), loop))
      return true;
    if (runsAfter(user, loop))
      return true;
  }
  return false;
}

} // namespace

bool privatizeScratchBuffers(mlir::scf::ForOp loop) {
  // The buffers allocated before the loop that an iteration writes.
  llvm::SetVector<mlir::memref::AllocOp> written;
  bool unknown = false;
  loop.getBody()->walk([&](mlir::Operation *op) {
    for (mlir::OpOperand &use : op->getOpOperands()) {
      if (!llvm::isa<mlir::MemRefType>(use.get().getType()) || !mayWrite(use))
        continue;
      mlir::Value root = viewRoot(use.get());
      if (loop->isAncestor(root.getParentRegion()->getParentOp()))
        continue; // made inside the loop: each iteration's own
      auto argument = llvm::dyn_cast<mlir::BlockArgument>(root);
      if (auto alloc = root.getDefiningOp<mlir::memref::AllocOp>())
        written.insert(alloc);
      else if (!argument || !llvm::isa<mlir::FunctionOpInterface>(
                                argument.getOwner()->getParentOp()))
        unknown = true; // neither ours nor the function's: cannot tell
    }
  });
  if (loop->hasAttr(kDisjointWritesAttr))
    written.remove_if([&](mlir::memref::AllocOp alloc) {
      return usedAfter(alloc.getResult(), loop);
    });
  if (unknown || !llvm::all_of(written, [&](mlir::memref::AllocOp alloc) {
        return privatizable(alloc, loop);
      }))
    return false;
  if (written.empty())
    return true;

  // The body, less its terminator, in an alloca_scope: the stack buffers
  // are released at the end of every iteration.
  mlir::Block *body = loop.getBody();
  mlir::OpBuilder b = mlir::OpBuilder::atBlockBegin(body);
  auto scope =
      mlir::memref::AllocaScopeOp::create(b, loop.getLoc(), mlir::TypeRange{});
  mlir::Block *inner = new mlir::Block();
  scope.getBodyRegion().push_back(inner);
  inner->getOperations().splice(inner->end(), body->getOperations(),
                                std::next(scope->getIterator()),
                                body->getTerminator()->getIterator());
  b.setInsertionPointToEnd(inner);
  mlir::memref::AllocaScopeReturnOp::create(b, loop.getLoc());

  b.setInsertionPointToStart(inner);
  for (mlir::memref::AllocOp alloc : written) {
    auto stack = mlir::memref::AllocaOp::create(
        b, alloc.getLoc(), alloc.getType(), alloc.getAlignmentAttr());
    for (mlir::OpOperand &use : llvm::make_early_inc_range(alloc->getUses()))
      if (llvm::isa<mlir::memref::DeallocOp>(use.getOwner()))
        use.getOwner()->erase();
      else
        use.set(stack);
    alloc.erase();
  }
  return true;
}

} // namespace aot
