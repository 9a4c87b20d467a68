//===- VectorLowering.cpp - vector ops as LLVM can take them -------------===//
#include "Transforms/Cpu/TileAndVectorize/VectorLowering.h"
#include "Transforms/Cpu/PairDotForms.h"
#include "Transforms/Cpu/TileAndVectorize/ErfApproximation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace aot::tile_and_vectorize {

/// On a contraction that becomes pair dots at the end of the pass.
constexpr llvm::StringLiteral kPairDotBlock = "aot.pair_dot_block";

/// Whether splitIntoPairDots applies to `op`.
static bool isPairDotBlock(mlir::vector::ContractionOp op) {
  mlir::MLIRContext *ctx = op.getContext();
  if (op.getKind() != mlir::vector::CombiningKind::ADD ||
      llvm::isa<mlir::vector::MaskOp>(op->getParentOp()))
    return false;
  mlir::AffineExpr m, n, k;
  mlir::bindDims(ctx, m, n, k);
  auto map = [&](mlir::AffineExpr row, mlir::AffineExpr col) {
    return mlir::AffineMap::get(3, 0, {row, col}, ctx);
  };
  llvm::SmallVector<mlir::AffineMap> matmul = {map(m, k), map(k, n), map(m, n)};
  if (op.getIndexingMapsArray() != matmul)
    return false;
  auto accType = llvm::dyn_cast<mlir::VectorType>(op.getAccType());
  mlir::Value lhs = signExtendedSmall(op.getLhs());
  mlir::Value rhs = signExtendedSmall(op.getRhs());
  return accType && lhs && rhs && accType.getRank() == 2 &&
         accType.getElementType().isInteger(32) &&
         op.getLhsType().getShape()[1] == 2 &&
         accType.getShape()[1] % kPairDotLanes == 0 && !accType.isScalable();
}

/// A register block of an integer matmul whose K is tiled by 2: a
/// vector.contract of an M x 2 and a 2 x N matrix of i8 or i16 values
/// (sign-extended to i32) into an M x N i32 accumulator, in 16-lane chunks
/// of N. Each chunk of each row becomes a contraction of 16 pairs of i16
/// (A's pair of the row, broadcast; B's two rows, interleaved) into 16 i32
/// lanes, tagged kPairDotAttr: exactly what x86's vpmaddwd computes, which
/// aot-x86-pair-dot makes of it after bufferization (vpdpwssd, with the
/// accumulation, on a CPU with AVX-512 VNNI). Untagged, it is still a valid
/// contraction that any lowering computes.
static void splitIntoPairDots(mlir::vector::ContractionOp op,
                              mlir::RewriterBase &rewriter) {
  constexpr int64_t kLanes = kPairDotLanes;
  auto accType = llvm::cast<mlir::VectorType>(op.getAccType());
  mlir::Value lhs = signExtendedSmall(op.getLhs());
  mlir::Value rhs = signExtendedSmall(op.getRhs());
  int64_t rows = accType.getShape()[0], cols = accType.getShape()[1];
  mlir::Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  mlir::Type i16 = rewriter.getI16Type();
  auto toI16 = [&](mlir::Value v) -> mlir::Value {
    auto type = llvm::cast<mlir::VectorType>(v.getType());
    if (type.getElementType().isInteger(16))
      return v;
    return mlir::arith::ExtSIOp::create(rewriter, loc, type.clone(i16), v);
  };
  mlir::Value a = toI16(lhs);
  // B's pairs, chunk by chunk: 16 x 2, row j holding B[0][j], B[1][j]:
  // its two rows interleaved (still narrow: one shuffle of bytes), then
  // widened.
  auto pairType = mlir::VectorType::get({kLanes, 2}, i16);
  llvm::SmallVector<mlir::Value> bPairs;
  for (int64_t c = 0; c < cols; c += kLanes) {
    auto row = [&](int64_t r) -> mlir::Value {
      return mlir::vector::ExtractStridedSliceOp::create(
          rewriter, loc, mlir::vector::ExtractOp::create(rewriter, loc, rhs, r),
          {c}, {kLanes}, {1});
    };
    mlir::Value interleaved = toI16(
        mlir::vector::InterleaveOp::create(rewriter, loc, row(0), row(1)));
    bPairs.push_back(mlir::vector::ShapeCastOp::create(rewriter, loc, pairType,
                                                       interleaved));
  }
  mlir::Value result = op.getAcc();
  for (int64_t i = 0; i < rows; ++i) {
    mlir::Value aPairs = mlir::vector::BroadcastOp::create(
        rewriter, loc, pairType,
        mlir::vector::ExtractOp::create(rewriter, loc, a, i));
    mlir::Value row = mlir::vector::ExtractOp::create(rewriter, loc, result, i);
    for (int64_t c = 0; c < cols; c += kLanes) {
      mlir::Value acc = mlir::vector::ExtractStridedSliceOp::create(
          rewriter, loc, row, {c}, {kLanes}, {1});
      mlir::Value dot =
          createPairDot(rewriter, loc, aPairs, bPairs[c / kLanes], acc);
      row = mlir::vector::InsertStridedSliceOp::create(rewriter, loc, dot, row,
                                                       {c}, {1});
    }
    result = mlir::vector::InsertOp::create(rewriter, loc, row, result, i);
  }
  rewriter.replaceOp(op, result);
}

