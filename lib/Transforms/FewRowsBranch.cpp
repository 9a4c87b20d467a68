//===- FewRowsBranch.cpp - dynamic M: a branch for few rows of A ----------===//
//
// A matmul whose rows of A are a dynamic dim (a linear layer with a dynamic
// batch) is compiled once for every M, and the large-M code packs B into
// panels: at M = 1 that copies all of B to use each value once, twenty times
// the time of the code for one static row (1 x 2048 by (2048 x 2048)^T: 6.2
// ms against 0.3). The op is compiled twice instead, under a branch on M at
// run time: the few-rows code (dot products, the loops of few rows by a
// K x N matrix, or integer register tiles of one row) where M < kFewRows,
// the large-M code otherwise.
//
//===----------------------------------------------------------------------===//
#include "Transforms/ContractionForms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace aot {

namespace {

/// Whether few rows of `op` have code of their own (TileAndVectorize): B
/// stored transposed with K innermost (dot products), or B stored K x N
/// (the loops of few rows for floats; for integers, register tiles of one
/// row, where the tiles of 8 rows, masked, took 15 times as long for one:
/// i8 1 x 2048 by 2048 x 2048, 4.7 against 0.32 ms).
bool fewRowsRoute(mlir::linalg::LinalgOp op, const MatmulRhs &rhs) {
  return !rhs.transposed() || rhs.k == op.getNumLoops() - 1;
}

} // namespace

bool inFewRowsBranch(mlir::Operation *op) {
  for (mlir::Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    auto branch = llvm::dyn_cast<mlir::scf::IfOp>(p);
    if (branch && branch->hasAttr(kFewRowsBranchAttr))
      return branch.getThenRegion().isAncestor(op->getParentRegion());
  }
  return false;
}

void branchOnFewRows(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::linalg::LinalgOp> ops;
  fn.walk([&](mlir::linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op->getNumResults() != 1 ||
        !mlir::linalg::isaContractionOpInterface(op))
      return;
    const MatmulRhs rhs = matmulRhs(op);
    if (rhs.operand &&
        mlir::ShapedType::isDynamic(op.getStaticLoopRanges()[rhs.m]) &&
        fewRowsRoute(op, rhs) && !inFewRowsBranch(op))
      ops.push_back(op);
  });
  for (mlir::linalg::LinalgOp op : ops) {
    const MatmulRhs rhs = matmulRhs(op);
    mlir::Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    llvm::SmallVector<mlir::Range> ranges = op.createLoopRanges(rewriter, loc);
    mlir::Value rows = mlir::getValueOrCreateConstantIndexOp(
        rewriter, loc, ranges[rhs.m].size);
    mlir::Value few = mlir::arith::CmpIOp::create(
        rewriter, loc, mlir::arith::CmpIPredicate::ult, rows,
        mlir::arith::ConstantIndexOp::create(rewriter, loc, kFewRows));
    auto copy = [&](mlir::OpBuilder &b, mlir::Location loc) {
      mlir::Operation *clone = b.clone(*op.getOperation());
      mlir::scf::YieldOp::create(b, loc, clone->getResults());
    };
    auto branch = mlir::scf::IfOp::create(rewriter, loc, few, copy, copy);
    branch->setAttr(kFewRowsBranchAttr, rewriter.getUnitAttr());
    rewriter.replaceOp(op, branch->getResults());
  }
}

} // namespace aot
