//===- DecomposeAggregates.cpp - aggregate linalg ops as their parts ------===//
//
// linalg.softmax (and any op of the AggregatedOpInterface) has no lowering
// of its own to loops or vectors: it is replaced by the ops it is made of
// (a max reduction, an exp, a sum, a division), which the later stages fuse,
// tile and vectorize like ops the front end wrote. Likewise tensor ops that
// have no lowering, or one that reads data when the code runs: bitcasts,
// pack and unpack, reshapes between static shapes.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Passes.h"
#include "Transforms/Common/Reassociation.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATES
#include "Transforms/Common/Passes.h.inc"

namespace {

/// `op` as a linalg.generic whose body bitcasts each element.
mlir::Value bitcastAsGeneric(mlir::RewriterBase &rewriter,
                             mlir::tensor::BitcastOp op) {
  rewriter.setInsertionPoint(op);
  mlir::Location loc = op.getLoc();
  auto type = llvm::cast<mlir::RankedTensorType>(op.getType());
  llvm::SmallVector<mlir::OpFoldResult> sizes =
      mlir::tensor::getMixedSizes(rewriter, loc, op.getSource());
  mlir::Value init = mlir::tensor::EmptyOp::create(rewriter, loc, sizes,
                                                   type.getElementType());
  auto identity = rewriter.getMultiDimIdentityMap(type.getRank());
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      type.getRank(), mlir::utils::IteratorType::parallel);
  auto generic = mlir::linalg::GenericOp::create(
      rewriter, loc, mlir::TypeRange{type}, mlir::ValueRange{op.getSource()},
      mlir::ValueRange{init},
      llvm::ArrayRef<mlir::AffineMap>{identity, identity}, iterators,
      [&](mlir::OpBuilder &b, mlir::Location l, mlir::ValueRange args) {
        mlir::Value cast = mlir::arith::BitcastOp::create(
            b, l, type.getElementType(), args[0]);
        mlir::linalg::YieldOp::create(b, l, cast);
      });
  return generic.getResult(0);
}

/// Whether `op` reshapes between static shapes of rank 1 or more.
bool isStaticReshape(mlir::tensor::ReshapeOp op) {
  auto from = llvm::cast<mlir::RankedTensorType>(op.getSource().getType());
  auto to = llvm::cast<mlir::RankedTensorType>(op.getResult().getType());
  return from.hasStaticShape() && to.hasStaticShape() && from.getRank() > 0 &&
         to.getRank() > 0;
}

/// A static `op` as a collapse_shape to one dim and an expand_shape from
/// it: views, with no shape operand to read when the code runs (on a GPU
/// target that operand would be in device memory, out of the host's reach).
mlir::Value reshapeAsViews(mlir::RewriterBase &rewriter,
                           mlir::tensor::ReshapeOp op) {
  rewriter.setInsertionPoint(op);
  mlir::Location loc = op.getLoc();
  auto from = llvm::cast<mlir::RankedTensorType>(op.getSource().getType());
  auto to = llvm::cast<mlir::RankedTensorType>(op.getResult().getType());
  mlir::Value flat = op.getSource();
  if (from.getRank() != 1)
    flat = mlir::tensor::CollapseShapeOp::create(
        rewriter, loc,
        mlir::RankedTensorType::get({from.getNumElements()},
                                    from.getElementType()),
        flat,
        llvm::ArrayRef<mlir::ReassociationIndices>{allDims(from.getRank())});
  if (to.getRank() == 1)
    return flat;
  return mlir::tensor::ExpandShapeOp::create(
      rewriter, loc, to, flat,
      llvm::ArrayRef<mlir::ReassociationIndices>{allDims(to.getRank())});
}

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

    // tensor.bitcast has no bufferization: an elementwise linalg.generic
    // of arith.bitcast, which bufferizes, tiles and vectorizes.
    llvm::SmallVector<mlir::tensor::BitcastOp> bitcasts;
    getOperation().walk(
        [&](mlir::tensor::BitcastOp op) { bitcasts.push_back(op); });
    for (mlir::tensor::BitcastOp op : bitcasts)
      rewriter.replaceOp(op, bitcastAsGeneric(rewriter, op));

    llvm::SmallVector<mlir::tensor::ReshapeOp> reshapes;
    getOperation().walk([&](mlir::tensor::ReshapeOp op) {
      if (isStaticReshape(op))
        reshapes.push_back(op);
    });
    for (mlir::tensor::ReshapeOp op : reshapes)
      rewriter.replaceOp(op, reshapeAsViews(rewriter, op));

    // linalg.pack and linalg.unpack as the data movement they are: a pad,
    // a reshape and a transpose (and back, with an extract_slice), which
    // bufferize and vectorize like any other tensor op.
    llvm::SmallVector<mlir::Operation *> layouts;
    getOperation().walk([&](mlir::Operation *op) {
      if (llvm::isa<mlir::linalg::PackOp, mlir::linalg::UnPackOp>(op))
        layouts.push_back(op);
    });
    for (mlir::Operation *op : layouts) {
      rewriter.setInsertionPoint(op);
      bool lowered =
          llvm::isa<mlir::linalg::PackOp>(op)
              ? mlir::succeeded(mlir::linalg::lowerPack(
                    rewriter, llvm::cast<mlir::linalg::PackOp>(op)))
              : mlir::succeeded(mlir::linalg::lowerUnPack(
                    rewriter, llvm::cast<mlir::linalg::UnPackOp>(op)));
      if (!lowered) {
        op->emitOpError("cannot be lowered to a pad, reshape and transpose");
        return signalPassFailure();
      }
    }
  }
};

} // namespace
} // namespace aot
