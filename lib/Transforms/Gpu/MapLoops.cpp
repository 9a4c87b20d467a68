//===- MapLoops.cpp - every access to device memory in a kernel -----------===//
//
// After convert-linalg-to-parallel-loops, the parallel dimensions of each
// linalg op are an scf.parallel, which upstream's mapping and conversion
// turn into a kernel launch. What is not inside one stays host code, and
// host code cannot touch device memory: a reduction over every dimension
// (a loop nest with no parallel loop), element stores that assemble a small
// tensor, an element read to decide a branch. Those become one-thread
// kernels here, and an element the host needs is copied out. Then each
// parallel loop is tiled into blocks of threads, the innermost dimension
// along thread x so that neighbouring threads touch neighbouring elements.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Gpu/BufferPlacement.h"
#include "Transforms/Gpu/Passes.h"
#include "Transforms/Gpu/WarpReductions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_GPUMAPLOOPS
#define GEN_PASS_DEF_GPUCHECKMAPPED
#include "Transforms/Gpu/Passes.h.inc"

namespace {

enum class Kind {
  Host,     ///< touches no device memory
  Device,   ///< reads or writes device memory: belongs in a kernel
  Control,  ///< host control flow around kernels, calls or allocations
  Parallel, ///< a parallel loop: a kernel of its own
};

/// Whether `op` itself (not its regions) reads or writes device memory.
bool touchesDeviceMemory(mlir::Operation *op) {
  if (llvm::isa<mlir::gpu::GPUDialect>(op->getDialect()) ||
      llvm::isa<mlir::CallOpInterface, mlir::memref::AllocOp,
                mlir::memref::AllocaOp, mlir::memref::DeallocOp>(op))
    return false;
  auto effects = llvm::dyn_cast<mlir::MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  llvm::SmallVector<mlir::MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::any_of(list, [](const auto &effect) {
    mlir::Value value = effect.getValue();
    return value && llvm::isa<mlir::MemRefType>(value.getType()) &&
           !isHostMemory(value) &&
           llvm::isa<mlir::MemoryEffects::Read, mlir::MemoryEffects::Write>(
               effect.getEffect());
  });
}

Kind classify(mlir::Operation *op) {
  if (llvm::isa<mlir::scf::ParallelOp>(op))
    return Kind::Parallel;
  if (op->getNumRegions() == 0)
    return touchesDeviceMemory(op) ? Kind::Device : Kind::Host;
  bool control = false;
  bool device = false;
  op->walk([&](mlir::Operation *nested) {
    if (nested == op)
      return;
    if (llvm::isa<mlir::scf::ParallelOp, mlir::CallOpInterface,
                  mlir::memref::AllocOp, mlir::memref::AllocaOp,
                  mlir::memref::DeallocOp>(nested) ||
        llvm::isa<mlir::gpu::GPUDialect>(nested->getDialect()))
      control = true;
    else if (touchesDeviceMemory(nested))
      device = true;
  });
  if (control)
    return Kind::Control;
  return device ? Kind::Device : Kind::Host;
}

/// The fewest iterations of a parallel loop for which its threads compute
/// several elements each: with 4 a thread, this still leaves a million
/// threads, several times what an H100 (132 SMs x 2048) holds at once.
constexpr int64_t kManyElements = int64_t(1) << 22;

/// Marks the one-thread loops this pass makes, which are not tiled; removed
/// when the pass ends.
constexpr llvm::StringLiteral kSerialAttr = "aot.serial";

/// A marked one-iteration parallel loop at `b`'s insertion point.
mlir::scf::ParallelOp serialLoop(mlir::OpBuilder &b, mlir::Location loc) {
  mlir::Value zero = mlir::arith::ConstantIndexOp::create(b, loc, 0);
  mlir::Value one = mlir::arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = mlir::scf::ParallelOp::create(b, loc, mlir::ValueRange{zero},
                                            mlir::ValueRange{one},
                                            mlir::ValueRange{one});
  loop->setAttr(kSerialAttr, b.getUnitAttr());
  return loop;
}

class Mapper {
public:
  explicit Mapper(const GpuMapLoopsOptions &options) : options_(options) {}