mlir::FrozenRewritePatternSet vectorLoweringPatterns(mlir::MLIRContext *ctx) {
  // Contractions become outer products (FMAs on rows), transfers with
  // permutation maps become plain ones the LLVM lowering understands.
  mlir::RewritePatternSet lowering(ctx);
  mlir::vector::populateVectorContractLoweringPatterns(
      lowering, mlir::vector::VectorContractLowering::OuterProduct);
  // The unit batch dim of a batch matmul's tile goes first, so that its
  // contraction is a matrix one that lowers to outer products.
  mlir::vector::populateCastAwayVectorLeadingOneDimPatterns(lowering);
  mlir::vector::populateVectorTransferPermutationMapLoweringPatterns(lowering);
  // Masked transfers (of dynamic tiles) carry their mask themselves.
  mlir::vector::populateVectorMaskLoweringPatternsForSideEffectingOps(lowering);
  // The ends of vectorized reductions: 1-D horizontal reductions, which
  // the LLVM lowering takes.
  mlir::vector::populateVectorMultiReductionLoweringPatterns(
      lowering, mlir::vector::VectorMultiReductionLowering::InnerReduction);
  return mlir::FrozenRewritePatternSet(std::move(lowering));
}

mlir::FrozenRewritePatternSet approximationPatterns(mlir::MLIRContext *ctx) {
  mlir::RewritePatternSet math(ctx);
  populateErfApproximationPattern(math);
  mlir::populateMathPolynomialApproximationPatterns(math);
  return mlir::FrozenRewritePatternSet(std::move(math));
}

/// Marks the register blocks of integer matmuls that become pair dots
/// (kPairDotBlock). Whether there is one.
bool markPairDotBlocks(mlir::func::FuncOp fn) {
  bool marked = false;
  fn.walk([&](mlir::vector::ContractionOp c) {
    if (isPairDotBlock(c)) {
      c->setAttr(kPairDotBlock, mlir::UnitAttr::get(c.getContext()));
      marked = true;
    }
  });
  return marked;
}

mlir::LogicalResult lowerVectors(mlir::func::FuncOp fn,
                                 const mlir::FrozenRewritePatternSet &patterns,
                                 bool pairDotBlocks) {
  // Integer register blocks stay contractions here, to become pair dots
  // once their accumulators are hoisted; the vector lowering leaves them
  // alone, and aot-x86-pair-dot lowers the pair dots after bufferization.
  llvm::SmallVector<mlir::Operation *> toLower;
  if (pairDotBlocks)
    fn.walk([&](mlir::Operation *o) {
      if (!o->hasAttr(kPairDotBlock) && o != fn.getOperation())
        toLower.push_back(o);
    });
  if (!toLower.empty()) {
    mlir::GreedyRewriteConfig config;
    config.setStrictness(mlir::GreedyRewriteStrictness::ExistingAndNewOps);
    return mlir::applyOpPatternsGreedily(toLower, patterns, config);
  }
  return mlir::applyPatternsGreedily(fn, patterns);
}

