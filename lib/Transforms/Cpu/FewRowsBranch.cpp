//===- FewRowsBranch.cpp - dynamic M: static code for few rows of A -------===//
//
// A matmul whose rows of A are a dynamic dim (a linear layer with a dynamic
// batch) is compiled once for every M, and the large-M code packs B into
// panels: at M = 1 that copies all of B to use each value once, far slower
// than the code for one static row (1 x 2048 by (2048 x 2048)^T). The op is
// compiled twice instead, under a branch on M at run time. Where M <
// kFewRows, it becomes copies with a static M, each the code of so many
// static rows: a float B stored K x N (the loops of few rows, which read B
// once whatever the rows) pads A and the results with zero rows to 1, 2,
// 4, 5, 6 or 7 rows; otherwise (dot products, integer register tiles, whose
// every row costs more than reading B again) 3 rows are a piece of their
// own and other counts are cut into static pieces of 4, 2 and 1 rows, the
// bits of M, each a copy of the op on a slice of A and of the result. A row
// at a time was much slower than the static code for 2 to 7 rows: each row
// read its tile of B again, from the cache, into registers. Dynamic against
// static row counts: `aot-run --benchmark`; docs/performance.md, "Dynamic
// row counts".
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/FewRowsBranch.h"
#include "Transforms/Common/ContractionForms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace aot {