  mlir::LogicalResult mapBlock(mlir::Block &block) {
    llvm::SmallVector<mlir::Operation *> group;
    auto flush = [&]() -> mlir::LogicalResult {
      if (group.empty())
        return mlir::success();
      mlir::LogicalResult result = wrap(group);
      group.clear();
      return result;
    };
    for (mlir::Operation &op : llvm::make_early_inc_range(block)) {
      switch (classify(&op)) {
      case Kind::Parallel:
        if (mlir::failed(flush()))
          return mlir::failure();
        tile(llvm::cast<mlir::scf::ParallelOp>(op));
        break;
      case Kind::Control:
        if (mlir::failed(flush()))
          return mlir::failure();
        for (mlir::Region &region : op.getRegions())
          for (mlir::Block &nested : region)
            if (mlir::failed(mapBlock(nested)))
              return mlir::failure();
        break;
      case Kind::Device:
        if (auto load = llvm::dyn_cast<mlir::memref::LoadOp>(op)) {
          if (mlir::failed(flush()))
            return mlir::failure();
          readToHost(load);
        } else {
          group.push_back(&op);
        }
        break;
      case Kind::Host:
        // Pure host computations (index arithmetic, constants) may sit
        // between device accesses without splitting their kernel.
        if (!mlir::isMemoryEffectFree(&op) ||
            op.hasTrait<mlir::OpTrait::IsTerminator>())
          if (mlir::failed(flush()))
            return mlir::failure();
        break;
      }
    }
    return flush();
  }

private:
  /// Moves `group` into a one-thread kernel placed where its last op was.
  mlir::LogicalResult wrap(llvm::ArrayRef<mlir::Operation *> group) {
    llvm::SmallPtrSet<mlir::Operation *, 8> members(group.begin(), group.end());
    for (mlir::Operation *op : group)
      for (mlir::Operation *user : op->getUsers())
        if (!members.contains(op->getBlock()->findAncestorOpInBlock(*user)))
          return op->emitOpError(
                       "computes a value from device memory that host code "
                       "uses; the GPU target cannot run it")
                     .attachNote(user->getLoc())
                 << "used here";
    mlir::OpBuilder b(group.back());
    auto loop = serialLoop(b, group.back()->getLoc());
    mlir::Operation *end = loop.getBody()->getTerminator();
    for (mlir::Operation *op : group)
      op->moveBefore(end);
    return mlir::success();
  }

  /// Replaces a host read of device memory with a one-thread kernel that
  /// stores the element into a device scalar, copied to a host one.
  void readToHost(mlir::memref::LoadOp load) {
    mlir::OpBuilder b(load);
    mlir::Location loc = load.getLoc();
    auto scalar = mlir::MemRefType::get({}, load.getType());
    mlir::Value device = mlir::gpu::AllocOp::create(
                             b, loc, scalar, mlir::Type(), mlir::ValueRange(),
                             mlir::ValueRange(), mlir::ValueRange(), false)
                             .getMemref();
    auto loop = serialLoop(b, loc);
    load->moveBefore(loop.getBody()->getTerminator());
    b.setInsertionPoint(loop.getBody()->getTerminator());
    mlir::memref::StoreOp::create(b, loc, load.getResult(), device,
                                  mlir::ValueRange());
    b.setInsertionPointAfter(loop);
    mlir::Value host = mlir::memref::AllocaOp::create(b, loc, scalar);
    mlir::gpu::MemcpyOp::create(b, loc, mlir::Type(), mlir::ValueRange(), host,
                                device);
    mlir::gpu::DeallocOp::create(b, loc, mlir::Type(), mlir::ValueRange(),
                                 device);
    mlir::Value value =
        mlir::memref::LoadOp::create(b, loc, host, mlir::ValueRange());
    load.getResult().replaceUsesWithIf(value, [&](mlir::OpOperand &use) {
      return !loop->isAncestor(use.getOwner());
    });
  }

