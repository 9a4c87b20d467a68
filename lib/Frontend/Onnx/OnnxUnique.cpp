//===- OnnxUnique.cpp - Unique: the distinct elements or slices -----------===//
//
// Unique compares items: the elements of the flattened input, or its slices
// along `axis` (compared element by element in row-major order, ordered
// lexicographically). Loops over pairs of items find, for each item, the
// first item equal to it, and its rank: among the first occurrences, how
// many come before it (in value where `sorted`, else in position). The
// number of first occurrences sizes the outputs, and each item writes its
// rank's entries: the values of a first occurrence and its position
// (indices), its rank for every item (inverse_indices), one more to the
// count of its rank (counts). Quadratic in the items, which suits the sizes
// Unique is used at (labels, vocabularies, small index sets). NaNs are
// never equal, so each is an item of its own.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

namespace {

// In a unity build a file before this one may declare an indexConst of its
// own in this anonymous namespace, which would hide the shared one.
using onnx_import::indexConst;

/// How items of the input are laid out: item i, element k.
struct Items {
  mlir::Value x;
  int64_t rank;
  /// The axis of the slices; -1 for the flattened input.
  int64_t axis;
  /// Every dim's size.
  llvm::SmallVector<mlir::Value> sizes;

  /// The position in x (or in a tensor of x's shape but the axis) of
  /// element k of item i.
  llvm::SmallVector<mlir::Value> position(mlir::OpBuilder &b,
                                          mlir::Location loc, mlir::Value i,
                                          mlir::Value k) const {
    llvm::SmallVector<mlir::Value> at(rank);
    mlir::Value rest = axis < 0 ? i : k;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (d == axis) {
        at[d] = i;
        continue;
      }
      at[d] = mlir::arith::RemUIOp::create(b, loc, rest, sizes[d]);
      rest = mlir::arith::DivUIOp::create(b, loc, rest, sizes[d]);
    }
    return at;
  }
};

/// A loop over [0, n) carrying `init`, its body built by `body`
/// (induction variable, carried values) returning the next values.
llvm::SmallVector<mlir::Value>
loop(mlir::OpBuilder &b, mlir::Location loc, mlir::Value n,
     mlir::ValueRange init,
     llvm::function_ref<llvm::SmallVector<mlir::Value>(
         mlir::OpBuilder &, mlir::Location, mlir::Value, mlir::ValueRange)>
         body) {
  return forEachPosition(
      b, loc, {n}, init,
      [&](mlir::OpBuilder &lb, mlir::Location l, mlir::ValueRange at,
          mlir::ValueRange acc) { return body(lb, l, at[0], acc); });
}

/// (item i before item j, item i equal to item j): the first element that
/// differs decides.
std::pair<mlir::Value, mlir::Value> compare(mlir::OpBuilder &b,
                                            mlir::Location loc,
                                            const Items &items, mlir::Value n,
                                            mlir::Value i, mlir::Value j) {
  mlir::Value no = mlir::arith::ConstantIntOp::create(b, loc, 0, 1);
  llvm::SmallVector<mlir::Value> r = loop(
      b, loc, n, mlir::ValueRange{no, no},
      [&](mlir::OpBuilder &lb, mlir::Location l, mlir::Value k,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value p = mlir::tensor::ExtractOp::create(
            lb, l, items.x, items.position(lb, l, i, k));
        mlir::Value q = mlir::tensor::ExtractOp::create(
            lb, l, items.x, items.position(lb, l, j, k));
        mlir::Value differ, less;
        if (isFloatType(p.getType())) {
          differ = mlir::arith::CmpFOp::create(
              lb, l, mlir::arith::CmpFPredicate::UNE, p, q);
          less = mlir::arith::CmpFOp::create(
              lb, l, mlir::arith::CmpFPredicate::OLT, p, q);
        } else {
          differ = mlir::arith::CmpIOp::create(
              lb, l, mlir::arith::CmpIPredicate::ne, p, q);
          less = mlir::arith::CmpIOp::create(
              lb, l, mlir::arith::CmpIPredicate::slt, p, q);
        }
        // The first difference decides; later ones change nothing.
        mlir::Value undecided = mlir::arith::XOrIOp::create(
            lb, l, acc[0], mlir::arith::ConstantIntOp::create(lb, l, 1, 1));
        mlir::Value decides =
            mlir::arith::AndIOp::create(lb, l, undecided, differ);
        return {mlir::arith::OrIOp::create(lb, l, acc[0], differ),
                mlir::arith::SelectOp::create(lb, l, decides, less, acc[1])};
      });
  mlir::Value equal = mlir::arith::XOrIOp::create(
      b, loc, r[0], mlir::arith::ConstantIntOp::create(b, loc, 1, 1));
  return {r[1], equal};
}

