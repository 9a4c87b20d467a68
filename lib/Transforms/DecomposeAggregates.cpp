//===- DecomposeAggregates.cpp - aggregate linalg ops as their parts ------===//
//
// linalg.softmax (and any op of the AggregatedOpInterface) has no lowering
// of its own to loops or vectors: it is replaced by the ops it is made of
// (a max reduction, an exp, a sum, a division), which the later stages fuse,
// tile and vectorize like ops the front end wrote.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace aot {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATES
#include "Transforms/Passes.h.inc"

namespace {

struct DecomposeAggregatesPass
    : impl::DecomposeAggregatesBase<DecomposeAggregatesPass> {
  void runOnOperation() override {
    llvm::SmallVector<mlir::linalg::AggregatedOpInterface> aggregates;
    getOperation().walk([&](mlir::linalg::AggregatedOpInterface op) {
      aggregates.push_back(op);
    });
    mlir::IRRewriter rewriter(&getContext());
    for (mlir::linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      mlir::FailureOr<llvm::SmallVector<mlir::Value>> parts =
          op.decomposeOperation(rewriter);
      if (mlir::failed(parts)) {
        op->emitOpError("cannot be decomposed into the ops it is made of");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *parts);
    }
  }
};

} // namespace
} // namespace aot