  /// Tiles a parallel loop into blocks of threads (the outer loop's
  /// iterations become blocks, the inner one's threads).
  void tile(mlir::scf::ParallelOp loop) {
    if (loop->hasAttr(kSerialAttr) || loop->hasAttr("mapping"))
      return;
    // A row reduction becomes a loop over the lanes of a warp too, which
    // must be exactly a block's x dimension.
    mlir::scf::ParallelOp lanes = spreadRowReduction(loop);
    if (lanes)
      loop = lanes;
    unsigned rank = loop.getNumLoops();
    llvm::SmallVector<int64_t> sizes(rank, 1);
    if (rank == 1) {
      sizes[0] = options_.block1d;
    } else {
      sizes[rank - 1] = lanes ? kWarpSize : options_.blockX;
      sizes[rank - 2] = options_.blockY;
    }
    for (unsigned i = 0; i < rank; ++i) {
      auto lb = mlir::getConstantIntValue(loop.getLowerBound()[i]);
      auto ub = mlir::getConstantIntValue(loop.getUpperBound()[i]);
      auto step = mlir::getConstantIntValue(loop.getStep()[i]);
      if (lb && ub && step && *step > 0)
        sizes[i] = std::max<int64_t>(
            1, std::min<int64_t>(sizes[i], (*ub - *lb + *step - 1) / *step));
    }
    int64_t perThread = elementsPerThread(loop, sizes.back());
    sizes.back() *= perThread;
    auto [outer, inner] =
        mlir::scf::tileParallelLoop(loop, sizes, /*noMinMaxBounds=*/false);
    foldTileBounds(outer);
    if (perThread > 1)
      spreadOverThreads(inner, sizes.back() / perThread, perThread);
  }

  /// How many elements of the innermost dimension each thread of `loop`
  /// computes, with `threads` threads along it: `perThread` where the loop
  /// is large (a thread per element would make more threads than fill the
  /// GPU several times over, each with one load in flight per input), its
  /// body straight-line code, and its innermost trip count a multiple of
  /// the threads' span; else 1.
  int64_t elementsPerThread(mlir::scf::ParallelOp loop, int64_t threads) {
    int64_t perThread = options_.perThread;
    if (perThread <= 1)
      return 1;
    int64_t total = 1, trips = 0, step = 0; // trips, step: innermost dim's
    for (auto [lb, ub, st] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep())) {
      auto l = mlir::getConstantIntValue(lb);
      auto u = mlir::getConstantIntValue(ub);
      auto s = mlir::getConstantIntValue(st);
      if (!l || !u || !s || *s <= 0 || *u <= *l)
        return 1;
      trips = (*u - *l + *s - 1) / *s;
      step = *s;
      total *= trips;
    }
    if (step != 1 || trips % (threads * perThread) != 0 ||
        total < kManyElements)
      return 1;
    // Straight-line code whose only writes are element stores, after all
    // its loads (as linalg's loops are): spreadOverThreads moves the stores
    // after every element's loads, which keeps an iteration's own order.
    bool stored = false;
    for (mlir::Operation &op : loop.getBody()->without_terminator()) {
      if (op.getNumRegions() != 0 ||
          !(mlir::isMemoryEffectFree(&op) ||
            llvm::isa<mlir::memref::LoadOp, mlir::memref::StoreOp>(op)) ||
          (stored && llvm::isa<mlir::memref::LoadOp>(op)))
        return 1;
      stored |= llvm::isa<mlir::memref::StoreOp>(op);
    }
    return perThread;
  }

  /// Rewrites the tiled `inner` loop, whose innermost dimension runs over
  /// `threads * perThread` elements, into one over `threads` threads, each
  /// of which computes the elements `threads` apart (so that at every step
  /// the threads of a warp touch neighbouring elements): first every
  /// element's loads and arithmetic, then its stores. The iterations of a
  /// parallel loop are independent, so the loads may pass the other
  /// elements' stores, and they are all in flight at once (kernel arguments
  /// carry no noalias: neither LLVM nor ptxas would move them so).
  static void spreadOverThreads(mlir::scf::ParallelOp inner, int64_t threads,
                                int64_t perThread) {
    auto span = mlir::getConstantIntValue(inner.getUpperBound().back());
    if (!span || *span != threads * perThread)
      return; // the tiling made a bound it did not fold: leave it
    mlir::OpBuilder b(inner);
    mlir::Location loc = inner.getLoc();
    llvm::SmallVector<mlir::Value> upper(inner.getUpperBound());
    upper.back() = mlir::arith::ConstantIndexOp::create(b, loc, threads);
    auto spread = mlir::scf::ParallelOp::create(b, loc, inner.getLowerBound(),
                                                upper, inner.getStep());
    b.setInsertionPointToStart(spread.getBody());
    llvm::SmallVector<mlir::Value> from = inner.getInductionVars();
    llvm::SmallVector<mlir::Value> to = spread.getInductionVars();
    llvm::SmallVector<mlir::IRMapping> maps(perThread);
    for (int64_t k = 0; k < perThread; ++k) {
      for (size_t i = 0; i + 1 < from.size(); ++i)
        maps[k].map(from[i], to[i]);
      mlir::Value element = to.back();
      if (k > 0)
        element = mlir::arith::AddIOp::create(
            b, loc, element,
            mlir::arith::ConstantIndexOp::create(b, loc, k * threads));
      maps[k].map(from.back(), element);
    }
    for (bool stores : {false, true})
      for (mlir::IRMapping &map : maps)
        for (mlir::Operation &op : inner.getBody()->without_terminator())
          if (llvm::isa<mlir::memref::StoreOp>(op) == stores)
            b.clone(op, map);
    inner.erase();
  }

