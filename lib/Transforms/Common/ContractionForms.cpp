//===- ContractionForms.cpp - contractions the tiles vectorize well -------===//
//
// x86 without AVX512-FP16 computes on f16 and bf16 only by converting to f32.
// Inside a contraction's register tile each input value is converted where
// it is read: A's values one scalar at a time, once per column tile, and
// B's rows once per row tile; an f16 accumulator is converted and rounded
// again at every step of K. Converted once, whole, the contraction is an
// f32 one, and gets the f32 code (packed panels included).
//
// The vectorizer makes a vector.contract only of ops that implement
// ContractionOpInterface; a linalg.generic matmul's register tile (K = 1)
// becomes a broadcast product whose unit reduction folds into scalar adds.
// linalg.contract takes any indexing maps, so a generic multiply-add keeps
// its maps (transposed operands, loops in any order) and gets the FMAs.
//
// An integer matmul's register tiles read two rows of B per pair dot; with
// B stored transposed those are gathers, so B is transposed first, once.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/ContractionForms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

namespace aot {

namespace {

bool isHalf(mlir::Type t) {
  mlir::Type element = mlir::getElementTypeOrSelf(t);
  return element.isF16() || element.isBF16();
}

/// `input` converted to element type `to` by an elementwise linalg.generic
/// (arith.extf to widen, arith.truncf to narrow), written into a new tensor
/// or, if given, into `into`.
mlir::Value convert(mlir::RewriterBase &rewriter, mlir::Location loc,
                    mlir::Value input, mlir::Type to,
                    mlir::Value into = nullptr) {
  auto type = llvm::cast<mlir::RankedTensorType>(input.getType());
  if (!into)
    into = mlir::tensor::EmptyOp::create(
        rewriter, loc, mlir::tensor::getMixedSizes(rewriter, loc, input), to);
  mlir::AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      type.getRank(), mlir::utils::IteratorType::parallel);
  const bool widen = to.getIntOrFloatBitWidth() >
                     type.getElementType().getIntOrFloatBitWidth();
  auto generic = mlir::linalg::GenericOp::create(
      rewriter, loc, mlir::TypeRange{into.getType()}, mlir::ValueRange{input},
      mlir::ValueRange{into},
      llvm::ArrayRef<mlir::AffineMap>{identity, identity}, iterators,
      [&](mlir::OpBuilder &builder, mlir::Location loc, mlir::ValueRange args) {
        mlir::Value converted =
            widen
                ? mlir::arith::ExtFOp::create(builder, loc, to, args.front())
                      .getResult()
                : mlir::arith::TruncFOp::create(builder, loc, to, args.front())
                      .getResult();
        mlir::linalg::YieldOp::create(builder, loc, converted);
      });
  return generic.getResult(0);
}

/// Whether `v` is block argument `arg` or an arith.extf of it.
bool isArgOrExtended(mlir::Value v, mlir::BlockArgument arg) {
  if (v == arg)
    return true;
  auto ext = v.getDefiningOp<mlir::arith::ExtFOp>();
  return ext && ext.getIn() == arg;
}

/// Whether `op` (a generic, or a named op by its body) is C += A * B on
/// floats: two inputs, one init, a body of arith.mulf of the inputs (each
/// extended by arith.extf or not) added to the accumulator, and nothing
/// else; what linalg.contract computes.
bool isFloatMultiplyAdd(mlir::linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() ||
      !mlir::linalg::isaContractionOpInterface(op) ||
      op->getNumRegions() != 1 || op->getRegion(0).empty())
    return false;
  mlir::Block &body = op->getRegion(0).front();
  auto yield = llvm::cast<mlir::linalg::YieldOp>(body.getTerminator());
  auto add = yield.getOperand(0).getDefiningOp<mlir::arith::AddFOp>();
  if (!add)
    return false;
  mlir::BlockArgument a = body.getArgument(0), b = body.getArgument(1),
                      acc = body.getArgument(2);
  mlir::Value product = add.getLhs() == acc   ? add.getRhs()
                        : add.getRhs() == acc ? add.getLhs()
                                              : mlir::Value();
  auto mul = product ? product.getDefiningOp<mlir::arith::MulFOp>() : nullptr;
  if (!mul ||
      !((isArgOrExtended(mul.getLhs(), a) &&
         isArgOrExtended(mul.getRhs(), b)) ||
        (isArgOrExtended(mul.getLhs(), b) && isArgOrExtended(mul.getRhs(), a))))
    return false;
  // The multiply, the add, the yield and one extension per extended input.
  size_t expected = 3 + (mul.getLhs() != a && mul.getLhs() != b) +
                    (mul.getRhs() != a && mul.getRhs() != b);
  return body.getOperations().size() == expected;
}

