//===- ParallelizeLoops.cpp - aot-parallelize-loops -----------------------===//
//
// The parallel loops are chosen at tiling, where the iterator types are
// known; here, after bufferization, a marked loop that still carries values
// (a tensor the bufferization could not write in place) stays sequential,
// and the scratch buffers it writes become its iterations' own
// (PrivateBuffers), or, where they cannot, it stays sequential too.
// OpenMP comes from upstream's convert-scf-to-openmp, so that the threads
// are those of a maintained runtime (libomp), not a pool of our own. A loop
// whose trip count is only known when the code runs gets an `if` clause:
// below the trips that are worth threads (the mark's value), the calling
// thread runs it alone, without waking the others. A loop marked as its
// fallback runs on threads where it makes a single trip.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/Passes.h"
#include "Transforms/Cpu/PrivateBuffers.h"

#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Pass/PassManager.h"

namespace aot {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "Transforms/Cpu/Passes.h.inc"

namespace {

/// A loop's bounds, which convert-scf-to-openmp gives its omp.loop_nest.
using Bounds = std::tuple<mlir::Value, mlir::Value, mlir::Value>;

/// Whether `loop` makes at least `minTrips` trips, computed before it.
mlir::Value makesTrips(mlir::scf::ForOp loop, int64_t minTrips) {
  mlir::OpBuilder b(loop);
  mlir::Location loc = loop.getLoc();
  mlir::Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
              step = loop.getStep();
  // ceil((ub - lb) / step) with ub >= lb and step > 0, as tiling makes them.
  mlir::Value trips = mlir::arith::CeilDivUIOp::create(
      b, loc, mlir::arith::SubIOp::create(b, loc, ub, lb), step);
  return mlir::arith::CmpIOp::create(
      b, loc, mlir::arith::CmpIPredicate::uge, trips,
      mlir::arith::ConstantIndexOp::create(b, loc, minTrips));
}

/// `loop` as an scf.parallel with the same bounds and body.
void toParallel(mlir::scf::ForOp loop) {
  mlir::OpBuilder b(loop);
  auto parallel = mlir::scf::ParallelOp::create(
      b, loop.getLoc(), mlir::ValueRange{loop.getLowerBound()},
      mlir::ValueRange{loop.getUpperBound()}, mlir::ValueRange{loop.getStep()});
  mlir::Block *from = loop.getBody();
  mlir::Block *to = parallel.getBody();
  // The new body keeps its scf.reduce terminator; the loop's ops go before
  // it, less the scf.yield (it yields nothing: the loop carries no values).
  from->getTerminator()->erase();
  from->getArgument(0).replaceAllUsesWith(parallel.getInductionVars()[0]);
  to->getOperations().splice(to->begin(), from->getOperations());
  loop.erase();
}

struct ParallelizeLoopsPass : impl::ParallelizeLoopsBase<ParallelizeLoopsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    std::optional<uint64_t> threads;
    if (auto attr = module->getAttrOfType<mlir::IntegerAttr>(kThreadsAttr))
      threads = attr.getValue().getZExtValue();
    llvm::SmallVector<mlir::scf::ForOp> marked;
    module.walk([&](mlir::scf::ForOp loop) {
      if (loop->hasAttr(kParallelLoopAttr))
        marked.push_back(loop);
    });
    bool any = false;
    // The `if` conditions, by the bounds of their loops. Two loops with the
    // same bound values share the first one's condition: either is right,
    // and only where the work starts on threads differs.
    llvm::DenseMap<Bounds, mlir::Value> conditions;
    // The fallback loops of the loops on threads, each with whether its
    // loop makes trips enough for threads.
    llvm::SmallVector<std::pair<mlir::scf::ForOp, mlir::Value>> fallbacks;
    const bool onThreads = threads && *threads != 1;
    for (mlir::scf::ForOp loop : marked) {
      auto minTrips = loop->getAttrOfType<mlir::IntegerAttr>(kParallelLoopAttr);
      loop->removeAttr(kParallelLoopAttr);
      llvm::SmallVector<mlir::scf::ForOp> inside;
      loop->walk([&](mlir::scf::ForOp inner) {
        if (inner->removeAttr(kParallelFallbackAttr) && onThreads)
          inside.push_back(inner);
      });
      if (!onThreads || loop.getNumResults() != 0 ||
          !privatizeScratchBuffers(loop))
        continue;
      Bounds bounds{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
      int64_t least = minTrips ? minTrips.getInt() : 0;
      if (!inside.empty())
        least = std::max<int64_t>(least, 2);
      if (least > 1) {
        // A fallback's condition needs this one before the loop.
        mlir::Value enough = inside.empty() && conditions.count(bounds)
                                 ? conditions[bounds]
                                 : makesTrips(loop, least);
        conditions.try_emplace(bounds, enough);
        for (mlir::scf::ForOp fallback : inside)
          fallbacks.push_back({fallback, enough});
      }
      toParallel(loop);
      any = true;
    }
    for (auto [loop, outerOnThreads] : fallbacks) {
      Bounds bounds{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
      if (conditions.count(bounds) || loop.getNumResults() != 0 ||
          !privatizeScratchBuffers(loop))
        continue;
      mlir::OpBuilder b(loop);
      mlir::Location loc = loop.getLoc();
      mlir::Value single = mlir::arith::XOrIOp::create(
          b, loc, outerOnThreads,
          mlir::arith::ConstantIntOp::create(b, loc, 1, 1));
      conditions[bounds] =
          mlir::arith::AndIOp::create(b, loc, single, makesTrips(loop, 2));
      toParallel(loop);
    }
    // Fallbacks of loops that were not marked, and the marks read by
    // privatizeScratchBuffers.
    module.walk([&](mlir::scf::ForOp loop) {
      loop->removeAttr(kParallelFallbackAttr);
      loop->removeAttr(kDisjointWritesAttr);
    });
    if (!any)
      return;
    mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
    mlir::ConvertSCFToOpenMPPassOptions options;
    options.numThreads = unsigned(*threads);
    pm.addPass(mlir::createConvertSCFToOpenMPPass(options));
    if (mlir::failed(runPipeline(pm, module))) {
      signalPassFailure();
      return;
    }
    mlir::DominanceInfo dominance(module);
    module.walk([&](mlir::omp::ParallelOp parallel) {
      // The parallel op's own loop nest, the first in pre-order (that of a
      // fallback inside it comes later).
      mlir::omp::LoopNestOp nest;
      parallel.walk<mlir::WalkOrder::PreOrder>([&](mlir::omp::LoopNestOp n) {
        nest = n;
        return mlir::WalkResult::interrupt();
      });
      if (!nest || nest.getNumLoops() != 1)
        return;
      auto it = conditions.find(Bounds{nest.getLoopLowerBounds()[0],
                                       nest.getLoopUpperBounds()[0],
                                       nest.getLoopSteps()[0]});
      // A condition that another loop of the same bounds computed where
      // this one cannot see it is left out: threads are then always used.
      if (it != conditions.end() &&
          dominance.properlyDominates(it->second, parallel))
        parallel.getIfExprMutable().assign(it->second);
    });
  }
};

} // namespace
} // namespace aot
