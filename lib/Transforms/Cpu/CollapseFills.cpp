//===- CollapseFills.cpp - fills of contiguous tensors as one dim ---------===//
//
// A fill tiled along its shape writes each innermost row as full vectors and
// a masked one where the vector does not divide the row. Filled with zeros,
// LLVM turns each row's full vectors into a memset; where it then unrolls
// the loops over a small static shape, a block of hundreds of memsets and
// masked stores took its instruction selection minutes (a 4x54x33 f32 zero
// fill, the init of a convolution of 33 output channels;
// tests/cli/collapse-fills.test). Filled as one dim, the row ends go and
// the whole fill is one loop of full vectors, one memset when zero, and one
// masked store.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/CollapseFills.h"
#include "Transforms/Attributes.h"
#include "Transforms/Common/Reassociation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot {

namespace {

/// Whether `value` is a tensor that bufferizes to a contiguous buffer of its
/// own shape: a new one, or an argument of `fn` (function arguments take
/// the identity layout).
bool liesContiguous(mlir::Value value, mlir::func::FuncOp fn) {
  if (value.getDefiningOp<mlir::tensor::EmptyOp>())
    return true;
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(value);
  return arg && arg.getOwner() == &fn.getBody().front();
}

} // namespace

void collapseFills(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::linalg::FillOp> fills;
  fn.walk([&](mlir::linalg::FillOp fill) {
    auto type =
        llvm::dyn_cast<mlir::RankedTensorType>(fill.getOutputs()[0].getType());
    // Static shapes only: LLVM unrolls whole only loops of static trip
    // counts. (Tried with dynamic sizes too: expand-strided-metadata then
    // crashed on the expanded buffer; not run down.)
    if (type && type.getRank() >= 2 && type.hasStaticShape() &&
        fill->getNumResults() == 1 && liesContiguous(fill.getOutputs()[0], fn))
      fills.push_back(fill);
  });
  for (mlir::linalg::FillOp fill : fills) {
    mlir::Location loc = fill.getLoc();
    mlir::Value init = fill.getOutputs()[0];
    auto type = llvm::cast<mlir::RankedTensorType>(init.getType());
    rewriter.setInsertionPoint(fill);
    llvm::SmallVector<mlir::ReassociationIndices> all{allDims(type.getRank())};
    mlir::Value flat =
        mlir::tensor::CollapseShapeOp::create(rewriter, loc, init, all);
    mlir::Value filled =
        mlir::linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], flat)
            .getResult(0);
    rewriter.replaceOpWithNewOp<mlir::tensor::ExpandShapeOp>(fill, type, filled,
                                                             all);
  }
}

} // namespace aot