/// The float multiply-adds among the contractions on tensors of `fn` that
/// `wanted` picks, each as a linalg.generic (a named one generalized).
llvm::SmallVector<mlir::linalg::GenericOp>
multiplyAdds(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn,
             llvm::function_ref<bool(mlir::linalg::LinalgOp)> wanted) {
  llvm::SmallVector<mlir::linalg::LinalgOp> contractions;
  fn.walk([&](mlir::linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op.getNumDpsInits() == 1 &&
        mlir::linalg::isaContractionOpInterface(op) && wanted(op))
      contractions.push_back(op);
  });
  llvm::SmallVector<mlir::linalg::GenericOp> generics;
  for (mlir::linalg::LinalgOp op : contractions) {
    // Only a multiply-add, which a named op's body shows before it is made
    // a generic: any other named op stays as it is.
    if (!isFloatMultiplyAdd(op))
      continue;
    auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(op.getOperation());
    if (!generic) {
      mlir::OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(op);
      auto generalized = mlir::linalg::generalizeNamedOp(rewriter, op);
      if (mlir::failed(generalized))
        continue;
      generic = *generalized;
    }
    generics.push_back(generic);
  }
  return generics;
}

mlir::Type initElementType(mlir::linalg::LinalgOp op) {
  return mlir::getElementTypeOrSelf(op.getDpsInits().front().getType());
}

} // namespace

MatmulRhs matmulRhs(mlir::linalg::LinalgOp op) {
  auto dims = mlir::linalg::inferContractionDims(op);
  if (mlir::failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1 || op.getNumDpsInits() != 1)
    return {};
  MatmulRhs rhs;
  rhs.m = dims->m.front();
  rhs.n = dims->n.front();
  rhs.k = dims->k.front();
  if (!dims->batch.empty())
    rhs.batch = dims->batch.front();
  mlir::MLIRContext *ctx = op->getContext();
  const unsigned lead = rhs.batch ? 1 : 0;
  mlir::AffineExpr kExpr = mlir::getAffineDimExpr(rhs.k, ctx),
                   nExpr = mlir::getAffineDimExpr(rhs.n, ctx);
  for (mlir::OpOperand *in : op.getDpsInputOperands()) {
    mlir::AffineMap map = op.getMatchingIndexingMap(in);
    if (map.getNumResults() != lead + 2 ||
        (rhs.batch &&
         map.getResult(0) != mlir::getAffineDimExpr(*rhs.batch, ctx)))
      continue;
    mlir::AffineExpr first = map.getResult(lead),
                     second = map.getResult(lead + 1);
    if ((first == kExpr && second == nExpr) ||
        (first == nExpr && second == kExpr)) {
      rhs.operand = in;
      rhs.kPos = first == kExpr ? lead : lead + 1;
      rhs.nPos = first == kExpr ? lead + 1 : lead;
      return rhs;
    }
  }
  return {};
}

void transposeIntegerRhs(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::linalg::LinalgOp> ops;
  fn.walk([&](mlir::linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op.getNumDpsInputs() == 2 &&
        op.getNumDpsInits() == 1 &&
        allElements(op, [](mlir::Type t) { return t.isSignlessInteger(); }) &&
        llvm::isa<mlir::linalg::MatmulOp, mlir::linalg::BatchMatmulOp,
                  mlir::linalg::ContractOp, mlir::linalg::GenericOp>(
            op.getOperation()) &&
        mlir::linalg::isaContractionOpInterface(op))
      ops.push_back(op);
  });
  mlir::MLIRContext *ctx = fn.getContext();
  for (mlir::linalg::LinalgOp op : ops) {
    const MatmulRhs rhs = matmulRhs(op);
    if (!rhs.operand || !rhs.transposed())
      continue;
    if (hasFewRows(op, rhs))
      continue;
    const unsigned lead = rhs.batch ? 1 : 0;
    mlir::OpOperand *b = rhs.operand;
    mlir::AffineMap map = op.getMatchingIndexingMap(b);
    mlir::Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    // B transposed: element (.., k, n) of the new tensor is B's (.., n, k),
    // as a linalg.generic, which the tiles vectorize like any elementwise op
    // (a linalg.transpose would stay scalar loops).
    llvm::SmallVector<mlir::OpFoldResult> sizes =
        mlir::tensor::getMixedSizes(rewriter, loc, b->get());
    std::swap(sizes[lead], sizes[lead + 1]);
    mlir::Type element = mlir::getElementTypeOrSelf(b->get().getType());
    mlir::Value empty =
        mlir::tensor::EmptyOp::create(rewriter, loc, sizes, element);
    const unsigned rank = lead + 2;
    llvm::SmallVector<mlir::AffineExpr> swapped;
    for (unsigned d = 0; d < rank; ++d)
      swapped.push_back(rewriter.getAffineDimExpr(d));
    std::swap(swapped[lead], swapped[lead + 1]);
    mlir::AffineMap read = mlir::AffineMap::get(rank, 0, swapped, ctx);
    mlir::AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    auto transposed = mlir::linalg::GenericOp::create(
        rewriter, loc, mlir::TypeRange{empty.getType()},
        mlir::ValueRange{b->get()}, mlir::ValueRange{empty},
        llvm::ArrayRef<mlir::AffineMap>{read, identity},
        llvm::SmallVector<mlir::utils::IteratorType>(
            rank, mlir::utils::IteratorType::parallel),
        [](mlir::OpBuilder &builder, mlir::Location loc,
           mlir::ValueRange args) {
          mlir::linalg::YieldOp::create(builder, loc, args.front());
        });
    llvm::SmallVector<mlir::AffineMap> maps = op.getIndexingMapsArray();
    llvm::SmallVector<mlir::AffineExpr> results(map.getResults());
    std::swap(results[lead], results[lead + 1]);
    maps[b->getOperandNumber()] =
        mlir::AffineMap::get(map.getNumDims(), 0, results, ctx);
    mlir::ArrayAttr mapsAttr = rewriter.getAffineMapArrayAttr(maps);
    const unsigned bIndex = b->getOperandNumber();
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperand(bIndex, transposed.getResult(0));
      llvm::TypeSwitch<mlir::Operation *>(op.getOperation())
          .Case<mlir::linalg::MatmulOp, mlir::linalg::BatchMatmulOp,
                mlir::linalg::ContractOp, mlir::linalg::GenericOp>(
              [&](auto typed) { typed.setIndexingMapsAttr(mapsAttr); });
    });
  }
}