void approximateVectorMath(mlir::func::FuncOp fn,
                           const mlir::FrozenRewritePatternSet &patterns) {
  // Math functions on vectors as vector arithmetic (MLIR's polynomial
  // approximations of exp, log, tanh, erf, ...) instead of a libm call per
  // lane; scalar math keeps its libm call.
  llvm::SmallVector<mlir::Operation *> vectorMath;
  fn.walk([&](mlir::Operation *op) {
    if (llvm::isa_and_nonnull<mlir::math::MathDialect>(op->getDialect()) &&
        op->getNumResults() == 1 &&
        llvm::isa<mlir::VectorType>(op->getResult(0).getType()))
      vectorMath.push_back(op);
  });
  if (!vectorMath.empty()) {
    mlir::GreedyRewriteConfig config;
    config.setStrictness(mlir::GreedyRewriteStrictness::ExistingAndNewOps);
    (void)mlir::applyOpPatternsGreedily(vectorMath, patterns, config);
  }
}

/// Every loop of `fn`, innermost first.
static llvm::SmallVector<mlir::LoopLikeOpInterface>
loopsOf(mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::LoopLikeOpInterface> loops;
  fn.walk([&](mlir::LoopLikeOpInterface loop) { loops.push_back(loop); });
  return loops;
}

/// Float horizontal adds (the merge of a row reduction's or a dot
/// product's partial sums, lane by lane) add the lanes in any order: a
/// tree of adds instead of a chain of one per lane, each waiting on the
/// last (about a tenth of the time of a vector times a 2048 x 2048
/// matrix stored transposed, where each 8 results end in 8 of them).
/// Every vector op here is the tiling's (the input contract admits none),
/// and its lanes already sum the terms in another order than the
/// source's. Deterministic still: the same code adds in the same order on
/// any thread count.
void reassociateLaneMerges(mlir::func::FuncOp fn) {
  fn.walk([](mlir::vector::ReductionOp merge) {
    if (merge.getKind() == mlir::vector::CombiningKind::ADD &&
        llvm::isa<mlir::FloatType>(merge.getType()))
      merge.setFastmath(merge.getFastmath() |
                        mlir::arith::FastMathFlags::reassoc);
  });
}

static void hoistAccumulators(mlir::func::FuncOp fn,
                              mlir::RewriterBase &rewriter) {
  for (mlir::LoopLikeOpInterface loop : loopsOf(fn))
    (void)mlir::hoistLoopInvariantSubsets(rewriter, loop);
}

void keepAccumulatorsInRegisters(mlir::func::FuncOp fn,
                                 mlir::RewriterBase &rewriter) {
  // Keep accumulators in registers: hoist loop-invariant subsets (the
  // output tile's reads and writes) out of the reduction loops, innermost
  // loops first.
  hoistAccumulators(fn, rewriter);
  // What depends only on the outer loops (a row's mean, its reciprocal
  // square root of the variance, read broadcast into every column tile)
  // is computed once per row, not once per tile.
  // (Subset hoisting replaced loops: walk them again.)
  for (mlir::LoopLikeOpInterface loop : loopsOf(fn))
    (void)mlir::moveLoopInvariantCode(loop);
  // Some accumulators' reads and writes become invariant only once the
  // code above moved out what the loop does not change: the masks and
  // sizes of partial tiles, the indices of pair-dot blocks (whose K loops
  // step by two). Hoist again.
  hoistAccumulators(fn, rewriter);
}

void splitPairDotBlocks(mlir::func::FuncOp fn, mlir::RewriterBase &rewriter) {
  llvm::SmallVector<mlir::vector::ContractionOp> blocks;
  fn.walk([&](mlir::vector::ContractionOp c) {
    if (c->hasAttr(kPairDotBlock))
      blocks.push_back(c);
  });
  for (mlir::vector::ContractionOp c : blocks) {
    c->removeAttr(kPairDotBlock);
    splitIntoPairDots(c, rewriter);
  }
}

} // namespace aot::tile_and_vectorize
