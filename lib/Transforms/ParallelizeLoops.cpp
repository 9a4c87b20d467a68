//===- ParallelizeLoops.cpp - aot-parallelize-loops -----------------------===//
//
// The parallel loops are chosen at tiling, where the iterator types are
// known; here, after bufferization, a marked loop that still carries values
// (a tensor the bufferization could not write in place) stays sequential.
// OpenMP comes from upstream's convert-scf-to-openmp, so that the threads
// are those of a maintained runtime (libomp), not a pool of our own.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Passes.h"

#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Pass/PassManager.h"

namespace aot {
#define GEN_PASS_DEF_PARALLELIZELOOPS
#include "Transforms/Passes.h.inc"

namespace {

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

struct ParallelizeLoopsPass
    : impl::ParallelizeLoopsBase<ParallelizeLoopsPass> {
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
    for (mlir::scf::ForOp loop : marked) {
      loop->removeAttr(kParallelLoopAttr);
      if (!threads || *threads == 1 || loop.getNumResults() != 0)
        continue;
      toParallel(loop);
      any = true;
    }
    if (!any)
      return;
    mlir::OpPassManager pm(mlir::ModuleOp::getOperationName());
    mlir::ConvertSCFToOpenMPPassOptions options;
    options.numThreads = unsigned(*threads);
    pm.addPass(mlir::createConvertSCFToOpenMPPass(options));
    if (mlir::failed(runPipeline(pm, module)))
      signalPassFailure();
  }
};

} // namespace
} // namespace aot
