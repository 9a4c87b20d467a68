//===- FilterPanels.cpp - contiguous panels of a convolution's filter -----===//
//
// A register block of a convolution (HWCF filter) reads, for each window
// position and input channel, `width` consecutive output channels of the
// filter: one cache line of f32 at width 16, but the next lies F values on
// (2 KiB at F = 512). A block of output channels of a 3 x 3 x 512 x 512
// filter is then 4,608 lines on 2,304 pages, which every register block of
// pixels walks. Copied once per block of channels into a panel (kh, kw, c,
// width), it is one contiguous run: ResNet-50's 3 x 3 x 512 convolution
// over a 7 x 7 image, alone (`aot-run --benchmark`, one thread, AVX2), ran
// in 35 ms in blocks of channels reading the filter where it lies, in 9 ms
// reading panels.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/FilterPanels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace aot {

bool readFilterFromPanel(mlir::RewriterBase &rewriter,
                         mlir::linalg::LinalgOp block) {
  if (!llvm::isa<mlir::linalg::Conv2DNhwcHwcfOp>(block.getOperation()) ||
      block.getNumDpsInputs() != 2)
    return false;
  mlir::OpOperand *filterOperand = block.getDpsInputOperand(1);
  mlir::Value filter = filterOperand->get();
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(filter.getType());
  if (!type || !type.hasStaticShape() || type.getRank() != 4 ||
      !filter.getDefiningOp<mlir::tensor::ExtractSliceOp>())
    return false;
  mlir::Location loc = block.getLoc();
  rewriter.setInsertionPoint(block);
  // An allocation, not a tensor.empty, which loop-invariant code motion
  // would move out of the loop over blocks: each thread copies into a panel
  // of its own.
  mlir::Value panel = mlir::bufferization::AllocTensorOp::create(
      rewriter, loc, type, mlir::ValueRange{});
  mlir::Value zero = mlir::arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  mlir::Value c0 = mlir::arith::ConstantIndexOp::create(rewriter, loc, 0);
  mlir::Value c1 = mlir::arith::ConstantIndexOp::create(rewriter, loc, 1);
  llvm::SmallVector<mlir::Value> lbs(3, c0), steps(3, c1), ubs;
  for (int64_t d = 0; d < 3; ++d)
    ubs.push_back(mlir::arith::ConstantIndexOp::create(rewriter, loc,
                                                       type.getDimSize(d)));
  // One vector of `width` channels at a time: a cache line at width 16.
  auto row = mlir::VectorType::get({type.getDimSize(3)}, type.getElementType());
  mlir::scf::LoopNest nest = mlir::scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, mlir::ValueRange{panel},
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange ivs,
          mlir::ValueRange args) -> mlir::scf::ValueVector {
        llvm::SmallVector<mlir::Value> at(ivs.begin(), ivs.end());
        at.push_back(c0);
        mlir::Value values = mlir::vector::TransferReadOp::create(
            b, loc, row, filter, at, zero, llvm::ArrayRef<bool>{true});
        return {
            mlir::vector::TransferWriteOp::create(
                b, loc, values, args.front(), at, llvm::ArrayRef<bool>{true})
                .getResult()};
      });
  rewriter.modifyOpInPlace(block,
                           [&] { filterOperand->set(nest.results.front()); });
  return true;
}

} // namespace aot
