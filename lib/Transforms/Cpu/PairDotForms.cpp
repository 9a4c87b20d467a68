//===- PairDotForms.cpp - integer dot products as pair dots ---------------===//
//
// A dot product of i8 or i16 values (few rows of A by B stored transposed,
// dotProductTiles) reduces along K into a vector of i32 partial sums, one
// chunk of K per step, and adds that vector's lanes into its result once
// the loop ends. Which lane sums which products is then free, so a chunk
// of 32 values of K goes into 16 lanes, two products per lane: one pair
// dot (vpdpwssd) where widening to i32 took a multiply and an add per 16
// products, which runs far faster (i8 4 x 2048 by (2048 x 2048)^T;
// aot-bench --only=matmul, docs/performance.md, "Matmul layouts and few
// rows"). Done after bufferization (aot-x86-pair-dot, on the loops that
// aot-tile-and-vectorize marked kPairDotProductsAttr), where such a loop
// carries that vector alone and its users read it directly.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/PairDotForms.h"
#include "Transforms/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace aot {

namespace {

/// Whether every use of `v` adds all its lanes together: vector.reduction
/// <add> of it, or of a 1-D vector.extract of it.
bool onlySummed(mlir::Value v) {
  auto isSum = [](mlir::Operation *user) {
    auto r = llvm::dyn_cast<mlir::vector::ReductionOp>(user);
    return r && r.getKind() == mlir::vector::CombiningKind::ADD;
  };
  for (mlir::Operation *user : v.getUsers()) {
    if (isSum(user))
      continue;
    auto extract = llvm::dyn_cast<mlir::vector::ExtractOp>(user);
    auto type =
        extract ? llvm::dyn_cast<mlir::VectorType>(extract.getType()) : nullptr;
    if (!type || type.getRank() != 1 ||
        !llvm::all_of(extract->getUsers(), isSum))
      return false;
  }
  return true;
}

/// The parts of a loop that pairDotProduct rewrites.
struct DotLoop {
  mlir::arith::AddIOp add;
  mlir::Value a, b; // the narrow values, shaped like the accumulator
};

/// `loop` as a dot product of narrow integers: one vector<...x32xi32>
/// accumulator, zero at first, that each step adds the products of two
/// sign-extended i8 or i16 vectors into and that is only summed after.
std::optional<DotLoop> matchDotLoop(mlir::scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1)
    return std::nullopt;
  mlir::BlockArgument acc = loop.getRegionIterArgs()[0];
  auto type = llvm::dyn_cast<mlir::VectorType>(acc.getType());
  if (!type || type.isScalable() || !type.getElementType().isInteger(32) ||
      type.getShape().back() != kPairDotChunk ||
      !mlir::matchPattern(loop.getInitArgs()[0], mlir::m_Zero()) ||
      !acc.hasOneUse() || !onlySummed(loop.getResult(0)))
    return std::nullopt;
  auto add = loop.getBody()
                 ->getTerminator()
                 ->getOperand(0)
                 .getDefiningOp<mlir::arith::AddIOp>();
  if (!add || !add->hasOneUse())
    return std::nullopt;
  mlir::Value other = add.getLhs() == acc   ? add.getRhs()
                      : add.getRhs() == acc ? add.getLhs()
                                            : nullptr;
  auto mul = other ? other.getDefiningOp<mlir::arith::MulIOp>() : nullptr;
  if (!mul || !mul->hasOneUse())
    return std::nullopt;
  DotLoop dot{add, signExtendedSmall(mul.getLhs()),
              signExtendedSmall(mul.getRhs())};
  if (!dot.a || !dot.b)
    return std::nullopt;
  return dot;
}

/// `v` (narrow integers, 32 of K) as 16 pairs of i16.
mlir::Value asPairs(mlir::RewriterBase &rewriter, mlir::Location loc,
                    mlir::Value v) {
  mlir::Type i16 = rewriter.getI16Type();
  auto type = llvm::cast<mlir::VectorType>(v.getType());
  if (!type.getElementType().isInteger(16))
    v = mlir::arith::ExtSIOp::create(rewriter, loc, type.clone(i16), v);
  return mlir::vector::ShapeCastOp::create(
      rewriter, loc, mlir::VectorType::get({kPairDotLanes, 2}, i16), v);
}