bool hasFewRows(mlir::linalg::LinalgOp op, const MatmulRhs &rhs) {
  if (!rhs.operand)
    return false;
  const int64_t rows = op.getStaticLoopRanges()[rhs.m];
  return !mlir::ShapedType::isDynamic(rows) && rows < kFewRows;
}

MatmulRhs halfRhs(mlir::linalg::LinalgOp op) {
  MatmulRhs rhs = matmulRhs(op);
  if (!rhs.operand)
    return {};
  for (mlir::OpOperand &operand : op->getOpOperands()) {
    mlir::Type t = mlir::getElementTypeOrSelf(operand.get().getType());
    if (&operand == rhs.operand ? !isHalf(t) : !t.isF32())
      return {};
  }
  return rhs;
}

void accumulateHalfInF32(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn) {
  mlir::Type f32 = rewriter.getF32Type();
  for (mlir::linalg::GenericOp generic :
       multiplyAdds(rewriter, fn, [](mlir::linalg::LinalgOp op) {
         return isHalf(initElementType(op));
       })) {
    mlir::Location loc = generic.getLoc();
    mlir::Value init = generic.getDpsInits().front();
    rewriter.setInsertionPoint(generic);
    mlir::Value acc = convert(rewriter, loc, init, f32);
    auto contract = mlir::linalg::ContractOp::create(
        rewriter, loc, mlir::TypeRange{acc.getType()}, generic.getDpsInputs(),
        mlir::ValueRange{acc}, generic.getIndexingMaps());
    rewriter.replaceOp(generic, convert(rewriter, loc, contract->getResult(0),
                                        initElementType(generic), init));
  }
}

void prepareContractions(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn) {
  mlir::Type f32 = rewriter.getF32Type();
  for (mlir::linalg::GenericOp generic :
       multiplyAdds(rewriter, fn, [](mlir::linalg::LinalgOp op) {
         return llvm::isa<mlir::linalg::GenericOp>(op.getOperation()) ||
                llvm::any_of(op.getDpsInputs(),
                             [](mlir::Value v) { return isHalf(v.getType()); });
       })) {
    mlir::Location loc = generic.getLoc();
    const bool widen = initElementType(generic).isF32();
    const MatmulRhs rhs = matmulRhs(generic);
    mlir::OpOperand *narrowRhs =
        hasFewRows(generic, rhs) ? rhs.operand : nullptr;
    rewriter.setInsertionPoint(generic);
    llvm::SmallVector<mlir::Value> inputs;
    for (mlir::OpOperand *input : generic.getDpsInputOperands())
      inputs.push_back(widen && input != narrowRhs &&
                               isHalf(input->get().getType())
                           ? convert(rewriter, loc, input->get(), f32)
                           : input->get());
    auto contract = mlir::linalg::ContractOp::create(
        rewriter, loc, generic.getResultTypes(), inputs, generic.getDpsInits(),
        generic.getIndexingMaps());
    rewriter.replaceOp(generic, contract->getResults());
  }
}

} // namespace aot
