//===- PointwiseConvolutions.cpp - 1 x 1 convolutions as matmuls ----------===//
//
// A 1 x 1 convolution of unit strides multiplies each pixel's channels by
// the filter: the pixels of the batch, one after another in NHWC, are the
// rows of a matmul's A. Tiled as a convolution, a register block is at most
// one row of the image (7 pixels of ResNet-50's last stage: AVX2's blocks of
// 4 pixels end in a masked block of 3); as a matmul, its blocks run across
// rows, and it gets the matmul's cache blocks and packed panels.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/PointwiseConvolutions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot {

bool pointwiseAsMatmul(mlir::RewriterBase &rewriter, mlir::Operation *op) {
  auto conv = llvm::dyn_cast<mlir::linalg::Conv2DNhwcHwcfOp>(op);
  if (!conv || !conv.hasPureTensorSemantics() ||
      !llvm::all_of(conv.getStrides(),
                    [](const llvm::APInt &s) { return s.isOne(); }))
    return false;
  mlir::Value image = conv.getInputs()[0], filter = conv.getInputs()[1],
              init = conv.getOutputs()[0];
  auto imageType = llvm::cast<mlir::RankedTensorType>(image.getType());
  auto filterType = llvm::cast<mlir::RankedTensorType>(filter.getType());
  auto resultType = llvm::cast<mlir::RankedTensorType>(init.getType());
  auto staticPixel = [](mlir::RankedTensorType t) {
    return llvm::none_of(t.getShape().drop_front(),
                         mlir::ShapedType::isDynamic);
  };
  // A 1 x 1 window over an image no larger than the result: unit strides
  // then make them the same size, pixel for pixel.
  if (!filterType.hasStaticShape() || filterType.getDimSize(0) != 1 ||
      filterType.getDimSize(1) != 1 || !staticPixel(imageType) ||
      !staticPixel(resultType) ||
      imageType.getDimSize(1) != resultType.getDimSize(1) ||
      imageType.getDimSize(2) != resultType.getDimSize(2))
    return false;
  mlir::Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  // Pixels (n, h, w) as rows; the filter's 1 x 1 x C x F as C x F.
  llvm::SmallVector<mlir::ReassociationIndices> rows = {{0, 1, 2}, {3}};
  auto collapse = [&](mlir::Value v) {
    return mlir::tensor::CollapseShapeOp::create(rewriter, loc, v, rows)
        .getResult();
  };
  mlir::Value a = collapse(image), b = collapse(filter), c = collapse(init);
  auto matmul = mlir::linalg::MatmulOp::create(
      rewriter, loc, mlir::TypeRange{c.getType()}, mlir::ValueRange{a, b},
      mlir::ValueRange{c});
  mlir::Value result = mlir::tensor::ExpandShapeOp::create(
      rewriter, loc, resultType, matmul.getResult(0), rows,
      mlir::tensor::getMixedSizes(rewriter, loc, init));
  rewriter.replaceOp(conv, result);
  return true;
}

} // namespace aot
