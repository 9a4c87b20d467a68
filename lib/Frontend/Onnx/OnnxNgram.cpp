//===- OnnxNgram.cpp - TfIdfVectorizer: n-gram counts of integer ids ------===//
//
// For each row of ids (or the one row of a 1-D input), each n from
// min_gram_length to max_gram_length, each skip s up to max_skip_count and
// each start i, the n ids at i, i + (s + 1), ... within the row are an
// n-gram; where it is one of the pool's n-grams, the count of that n-gram's
// output index grows by one. A 1-gram is counted once, whatever the skip.
// TF returns the counts, IDF the weight (1 without weights) of each n-gram
// seen, TFIDF the counts times the weights. The pool, a constant of the
// node, becomes one table of ids per n and the indices beside it; the
// counting is loops over the rows, starts, skips and the pool's n-grams.
// String ids are not supported (a compiled function has no string type).
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

/// An i64 tensor constant of `shape` holding `values`.
mlir::Value i64Table(NodeContext &ctx, llvm::ArrayRef<int64_t> shape,
                     llvm::ArrayRef<int64_t> values) {
  auto t = mlir::RankedTensorType::get(shape, ctx.b.getI64Type());
  return mlir::arith::ConstantOp::create(
      ctx.b, ctx.loc, t, mlir::DenseElementsAttr::get(t, values));
}

