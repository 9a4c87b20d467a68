//===- BatchDims.cpp - a contraction's batch dims as one -----------------===//
//
// A matmul of 4-D tensors (batch x heads x rows x columns, as attention
// exported with its heads as a dim of their own comes in) is a contraction
// with two batch dims, which the register tiles of a batch matmul do not
// take: it was tiled as rows of dot products instead, 6 GFLOP/s where the
// batch matmul runs at 30 (12 heads of 128 x 64 by 64 x 128, one thread,
// AVX2; `aot-run --benchmark`). The batch dims lie side by side in every
// operand, so one dim of their product indexes the same values.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/BatchDims.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace aot {

namespace {

bool collapseBatchDimsOf(mlir::RewriterBase &rewriter, mlir::Operation *op) {
  auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      !mlir::linalg::isaContractionOpInterface(generic))
    return false;
  mlir::FailureOr<mlir::linalg::ContractionDimensions> dims =
      mlir::linalg::inferContractionDims(generic);
  if (mlir::failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() < 2)
    return false;
  // Consecutive loops (inferContractionDims lists them in order)...
  mlir::ReassociationIndices batch(dims->batch.begin(), dims->batch.end());
  for (size_t i = 1; i < batch.size(); ++i)
    if (batch[i] != batch[i - 1] + 1)
      return false;
  // ...side by side, in order, in every operand.
  if (!mlir::linalg::areDimSequencesPreserved(generic.getIndexingMapsArray(),
                                              {batch}))
    return false;
  rewriter.setInsertionPoint(generic);
  mlir::FailureOr<mlir::linalg::CollapseResult> collapsed =
      mlir::linalg::collapseOpIterationDims(generic, {batch}, rewriter);
  if (mlir::failed(collapsed))
    return false;
  rewriter.replaceOp(generic, collapsed->results);
  return true;
}

} // namespace

void collapseBatchDims(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::linalg::GenericOp> generics;
  fn.walk([&](mlir::linalg::GenericOp op) { generics.push_back(op); });
  for (mlir::linalg::GenericOp op : generics)
    (void)collapseBatchDimsOf(rewriter, op);
}

} // namespace aot
