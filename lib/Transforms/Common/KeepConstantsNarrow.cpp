//===- KeepConstantsNarrow.cpp - aot-keep-constants-narrow ----------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_KEEPCONSTANTSNARROW
#include "Transforms/Common/Passes.h.inc"

namespace {

/// The most folding may add to a module's constants, in bytes.
constexpr int64_t kMaxFoldGrowth = 1 << 20;

/// The bytes of a static tensor; -1 for anything else.
int64_t bytesOf(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !tensor.getElementType().isIntOrFloat())
    return -1;
  int64_t bits = tensor.getElementType().getIntOrFloatBitWidth();
  return tensor.getNumElements() * ((bits + 7) / 8);
}

/// Whether folding `op` would grow a large constant operand by more than
/// kMaxFoldGrowth.
bool foldWouldGrow(mlir::Operation *op) {
  if (!mlir::OpTrait::hasElementwiseMappableTraits(op) ||
      op->getNumResults() != 1)
    return false;
  int64_t result = bytesOf(op->getResult(0).getType());
  if (result < 0)
    return false;
  for (mlir::Value operand : op->getOperands()) {
    auto constant = operand.getDefiningOp<mlir::arith::ConstantOp>();
    auto dense =
        constant ? llvm::dyn_cast<mlir::DenseElementsAttr>(constant.getValue())
                 : nullptr;
    int64_t input = bytesOf(operand.getType());
    if (dense && !dense.isSplat() && input >= 0 &&
        result - input > kMaxFoldGrowth)
      return true;
  }
  return false;
}

struct KeepConstantsNarrowPass
    : impl::KeepConstantsNarrowBase<KeepConstantsNarrowPass> {
  void runOnOperation() override {
    llvm::SmallVector<mlir::Operation *> ops;
    getOperation().walk([&](mlir::Operation *op) {
      if (foldWouldGrow(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    mlir::RewritePatternSet patterns(&getContext());
    mlir::linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    // Without folding: the point is that these ops are not folded.
    (void)mlir::applyOpPatternsGreedily(
        ops, std::move(patterns),
        mlir::GreedyRewriteConfig().enableFolding(false).setStrictness(
            mlir::GreedyRewriteStrictness::ExistingOps));
  }
};
} // namespace
} // namespace aot