namespace {

/// Whether few rows of `op` have code of their own (TileAndVectorize): B
/// stored transposed with K innermost (dot products), or B stored K x N
/// (the loops of few rows for floats; for integers, register tiles of so
/// many rows, where the tiles of 8 rows, masked, were far slower for one
/// row of i8 1 x 2048 by 2048 x 2048; docs/performance.md, "Dynamic row
/// counts").
bool fewRowsRoute(mlir::linalg::LinalgOp op, const MatmulRhs &rhs) {
  return !rhs.transposed() || rhs.k == op.getNumLoops() - 1;
}

/// The rows of the static pieces that fewer than kFewRows rows are cut
/// into, largest first: M's bits.
constexpr int64_t kPieceRows[] = {4, 2, 1};
static_assert(kFewRows == 2 * kPieceRows[0],
              "the pieces cover every M below kFewRows");

/// `piece` rows of `op` from row `at` on (along loop `m`), written into
/// `result` (the rows so far): a tiled copy of the op on static slices of A
/// and of the result.
mlir::Value buildPiece(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::linalg::LinalgOp op, unsigned m,
                       llvm::ArrayRef<mlir::Range> ranges, mlir::Value result,
                       mlir::Value at, int64_t piece) {
  // The copy writes into the result so far, not into the op's init, so that
  // the pieces update one tensor in place.
  mlir::IRMapping intoResult;
  intoResult.map(op.getDpsInitOperand(0)->get(), result);
  auto copy = llvm::cast<mlir::TilingInterface>(
      b.clone(*op.getOperation(), intoResult));
  llvm::SmallVector<mlir::OpFoldResult> offsets, sizes;
  for (auto [d, range] : llvm::enumerate(ranges)) {
    offsets.push_back(d == m ? mlir::OpFoldResult(at) : range.offset);
    sizes.push_back(d == m ? b.getIndexAttr(piece) : range.size);
  }
  mlir::FailureOr<mlir::TilingResult> tiled =
      copy.getTiledImplementation(b, offsets, sizes);
  llvm::SmallVector<mlir::OpFoldResult> position, extent;
  mlir::Value value;
  if (mlir::succeeded(tiled) && mlir::succeeded(copy.getResultTilePosition(
                                    b, 0, offsets, sizes, position, extent))) {
    llvm::SmallVector<mlir::OpFoldResult> ones(position.size(),
                                               b.getIndexAttr(1));
    value = mlir::tensor::InsertSliceOp::create(b, loc, tiled->tiledValues[0],
                                                result, position, extent, ones);
  } else {
    // Every row at once, from the op's own init: right whatever the pieces
    // before did, only slower.
    value = b.clone(*op.getOperation())->getResult(0);
  }
  copy->erase();
  return value;
}

/// Builds, at `b`'s insertion point, the rows of `op` (a matmul of fewer
/// than kFewRows rows, `rows` of them) as static pieces, one scf.if on each
/// bit of `rows`; returns the result.
mlir::Value buildPieces(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::linalg::LinalgOp op, unsigned m,
                        llvm::ArrayRef<mlir::Range> ranges, mlir::Value rows) {
  mlir::Value result = op.getDpsInitOperand(0)->get();
  mlir::Value done = mlir::arith::ConstantIndexOp::create(b, loc, 0);
  mlir::Value zero = done;
  for (int64_t piece : kPieceRows) {
    mlir::Value bit = mlir::arith::AndIOp::create(
        b, loc, rows, mlir::arith::ConstantIndexOp::create(b, loc, piece));
    mlir::Value has = mlir::arith::CmpIOp::create(
        b, loc, mlir::arith::CmpIPredicate::ne, bit, zero);
    auto withPiece = [&](mlir::OpBuilder &b, mlir::Location loc) {
      mlir::scf::YieldOp::create(
          b, loc, buildPiece(b, loc, op, m, ranges, result, done, piece));
    };
    auto keep = [&](mlir::OpBuilder &b, mlir::Location loc) {
      mlir::scf::YieldOp::create(b, loc, result);
    };
    result = mlir::scf::IfOp::create(b, loc, has, withPiece, keep).getResult(0);
    done = mlir::arith::AddIOp::create(b, loc, done, bit);
  }
  return result;
}

/// The count of rows that has static code of its own beside the pieces:
/// as pieces of 2 and 1 each reads all of B, where the code of 3 rows reads
/// it once, which is faster (by 2048 x 2048, f32 B transposed and i8 B
/// K x N). 5 to 7 rows, a piece of 4 among theirs, take little longer than
/// their own code would (`aot-run --benchmark`; docs/performance.md,
/// "Dynamic row counts").
constexpr int64_t kOwnRows = 3;

/// Builds `op` as buildPieces does, but kOwnRows rows as one piece of their
/// own, under an scf.if; returns the result.
mlir::Value buildPiecesOrOwn(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::linalg::LinalgOp op, unsigned m,
                             llvm::ArrayRef<mlir::Range> ranges,
                             mlir::Value rows) {
  mlir::Value own = mlir::arith::CmpIOp::create(
      b, loc, mlir::arith::CmpIPredicate::eq, rows,
      mlir::arith::ConstantIndexOp::create(b, loc, kOwnRows));
  auto ownPiece = [&](mlir::OpBuilder &b, mlir::Location loc) {
    mlir::Value zero = mlir::arith::ConstantIndexOp::create(b, loc, 0);
    mlir::scf::YieldOp::create(b, loc,
                               buildPiece(b, loc, op, m, ranges,
                                          op.getDpsInitOperand(0)->get(), zero,
                                          kOwnRows));
  };
  auto pieces = [&](mlir::OpBuilder &b, mlir::Location loc) {
    mlir::scf::YieldOp::create(b, loc,
                               buildPieces(b, loc, op, m, ranges, rows));
  };
  return mlir::scf::IfOp::create(b, loc, own, ownPiece, pieces).getResult(0);
}

/// The static row counts that a float matmul by B stored K x N pads fewer
/// than kFewRows rows up to: there each piece of buildPieces reads all of B
/// again, where the loops of few rows read it once for every row of the
/// tile, which is faster (by 2048 x 2048, 3 and 7 rows). Only 3 rows take
/// the code of more (that of 4 runs them about as fast as their own); 5 and
/// 6 rows ran slower as the code of 7 than as their own (`aot-run
/// --benchmark`; docs/performance.md, "Dynamic row counts").
constexpr int64_t kPaddedRows[] = {1, 2, 4, 5, 6, 7};
static_assert(kPaddedRows[std::size(kPaddedRows) - 1] == kFewRows - 1,
              "the padded counts cover every M below kFewRows");

/// `v`, whose dim `dim` holds `rows` rows, with zero rows after them up to
/// `padded` (static).
mlir::Value padRows(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                    int64_t dim, mlir::Value rows, int64_t padded) {
  auto type = llvm::cast<mlir::RankedTensorType>(v.getType());
  llvm::SmallVector<int64_t> shape(type.getShape());
  shape[dim] = padded;
  llvm::SmallVector<mlir::OpFoldResult> low(shape.size(), b.getIndexAttr(0)),
      high = low;
  high[dim] =
      mlir::arith::SubIOp::create(
          b, loc, mlir::arith::ConstantIndexOp::create(b, loc, padded), rows)
          .getResult();
  mlir::Value zero = mlir::arith::ConstantOp::create(
      b, loc, b.getZeroAttr(type.getElementType()));
  return mlir::tensor::PadOp::create(b, loc, type.clone(shape), v, low, high,
                                     zero);
}

/// `op` on A and its init padded with zero rows (along loop `m`) from
/// `rows` to `padded`: its first `rows` rows.
mlir::Value onPaddedRows(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::linalg::LinalgOp op, unsigned m,
                         mlir::Value rows, int64_t padded) {
  // The position of loop `m` among the dims of an operand, if any.
  auto rowDim = [&](mlir::AffineMap map) {
    return map.getResultPosition(b.getAffineDimExpr(m));
  };
  llvm::SmallVector<mlir::Value> operands;
  for (mlir::OpOperand &operand : op->getOpOperands()) {
    std::optional<unsigned> dim = rowDim(op.getMatchingIndexingMap(&operand));
    operands.push_back(dim ? padRows(b, loc, operand.get(), *dim, rows, padded)
                           : operand.get());
  }
  mlir::Value init = operands.back();
  mlir::Operation *copy =
      mlir::clone(b, op.getOperation(), init.getType(), operands);
  auto type = llvm::cast<mlir::RankedTensorType>(op->getResult(0).getType());
  llvm::SmallVector<mlir::OpFoldResult> offsets(type.getRank(),
                                                b.getIndexAttr(0)),
      strides(type.getRank(), b.getIndexAttr(1)),
      sizes = mlir::tensor::getMixedSizes(b, loc, op.getDpsInits()[0]);
  sizes[*rowDim(op.getIndexingMapsArray().back())] = rows;
  mlir::Value slice = mlir::tensor::ExtractSliceOp::create(
      b, loc, type, copy->getResult(0), offsets, sizes, strides);
  // Written back into the op's own init, so that every branch yields that
  // tensor and the function writes its result in place; a yielded slice of
  // the padded tensor made bufferization copy the whole result, of any M,
  // into a new buffer after the branch (2048 x 2048: 16 MiB).
  return mlir::tensor::InsertSliceOp::create(b, loc, slice, op.getDpsInits()[0],
                                             offsets, sizes, strides);
}

/// Builds, at `b`'s insertion point, `op` (a float matmul by B stored K x
/// N of fewer than kFewRows rows, `rows` of them) padded to the least of
/// kPaddedRows from the `next`-th on that holds `rows`, one scf.if on each
/// count but the last; returns the result.
mlir::Value buildPadded(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::linalg::LinalgOp op, unsigned m, mlir::Value rows,
                        size_t next = 0) {
  const int64_t count = kPaddedRows[next];
  if (next + 1 == std::size(kPaddedRows))
    return onPaddedRows(b, loc, op, m, rows, count);
  mlir::Value fits = mlir::arith::CmpIOp::create(
      b, loc, mlir::arith::CmpIPredicate::ule, rows,
      mlir::arith::ConstantIndexOp::create(b, loc, count));
  auto atCount = [&](mlir::OpBuilder &b, mlir::Location loc) {
    mlir::scf::YieldOp::create(b, loc,
                               onPaddedRows(b, loc, op, m, rows, count));
  };
  auto more = [&](mlir::OpBuilder &b, mlir::Location loc) {
    mlir::scf::YieldOp::create(b, loc,
                               buildPadded(b, loc, op, m, rows, next + 1));
  };
  return mlir::scf::IfOp::create(b, loc, fits, atCount, more).getResult(0);
}

} // namespace