mlir::LogicalResult unique(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  if (!x)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::Type element = xType.getElementType();
  if (!element.isIntOrFloat() || element.isInteger(1))
    return ctx.fail("takes numbers, not " + typeText(xType));
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  Items items{x, xType.getRank(), -1, {}};
  for (int64_t d = 0; d < items.rank; ++d)
    items.sizes.push_back(ctx.dim(x, d));
  if (ctx.hasAttr("axis")) {
    auto axis = axisOf(ctx, ctx.intAttr("axis", 0), items.rank);
    if (!axis)
      return mlir::failure();
    items.axis = *axis;
  }
  const bool sorted = ctx.intAttr("sorted", 1) != 0;

  // n items of `width` elements each.
  mlir::Value n = indexConst(b, loc, 1), width = indexConst(b, loc, 1);
  for (int64_t d = 0; d < items.rank; ++d) {
    mlir::Value &into = (items.axis < 0 || d == items.axis) ? n : width;
    into = mlir::arith::MulIOp::create(b, loc, into, items.sizes[d]);
  }
  mlir::Value zero = indexConst(b, loc, 0);
  auto indexTensor = mlir::RankedTensorType::get({mlir::ShapedType::kDynamic},
                                                 b.getIndexType());

  // first[i]: the first item equal to item i.
  mlir::Value first = loop(
      b, loc, n, mlir::ValueRange{ctx.empty(indexTensor, {n})},
      [&](mlir::OpBuilder &lb, mlir::Location l, mlir::Value i,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value no = mlir::arith::ConstantIntOp::create(lb, l, 0, 1);
        llvm::SmallVector<mlir::Value> found = loop(
            lb, l, i, mlir::ValueRange{no, i},
            [&](mlir::OpBuilder &ib, mlir::Location il, mlir::Value j,
                mlir::ValueRange f) -> llvm::SmallVector<mlir::Value> {
              mlir::Value equal = compare(ib, il, items, width, j, i).second;
              mlir::Value take = mlir::arith::AndIOp::create(
                  ib, il, equal,
                  mlir::arith::XOrIOp::create(
                      ib, il, f[0],
                      mlir::arith::ConstantIntOp::create(ib, il, 1, 1)));
              return {mlir::arith::OrIOp::create(ib, il, f[0], equal),
                      mlir::arith::SelectOp::create(ib, il, take, j, f[1])};
            });
        return {mlir::tensor::InsertOp::create(lb, l, found[1], acc[0],
                                               mlir::ValueRange{i})};
      })[0];
  auto isFirst = [&](mlir::OpBuilder &lb, mlir::Location l, mlir::Value i) {
    mlir::Value f =
        mlir::tensor::ExtractOp::create(lb, l, first, mlir::ValueRange{i});
    return mlir::arith::CmpIOp::create(lb, l, mlir::arith::CmpIPredicate::eq, f,
                                       i)
        .getResult();
  };

  // rank[i]: the first occurrences before item i's (in value or position),
  // and m, how many there are.
  llvm::SmallVector<mlir::Value> ranked = loop(
      b, loc, n, mlir::ValueRange{ctx.empty(indexTensor, {n}), zero},
      [&](mlir::OpBuilder &lb, mlir::Location l, mlir::Value i,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value mine =
            mlir::tensor::ExtractOp::create(lb, l, first, mlir::ValueRange{i});
        mlir::Value count = loop(
            lb, l, n, mlir::ValueRange{indexConst(lb, l, 0)},
            [&](mlir::OpBuilder &ib, mlir::Location il, mlir::Value j,
                mlir::ValueRange c) -> llvm::SmallVector<mlir::Value> {
              mlir::Value before =
                  sorted ? compare(ib, il, items, width, j, mine).first
                         : mlir::arith::CmpIOp::create(
                               ib, il, mlir::arith::CmpIPredicate::ult, j, mine)
                               .getResult();
              mlir::Value counts = mlir::arith::AndIOp::create(
                  ib, il, before, isFirst(ib, il, j));
              return {mlir::arith::SelectOp::create(
                  ib, il, counts,
                  mlir::arith::AddIOp::create(ib, il, c[0],
                                              indexConst(ib, il, 1)),
                  c[0])};
            })[0];
        mlir::Value total = mlir::arith::SelectOp::create(
            lb, l, isFirst(lb, l, i),
            mlir::arith::AddIOp::create(lb, l, acc[1], indexConst(lb, l, 1)),
            acc[1]);
        return {mlir::tensor::InsertOp::create(lb, l, count, acc[0],
                                               mlir::ValueRange{i}),
                total};
      });
  mlir::Value rank = ranked[0], m = ranked[1];

  // The outputs, written item by item.
  mlir::RankedTensorType yType = ctx.outputType(0);
  if (!yType)
    return mlir::failure();
  llvm::SmallVector<int64_t> yShape;
  llvm::SmallVector<mlir::Value> yDims;
  if (items.axis < 0) {
    yShape.push_back(mlir::ShapedType::kDynamic);
    yDims.push_back(m);
  } else {
    for (int64_t d = 0; d < items.rank; ++d) {
      yShape.push_back(d == items.axis ? mlir::ShapedType::kDynamic
                                       : xType.getDimSize(d));
      yDims.push_back(d == items.axis ? m : items.sizes[d]);
    }
  }
  auto yTypeHere = mlir::RankedTensorType::get(yShape, element);
  auto i64s =
      mlir::RankedTensorType::get({mlir::ShapedType::kDynamic}, b.getI64Type());
  mlir::Value zero64 = ctx.scalar(b.getI64Type(), 0);
  llvm::SmallVector<mlir::Value> written = loop(
      b, loc, n,
      mlir::ValueRange{ctx.empty(yTypeHere, yDims), ctx.empty(i64s, {m}),
                       ctx.empty(i64s, {n}), ctx.filled(i64s, zero64, {m})},
      [&](mlir::OpBuilder &lb, mlir::Location l, mlir::Value i,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value r =
            mlir::tensor::ExtractOp::create(lb, l, rank, mlir::ValueRange{i});
        auto i64 = [&](mlir::Value v) {
          return mlir::arith::IndexCastOp::create(lb, l, lb.getI64Type(), v)
              .getResult();
        };
        mlir::Value inverse = mlir::tensor::InsertOp::create(
            lb, l, i64(r), acc[2], mlir::ValueRange{i});
        mlir::Value seen =
            mlir::tensor::ExtractOp::create(lb, l, acc[3], mlir::ValueRange{r});
        mlir::Value counts = mlir::tensor::InsertOp::create(
            lb, l,
            mlir::arith::AddIOp::create(
                lb, l, seen, mlir::arith::ConstantIntOp::create(lb, l, 1, 64)),
            acc[3], mlir::ValueRange{r});
        auto firstOne = mlir::scf::IfOp::create(
            lb, l, isFirst(lb, l, i),
            [&](mlir::OpBuilder &t, mlir::Location tl) {
              mlir::Value y = loop(
                  t, tl, width, mlir::ValueRange{acc[0]},
                  [&](mlir::OpBuilder &ib, mlir::Location il, mlir::Value k,
                      mlir::ValueRange yAcc) -> llvm::SmallVector<mlir::Value> {
                    mlir::Value v = mlir::tensor::ExtractOp::create(
                        ib, il, x, items.position(ib, il, i, k));
                    llvm::SmallVector<mlir::Value> at =
                        items.axis < 0 ? llvm::SmallVector<mlir::Value>{r}
                                       : items.position(ib, il, r, k);
                    return {
                        mlir::tensor::InsertOp::create(ib, il, v, yAcc[0], at)};
                  })[0];
              mlir::Value where = mlir::tensor::InsertOp::create(
                  t, tl, i64(i), acc[1], mlir::ValueRange{r});
              mlir::scf::YieldOp::create(t, tl, mlir::ValueRange{y, where});
            },
            [&](mlir::OpBuilder &e, mlir::Location el) {
              mlir::scf::YieldOp::create(e, el,
                                         mlir::ValueRange{acc[0], acc[1]});
            });
        return {firstOne.getResult(0), firstOne.getResult(1), inverse, counts};
      });
  const char *what[] = {"the unique values", "the indices",
                        "the inverse indices", "the counts"};
  for (int o = 0; o < 4 && o < ctx.numOutputs(); ++o) {
    if (ctx.node().output(o).empty())
      continue;
    mlir::RankedTensorType t = ctx.outputType(o);
    if (!t)
      return mlir::failure();
    ctx.setOutput(o, ctx.castedTo(b, written[o], t, what[o]));
  }
  return mlir::success();
}

} // namespace

std::vector<OpConverter> uniqueConverters() { return {{"Unique", unique}}; }

} // namespace aot::onnx_import