mlir::LogicalResult tfIdfVectorizer(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  if ((xType.getRank() != 1 && xType.getRank() != 2) ||
      !llvm::isa<mlir::IntegerType>(xType.getElementType()) ||
      xType.getElementType().isInteger(1))
    return ctx.fail("takes integer ids of rank 1 or 2 (strings are not "
                    "supported), not " +
                    typeText(xType));
  if (!isFloatType(out.getElementType()))
    return ctx.fail("makes floats, not " + typeText(out));
  if (ctx.attr("pool_strings"))
    return ctx.fail("takes pool_int64s (a pool of strings is not supported)");
  std::string mode = ctx.stringAttr("mode", "");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF")
    return ctx.fail("mode '" + mode + "' is not one of TF, IDF, TFIDF");
  const int64_t minN = ctx.intAttr("min_gram_length", 0),
                maxN = ctx.intAttr("max_gram_length", 0),
                skips = ctx.intAttr("max_skip_count", 0);
  std::vector<int64_t> counts = ctx.intsAttr("ngram_counts"),
                       indexes = ctx.intsAttr("ngram_indexes"),
                       pool = ctx.intsAttr("pool_int64s");
  std::vector<float> weights;
  if (const onnx::AttributeProto *w = ctx.attr("weights"))
    weights.assign(w->floats().begin(), w->floats().end());
  if (minN < 1 || maxN < minN || skips < 0)
    return ctx.fail("takes 1 <= min_gram_length <= max_gram_length and a "
                    "max_skip_count of 0 or more");
  if (int64_t(counts.size()) < maxN)
    return ctx.fail("has " + llvm::Twine(counts.size()) +
                    " ngram_counts for n-grams of up to " + llvm::Twine(maxN));
  if (!weights.empty() && weights.size() != indexes.size())
    return ctx.fail("takes one weight per n-gram");
  int64_t width = out.getDimSize(out.getRank() - 1);
  if (mlir::ShapedType::isDynamic(width))
    return ctx.fail("makes rows of a size not known here: " + typeText(out));

  // The pool's n-grams of each n: [start, end) of the pool, and the index
  // of their first n-gram among all of them.
  struct Level {
    int64_t n, start, end, first;
  };
  std::vector<Level> levels;
  int64_t gramsBefore = 0;
  for (int64_t n = 1; n <= int64_t(counts.size()); ++n) {
    int64_t start = counts[n - 1];
    int64_t end = n < int64_t(counts.size()) ? counts[n] : pool.size();
    if (start < 0 || end < start || end > int64_t(pool.size()) ||
        (end - start) % n != 0)
      return ctx.fail("its ngram_counts do not divide its pool into n-grams");
    if (n >= minN && n <= maxN && end > start)
      levels.push_back({n, start, end, gramsBefore});
    gramsBefore += (end - start) / n;
  }
  if (int64_t(indexes.size()) != gramsBefore)
    return ctx.fail("has " + llvm::Twine(indexes.size()) +
                    " ngram_indexes for " + llvm::Twine(gramsBefore) +
                    " n-grams");
  for (int64_t i : indexes)
    if (i < 0 || i >= width)
      return ctx.fail("its ngram index " + llvm::Twine(i) +
                      " is outside its output of " + llvm::Twine(width));

  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  mlir::Value poolTable = i64Table(ctx, {int64_t(pool.size())}, pool);
  mlir::Value indexTable = i64Table(ctx, {int64_t(indexes.size())}, indexes);
  const bool batched = xType.getRank() == 2;
  mlir::Value rows = batched ? ctx.dim(x, 0) : indexConst(b, loc, 1);
  mlir::Value length = ctx.dim(x, batched ? 1 : 0);
  auto countType = mlir::RankedTensorType::get(
      {mlir::ShapedType::kDynamic, width}, b.getI64Type());
  mlir::Value zeros =
      ctx.filled(countType, ctx.scalar(b.getI64Type(), 0), {rows, nullptr});
  auto idAt = [&](mlir::OpBuilder &ib, mlir::Location l, mlir::Value row,
                  mlir::Value at) {
    llvm::SmallVector<mlir::Value> p;
    if (batched)
      p.push_back(row);
    p.push_back(at);
    return mlir::arith::ExtSIOp::create(
               ib, l, ib.getI64Type(),
               mlir::tensor::ExtractOp::create(ib, l, x, p))
        .getResult();
  };
  auto one = [&](mlir::OpBuilder &ib, mlir::Location l) {
    return indexConst(ib, l, 1);
  };

  // Loops: rows, then per level: starts, skips, the level's n-grams.
  mlir::Value tallied = zeros;
  for (const Level &level : levels) {
    const int64_t levelSkips = level.n == 1 ? 0 : skips;
    const int64_t grams = (level.end - level.start) / level.n;
    tallied = forEachPosition(
        b, loc,
        {rows, length, indexConst(b, loc, levelSkips + 1),
         indexConst(b, loc, grams)},
        mlir::ValueRange{tallied},
        [&](mlir::OpBuilder &ib, mlir::Location l, mlir::ValueRange p,
            mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
          mlir::Value row = p[0], start = p[1],
                      step =
                          mlir::arith::AddIOp::create(ib, l, p[2], one(ib, l));
          mlir::Value gram = p[3];
          // The n-gram's last id must lie in the row.
          mlir::Value lastAt = mlir::arith::AddIOp::create(
              ib, l, start,
              mlir::arith::MulIOp::create(ib, l, step,
                                          indexConst(ib, l, level.n - 1)));
          mlir::Value fits = mlir::arith::CmpIOp::create(
              ib, l, mlir::arith::CmpIPredicate::ult, lastAt, length);
          auto hit = mlir::scf::IfOp::create(
              ib, l, fits,
              [&](mlir::OpBuilder &t, mlir::Location tl) {
                mlir::Value same =
                    mlir::arith::ConstantIntOp::create(t, tl, 1, 1);
                mlir::Value base = mlir::arith::AddIOp::create(
                    t, tl, indexConst(t, tl, level.start),
                    mlir::arith::MulIOp::create(t, tl, gram,
                                                indexConst(t, tl, level.n)));
                for (int64_t k = 0; k < level.n; ++k) {
                  mlir::Value at = mlir::arith::AddIOp::create(
                      t, tl, start,
                      mlir::arith::MulIOp::create(t, tl, step,
                                                  indexConst(t, tl, k)));
                  mlir::Value want = mlir::tensor::ExtractOp::create(
                      t, tl, poolTable,
                      mlir::ValueRange{mlir::arith::AddIOp::create(
                          t, tl, base, indexConst(t, tl, k))});
                  same = mlir::arith::AndIOp::create(
                      t, tl, same,
                      mlir::arith::CmpIOp::create(
                          t, tl, mlir::arith::CmpIPredicate::eq,
                          idAt(t, tl, row, at), want));
                }
                mlir::scf::YieldOp::create(t, tl, mlir::ValueRange{same});
              },
              [&](mlir::OpBuilder &e, mlir::Location el) {
                mlir::scf::YieldOp::create(
                    e, el,
                    mlir::ValueRange{
                        mlir::arith::ConstantIntOp::create(e, el, 0, 1)});
              });
          auto counted = mlir::scf::IfOp::create(
              ib, l, hit.getResult(0),
              [&](mlir::OpBuilder &t, mlir::Location tl) {
                mlir::Value column = mlir::arith::IndexCastOp::create(
                    t, tl, t.getIndexType(),
                    mlir::tensor::ExtractOp::create(
                        t, tl, indexTable,
                        mlir::ValueRange{mlir::arith::AddIOp::create(
                            t, tl, gram, indexConst(t, tl, level.first))}));
                mlir::Value before = mlir::tensor::ExtractOp::create(
                    t, tl, acc[0], mlir::ValueRange{row, column});
                mlir::Value after = mlir::arith::AddIOp::create(
                    t, tl, before,
                    mlir::arith::ConstantOp::create(
                        t, tl, t.getIntegerAttr(t.getI64Type(), 1)));
                mlir::scf::YieldOp::create(
                    t, tl,
                    mlir::ValueRange{mlir::tensor::InsertOp::create(
                        t, tl, after, acc[0], mlir::ValueRange{row, column})});
              },
              [&](mlir::OpBuilder &e, mlir::Location el) {
                mlir::scf::YieldOp::create(e, el, acc);
              });
          return {counted.getResult(0)};
        })[0];
  }

  // Counts to the output: weighted per output index where asked.
  std::vector<float> columnWeight(width, 1.0f);
  for (std::size_t g = 0; g < weights.size(); ++g)
    columnWeight[indexes[g]] = weights[g];
  auto weightType = mlir::RankedTensorType::get({width}, b.getF32Type());
  mlir::Value weightTable = mlir::arith::ConstantOp::create(
      b, loc, weightType,
      mlir::DenseElementsAttr::get(weightType,
                                   llvm::ArrayRef<float>(columnWeight)));
  auto resultType = mlir::RankedTensorType::get(
      {mlir::ShapedType::kDynamic, width}, out.getElementType());
  mlir::Value result = forEachPosition(
      b, loc, {rows, indexConst(b, loc, width)},
      mlir::ValueRange{ctx.empty(resultType, {rows, nullptr})},
      [&](mlir::OpBuilder &ib, mlir::Location l, mlir::ValueRange p,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        mlir::Value count = mlir::arith::SIToFPOp::create(
            ib, l, ib.getF32Type(),
            mlir::tensor::ExtractOp::create(ib, l, tallied, p));
        mlir::Value w = mlir::tensor::ExtractOp::create(ib, l, weightTable,
                                                        mlir::ValueRange{p[1]});
        mlir::Value y = count;
        if (mode == "TFIDF")
          y = mlir::arith::MulFOp::create(ib, l, count, w);
        if (mode == "IDF")
          y = mlir::arith::SelectOp::create(
              ib, l,
              mlir::arith::CmpFOp::create(
                  ib, l, mlir::arith::CmpFPredicate::OGT, count,
                  floatConst(ib, l, ib.getF32Type(), 0)),
              w, floatConst(ib, l, ib.getF32Type(), 0));
        y = convertScalar(ib, l, y, out.getElementType());
        return {mlir::tensor::InsertOp::create(ib, l, y, acc[0], p)};
      })[0];
  if (!batched) {
    // The one row as the 1-D output.
    result = mlir::tensor::ExtractSliceOp::create(
        b, loc, mlir::RankedTensorType::get({width}, out.getElementType()),
        result,
        llvm::SmallVector<mlir::OpFoldResult>{b.getIndexAttr(0),
                                              b.getIndexAttr(0)},
        llvm::SmallVector<mlir::OpFoldResult>{b.getIndexAttr(1),
                                              b.getIndexAttr(width)},
        llvm::SmallVector<mlir::OpFoldResult>{b.getIndexAttr(1),
                                              b.getIndexAttr(1)});
  }
  ctx.setOutput(0, result);
  return mlir::success();
}

} // namespace

std::vector<OpConverter> ngramConverters() {
  return {{"TfIdfVectorizer", tfIdfVectorizer}};
}

} // namespace aot::onnx_import