void branchOnFewRows(mlir::RewriterBase &rewriter, mlir::func::FuncOp fn) {
  llvm::SmallVector<mlir::linalg::LinalgOp> ops;
  fn.walk([&](mlir::linalg::LinalgOp op) {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op->getNumResults() != 1 ||
        !mlir::linalg::isaContractionOpInterface(op) ||
        !llvm::isa<mlir::TilingInterface>(op.getOperation()))
      return;
    const MatmulRhs rhs = matmulRhs(op);
    if (rhs.operand &&
        mlir::ShapedType::isDynamic(op.getStaticLoopRanges()[rhs.m]) &&
        fewRowsRoute(op, rhs))
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
    // A float B stored K x N is read once whatever the rows of the tile
    // (kPaddedRows); elsewhere each row of the tile costs more than
    // reading B again (dot products by B stored transposed: 5 to 7 rows
    // run faster as pieces than as the static code of as many rows;
    // docs/performance.md, "Dynamic row counts").
    const bool pad = !rhs.transposed() &&
                     llvm::isa<mlir::FloatType>(mlir::getElementTypeOrSelf(
                         op.getDpsInits()[0].getType()));
    auto fewRows = [&](mlir::OpBuilder &b, mlir::Location loc) {
      mlir::scf::YieldOp::create(
          b, loc,
          pad ? buildPadded(b, loc, op, rhs.m, rows)
              : buildPiecesOrOwn(b, loc, op, rhs.m, ranges, rows));
    };
    auto whole = [&](mlir::OpBuilder &b, mlir::Location loc) {
      mlir::Operation *clone = b.clone(*op.getOperation());
      mlir::scf::YieldOp::create(b, loc, clone->getResults());
    };
    auto branch = mlir::scf::IfOp::create(rewriter, loc, few, fewRows, whole);
    rewriter.replaceOp(op, branch->getResults());
  }
}

} // namespace aot
