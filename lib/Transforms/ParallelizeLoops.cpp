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
// thread runs it alone, without waking the others.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Passes.h"
#include "Transforms/PrivateBuffers.h"

#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Pass/PassManager.h"

namespace aot {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "Transforms/Passes.h.inc"

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
    for (mlir::scf::ForOp loop : marked) {
      auto minTrips = loop->getAttrOfType<mlir::IntegerAttr>(kParallelLoopAttr);
      loop->removeAttr(kParallelLoopAttr);
      if (!threads || *threads == 1 || loop.getNumResults() != 0 ||
          !privatizeScratchBuffers(loop))
        continue;
      Bounds bounds{loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
      if (minTrips && minTrips.getInt() > 1 && !conditions.count(bounds))
        conditions[bounds] = makesTrips(loop, minTrips.getInt());
      toParallel(loop);
      any = true;
    }
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
    module.walk([&](mlir::omp::ParallelOp parallel) {
      mlir::omp::LoopNestOp nest;
      parallel.walk([&](mlir::omp::LoopNestOp n) {
        nest = n;
        return mlir::WalkResult::interrupt();
      });
      if (!nest || nest.getNumLoops() != 1)
        return;
      auto it = conditions.find(Bounds{nest.getLoopLowerBounds()[0],
                                       nest.getLoopUpperBounds()[0],
                                       nest.getLoopSteps()[0]});
      if (it != conditions.end())
        parallel.getIfExprMutable().assign(it->second);
    });
  }
};

} // namespace
} // namespace aot