/// Rewrites `loop` (matchDotLoop) to accumulate 16 lanes by pair dots; its
/// result, summed whole by every user, becomes those lanes and 16 zeros.
void pairDotProduct(mlir::scf::ForOp loop, const DotLoop &dot,
                    mlir::RewriterBase &rewriter) {
  mlir::Location loc = loop.getLoc();
  auto wide = llvm::cast<mlir::VectorType>(loop.getResult(0).getType());
  llvm::SmallVector<int64_t> shape(wide.getShape());
  shape.back() = kPairDotLanes;
  auto narrow = mlir::VectorType::get(shape, wide.getElementType());
  rewriter.setInsertionPoint(loop);
  mlir::Value zeros = mlir::arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(narrow));
  // The old accumulator's one use, the add, goes; poison stands for it.
  mlir::Value gone = mlir::ub::PoisonOp::create(rewriter, loc, wide);
  auto pairs = mlir::scf::ForOp::create(rewriter, loc, loop.getLowerBound(),
                                        loop.getUpperBound(), loop.getStep(),
                                        mlir::ValueRange{zeros});
  pairs->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  if (!pairs.getBody()->empty())
    rewriter.eraseOp(pairs.getBody()->getTerminator());
  rewriter.mergeBlocks(loop.getBody(), pairs.getBody(),
                       {pairs.getInductionVar(), gone});
  mlir::Operation *yield = pairs.getBody()->getTerminator();
  rewriter.setInsertionPoint(yield);
  mlir::Value sums = pairs.getRegionIterArgs()[0];
  // Every result of the tile (the leading dims) is a dot product of its own.
  llvm::SmallVector<int64_t> position(shape.size() - 1, 0);
  int64_t results = 1;
  for (int64_t d : llvm::ArrayRef(shape).drop_back())
    results *= d;
  for (int64_t i = 0; i < results; ++i) {
    for (int64_t d = position.size() - 1, rest = i; d >= 0; --d) {
      position[d] = rest % shape[d];
      rest /= shape[d];
    }
    // Folded: A's row of the tile, not a broadcast and transpose of it.
    auto at = [&](mlir::Value v) -> mlir::Value {
      return position.empty() ? v
                              : rewriter.createOrFold<mlir::vector::ExtractOp>(
                                    loc, v, position);
    };
    mlir::Value dotted =
        createPairDot(rewriter, loc, asPairs(rewriter, loc, at(dot.a)),
                      asPairs(rewriter, loc, at(dot.b)), at(sums));
    sums = position.empty() ? dotted
                            : mlir::vector::InsertOp::create(
                                  rewriter, loc, dotted, sums, position);
  }
  rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(0, sums); });
  rewriter.setInsertionPointAfter(pairs);
  mlir::Value wideZeros = mlir::arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(wide));
  llvm::SmallVector<int64_t> offsets(shape.size(), 0), strides(shape.size(), 1);
  mlir::Value widened = mlir::vector::InsertStridedSliceOp::create(
      rewriter, loc, pairs.getResult(0), wideZeros, offsets, strides);
  rewriter.replaceAllUsesWith(loop.getResult(0), widened);
  rewriter.eraseOp(loop);
}

} // namespace

bool holdsI8OrI16(mlir::Value v) {
  mlir::Type t = mlir::getElementTypeOrSelf(v.getType());
  return t.isInteger(8) || t.isInteger(16);
}

mlir::Value signExtendedSmall(mlir::Value v) {
  if (holdsI8OrI16(v))
    return v;
  auto ext = v.getDefiningOp<mlir::arith::ExtSIOp>();
  return ext && holdsI8OrI16(ext.getIn()) ? ext.getIn() : nullptr;
}

mlir::Value createPairDot(mlir::RewriterBase &rewriter, mlir::Location loc,
                          mlir::Value a, mlir::Value b, mlir::Value acc) {
  mlir::MLIRContext *ctx = rewriter.getContext();
  mlir::AffineExpr j, t;
  mlir::bindDims(ctx, j, t);
  mlir::AffineMap pairs = mlir::AffineMap::get(2, 0, {j, t}, ctx);
  mlir::AffineMap lanes = mlir::AffineMap::get(2, 0, {j}, ctx);
  auto iterators =
      rewriter.getArrayAttr({mlir::vector::IteratorTypeAttr::get(
                                 ctx, mlir::vector::IteratorType::parallel),
                             mlir::vector::IteratorTypeAttr::get(
                                 ctx, mlir::vector::IteratorType::reduction)});
  auto dot = mlir::vector::ContractionOp::create(
      rewriter, loc, a, b, acc,
      rewriter.getAffineMapArrayAttr({pairs, pairs, lanes}), iterators);
  dot->setAttr(kPairDotAttr, rewriter.getUnitAttr());
  return dot;
}

void pairDotProducts(mlir::Operation *root, mlir::RewriterBase &rewriter) {
  llvm::SmallVector<std::pair<mlir::scf::ForOp, DotLoop>> loops;
  root->walk([&](mlir::scf::ForOp loop) {
    if (!loop->removeAttr(kPairDotProductsAttr))
      return;
    if (std::optional<DotLoop> dot = matchDotLoop(loop))
      loops.push_back({loop, *dot});
  });
  for (auto &[loop, dot] : loops)
    pairDotProduct(loop, dot, rewriter);
}

} // namespace aot