  /// Folds the tile sizes into the steps and the inner loop's bounds (the
  /// tiling multiplies them by the old steps and takes a min): the GPU
  /// lowering gives a loop a static block size only when the bound of its
  /// thread dimension is a constant or a min with a constant, and leaves
  /// the loop on the host otherwise.
  static void foldTileBounds(mlir::scf::ParallelOp outer) {
    llvm::SmallVector<mlir::Operation *> ops;
    for (mlir::Value step : outer.getStep())
      if (mlir::Operation *def = step.getDefiningOp())
        if (llvm::isa<mlir::arith::MulIOp>(def))
          ops.push_back(def);
    for (mlir::Operation &op : outer.getBody()->without_terminator())
      if (llvm::isa<mlir::affine::AffineMinOp>(op))
        ops.push_back(&op);
    mlir::MLIRContext *ctx = outer.getContext();
    mlir::RewritePatternSet patterns(ctx);
    mlir::arith::MulIOp::getCanonicalizationPatterns(patterns, ctx);
    mlir::affine::AffineMinOp::getCanonicalizationPatterns(patterns, ctx);
    mlir::GreedyRewriteConfig config;
    config.setStrictness(mlir::GreedyRewriteStrictness::ExistingAndNewOps);
    (void)mlir::applyOpPatternsGreedily(ops, std::move(patterns), config);
  }

  const GpuMapLoopsOptions &options_;
};

struct GpuMapLoopsPass : impl::GpuMapLoopsBase<GpuMapLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    mlir::func::FuncOp fn = getOperation();
    if (fn.isExternal() || !fn->hasAttr(kDeviceMemoryAttr))
      return;
    // A reduction of the input's own scf.parallel would need a combine
    // across threads, which the mapping does not make: refused here, at the
    // loop, instead of producing a kernel that returns the wrong type.
    bool reduces = false;
    fn.walk([&](mlir::scf::ParallelOp loop) {
      if (loop.getNumResults() == 0)
        return mlir::WalkResult::advance();
      loop.emitError("cannot run on the GPU yet: an scf.parallel loop with "
                     "a reduction (scf.reduce); the CPU target compiles it");
      reduces = true;
      return mlir::WalkResult::interrupt();
    });
    if (reduces)
      return signalPassFailure();
    GpuMapLoopsOptions options{blockX, blockY, block1d, perThread};
    Mapper mapper(options);
    for (mlir::Block &block : fn.getBody())
      if (mlir::failed(mapper.mapBlock(block)))
        return signalPassFailure();
    fn.walk([](mlir::scf::ParallelOp loop) { loop->removeAttr(kSerialAttr); });
  }
};

struct GpuCheckMappedPass : impl::GpuCheckMappedBase<GpuCheckMappedPass> {
  void runOnOperation() override {
    mlir::func::FuncOp fn = getOperation();
    if (fn.isExternal() || !fn->hasAttr(kDeviceMemoryAttr))
      return;
    fn.walk([&](mlir::scf::ParallelOp loop) {
      if (loop->getParentOfType<mlir::gpu::LaunchOp>())
        return mlir::WalkResult::skip();
      loop.emitError("cannot run on the GPU: this parallel loop (from the "
                     "op at this location) was not mapped to blocks and "
                     "threads");
      signalPassFailure();
      return mlir::WalkResult::interrupt();
    });
  }
};

} // namespace
} // namespace aot
