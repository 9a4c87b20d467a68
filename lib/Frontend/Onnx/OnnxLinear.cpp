//===- OnnxLinear.cpp - MatMul, Gemm, Einsum and Det ----------------------===//
//
// Contractions become the named ops the compiler's matmul path is tuned
// for where the shapes allow: linalg.matmul for two matrices and for a
// batch of rows times one matrix (the batch folded into the rows), and
// linalg.batch_matmul for equal batches; any other broadcast of batch dims
// is one linalg.generic contraction. A Gemm whose B is a constant it reads
// transposed gets the constant transposed once, here. Det eliminates each
// matrix in loops.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxLinear.h"
#include "Frontend/Onnx/OnnxElementwise.h"
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace aot::onnx_import {

namespace {

mlir::Value zeroFilled(NodeContext &ctx, mlir::RankedTensorType type,
                       llvm::ArrayRef<mlir::Value> dims) {
  return ctx.filled(type, ctx.scalar(type.getElementType(), 0), dims);
}

/// a (m x k) @ b (k x n) with linalg.matmul.
mlir::Value matmul2D(NodeContext &ctx, mlir::Value a, mlir::Value b,
                     mlir::RankedTensorType type) {
  mlir::Value init = zeroFilled(ctx, type, {ctx.dim(a, 0), ctx.dim(b, 1)});
  return mlir::linalg::MatmulOp::create(ctx.b, ctx.loc, mlir::TypeRange{type},
                                        mlir::ValueRange{a, b},
                                        mlir::ValueRange{init})
      .getResult(0);
}

/// The reassociation that folds dims 0..`last` of a rank-`rank` tensor
/// into one and keeps the rest.
llvm::SmallVector<mlir::ReassociationIndices> foldLeading(int64_t rank,
                                                          int64_t last) {
  llvm::SmallVector<mlir::ReassociationIndices> groups(1);
  for (int64_t d = 0; d <= last; ++d)
    groups[0].push_back(d);
  for (int64_t d = last + 1; d < rank; ++d)
    groups.push_back({d});
  return groups;
}

mlir::RankedTensorType
collapsedType(mlir::RankedTensorType t,
              llvm::ArrayRef<mlir::ReassociationIndices> groups) {
  llvm::SmallVector<int64_t> shape;
  for (const mlir::ReassociationIndices &g : groups) {
    int64_t n = 1;
    for (int64_t d : g)
      n = (n == mlir::ShapedType::kDynamic || t.isDynamicDim(d))
              ? mlir::ShapedType::kDynamic
              : n * t.getDimSize(d);
    shape.push_back(n);
  }
  return mlir::RankedTensorType::get(shape, t.getElementType());
}

/// The output's leading dims folded into the rows, one contraction, the
/// dims unfolded: [.., m, k] @ [k, n] or [B.., m, k] @ [B.., k, n].
mlir::Value foldedBatch(NodeContext &ctx, mlir::Value a, mlir::Value b,
                        mlir::RankedTensorType out, bool batched) {
  auto aType = llvm::cast<mlir::RankedTensorType>(a.getType());
  int64_t rank = aType.getRank();
  // Rows: everything but k (a 2-D matmul); batches: everything but m, k.
  int64_t last = batched ? rank - 3 : rank - 2;
  auto groups = foldLeading(rank, last);
  mlir::Value a2 = mlir::tensor::CollapseShapeOp::create(
      ctx.b, ctx.loc, collapsedType(aType, groups), a, groups);
  mlir::Value r;
  mlir::RankedTensorType flatOut;
  if (!batched) {
    auto bType = llvm::cast<mlir::RankedTensorType>(b.getType());
    flatOut = mlir::RankedTensorType::get(
        {llvm::cast<mlir::RankedTensorType>(a2.getType()).getDimSize(0),
         bType.getDimSize(1)},
        out.getElementType());
    r = matmul2D(ctx, a2, b, flatOut);
  } else {
    auto bType = llvm::cast<mlir::RankedTensorType>(b.getType());
    mlir::Value b2 = mlir::tensor::CollapseShapeOp::create(
        ctx.b, ctx.loc, collapsedType(bType, groups), b, groups);
    auto a2Type = llvm::cast<mlir::RankedTensorType>(a2.getType());
    auto b2Type = llvm::cast<mlir::RankedTensorType>(b2.getType());
    flatOut = mlir::RankedTensorType::get(
        {a2Type.getDimSize(0), a2Type.getDimSize(1), b2Type.getDimSize(2)},
        out.getElementType());
    mlir::Value init = zeroFilled(
        ctx, flatOut, {ctx.dim(a2, 0), ctx.dim(a2, 1), ctx.dim(b2, 2)});
    r = mlir::linalg::BatchMatmulOp::create(
            ctx.b, ctx.loc, mlir::TypeRange{flatOut}, mlir::ValueRange{a2, b2},
            mlir::ValueRange{init})
            .getResult(0);
  }
  // Unfold: the output's dims, from a's leading dims and r's last.
  llvm::SmallVector<mlir::OpFoldResult> sizes;
  for (int64_t d = 0; d < out.getRank(); ++d) {
    if (!out.isDynamicDim(d)) {
      sizes.push_back(ctx.b.getIndexAttr(out.getDimSize(d)));
      continue;
    }
    sizes.push_back(d == out.getRank() - 1 ? ctx.dim(r, flatOut.getRank() - 1)
                                           : ctx.dim(a, d));
  }
  auto outGroups = foldLeading(out.getRank(), last);
  return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, out, r, outGroups,
                                             sizes);
}

/// Any broadcast of batch dims: one linalg.generic, the output's dims then
/// k, each operand's batch dims aligned from the right.
mlir::Value contraction(NodeContext &ctx, mlir::Value a, mlir::Value b,
                        mlir::RankedTensorType out) {
  mlir::MLIRContext *mctx = ctx.b.getContext();
  int64_t rank = out.getRank();
  auto operandMap = [&](mlir::Value v, bool isA) {
    auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
    int64_t offset = rank - t.getRank();
    llvm::SmallVector<mlir::AffineExpr> exprs;
    for (int64_t j = 0; j < t.getRank() - 2; ++j) {
      int64_t d = offset + j;
      exprs.push_back(t.getDimSize(j) == 1 && out.getDimSize(d) != 1
                          ? mlir::getAffineConstantExpr(0, mctx)
                          : mlir::getAffineDimExpr(d, mctx));
    }
    mlir::AffineExpr k = mlir::getAffineDimExpr(rank, mctx);
    if (isA) {
      exprs.push_back(mlir::getAffineDimExpr(rank - 2, mctx));
      exprs.push_back(k);
    } else {
      exprs.push_back(k);
      exprs.push_back(mlir::getAffineDimExpr(rank - 1, mctx));
    }
    return mlir::AffineMap::get(rank + 1, 0, exprs, mctx);
  };
  llvm::SmallVector<mlir::Value> dims(rank);
  auto aType = llvm::cast<mlir::RankedTensorType>(a.getType());
  auto bType = llvm::cast<mlir::RankedTensorType>(b.getType());
  for (int64_t d = 0; d < rank; ++d) {
    if (!out.isDynamicDim(d))
      continue;
    if (d == rank - 1)
      dims[d] = ctx.dim(b, bType.getRank() - 1);
    else if (d == rank - 2)
      dims[d] = ctx.dim(a, aType.getRank() - 2);
    else if (d - (rank - aType.getRank()) >= 0 &&
             aType.getDimSize(d - (rank - aType.getRank())) != 1)
      dims[d] = ctx.dim(a, d - (rank - aType.getRank()));
    else
      dims[d] = ctx.dim(b, d - (rank - bType.getRank()));
  }
  mlir::Value init = zeroFilled(ctx, out, dims);
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      rank, mlir::utils::IteratorType::parallel);
  iterators.push_back(mlir::utils::IteratorType::reduction);
  llvm::SmallVector<mlir::AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(mlir::getAffineDimExpr(d, mctx));
  llvm::SmallVector<mlir::AffineMap> maps = {
      operandMap(a, true), operandMap(b, false),
      mlir::AffineMap::get(rank + 1, 0, outExprs, mctx)};
  return mlir::linalg::GenericOp::create(
             ctx.b, ctx.loc, mlir::TypeRange{out}, mlir::ValueRange{a, b},
             mlir::ValueRange{init}, maps, iterators,
             [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
               // Operands narrower than the result are extended to it, as
               // linalg.matmul does.
               mlir::Type acc = v[2].getType();
               mlir::Value x = convertScalar(b, loc, v[0], acc);
               mlir::Value y = convertScalar(b, loc, v[1], acc);
               mlir::Value r;
               if (isFloatType(acc))
                 r = mlir::arith::AddFOp::create(
                     b, loc, v[2], mlir::arith::MulFOp::create(b, loc, x, y));
               else
                 r = mlir::arith::AddIOp::create(
                     b, loc, v[2], mlir::arith::MulIOp::create(b, loc, x, y));
               mlir::linalg::YieldOp::create(b, loc, r);
             })
      .getResult(0);
}

/// `v` with a unit dim inserted at `at` (for a 1-D MatMul operand).
mlir::Value withUnitDim(NodeContext &ctx, mlir::Value v, int64_t at) {
  auto t = llvm::cast<mlir::RankedTensorType>(v.getType());
  llvm::SmallVector<int64_t> shape(t.getShape());
  shape.insert(shape.begin() + at, 1);
  auto type = mlir::RankedTensorType::get(shape, t.getElementType());
  llvm::SmallVector<mlir::ReassociationIndices> groups;
  for (int64_t j = 0; j < t.getRank(); ++j)
    groups.push_back({j + (j >= at ? 1 : 0)});
  if (at < t.getRank())
    groups[at].insert(groups[at].begin(), at);
  else
    groups.back().push_back(at);
  return mlir::tensor::ExpandShapeOp::create(ctx.b, ctx.loc, type, v, groups);
}

} // namespace

mlir::Value matMulOf(NodeContext &ctx, mlir::Value a, mlir::Value b,
                     mlir::RankedTensorType out) {
  auto aType = llvm::cast<mlir::RankedTensorType>(a.getType());
  auto bType = llvm::cast<mlir::RankedTensorType>(b.getType());
  if (aType.getRank() == 0 || bType.getRank() == 0)
    return (void)ctx.fail("takes no scalars"), nullptr;
  // 1-D operands as numpy treats them: a row, a column, removed after.
  bool rowVector = aType.getRank() == 1, columnVector = bType.getRank() == 1;
  if (rowVector)
    a = withUnitDim(ctx, a, 0);
  if (columnVector)
    b = withUnitDim(ctx, b, 1);
  aType = llvm::cast<mlir::RankedTensorType>(a.getType());
  bType = llvm::cast<mlir::RankedTensorType>(b.getType());
  llvm::SmallVector<int64_t> shape(out.getShape());
  if (rowVector)
    shape.insert(shape.end() - (columnVector ? 0 : 1), 1);
  if (columnVector)
    shape.push_back(1);
  auto full = mlir::RankedTensorType::get(shape, out.getElementType());
  mlir::Value r;
  bool sameBatch =
      aType.getRank() == bType.getRank() &&
      aType.getShape().drop_back(2) == bType.getShape().drop_back(2) &&
      !llvm::any_of(aType.getShape().drop_back(2), mlir::ShapedType::isDynamic);
  if (aType.getRank() == 2 && bType.getRank() == 2)
    r = matmul2D(ctx, a, b, full);
  else if (bType.getRank() == 2)
    r = foldedBatch(ctx, a, b, full, /*batched=*/false);
  else if (sameBatch)
    r = foldedBatch(ctx, a, b, full, /*batched=*/true);
  else
    r = contraction(ctx, a, b, full);
  if (rowVector || columnVector) {
    // Fold the unit dims back into their neighbours.
    llvm::SmallVector<mlir::ReassociationIndices> groups;
    int64_t d = 0;
    for (int64_t k = 0; k < out.getRank(); ++k) {
      mlir::ReassociationIndices g = {d++};
      groups.push_back(g);
    }
    int64_t extra = full.getRank() - out.getRank();
    if (out.getRank() == 0) {
      groups.clear();
    } else {
      for (int64_t e = 0; e < extra; ++e)
        groups.back().push_back(d++);
    }
    r = mlir::tensor::CollapseShapeOp::create(ctx.b, ctx.loc, out, r, groups);
  }
  return r;
}

namespace {

mlir::LogicalResult matMul(NodeContext &ctx) {
  mlir::Value a = ctx.input(0), b = ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!a || !b || !out)
    return mlir::failure();
  ctx.setOutput(0, matMulOf(ctx, a, b, out));
  return mlir::success();
}

/// Input `i` of a Gemm read transposed: the constant transposed here, or
/// a linalg.transpose.
mlir::Value transposedInput(NodeContext &ctx, int i) {
  mlir::RankedTensorType t = ctx.inputType(i);
  if (!t)
    return nullptr;
  auto type = mlir::RankedTensorType::get({t.getDimSize(1), t.getDimSize(0)},
                                          t.getElementType());
  if (t.hasStaticShape())
    if (std::optional<std::string> bytes = ctx.constantBytes(i))
      return ctx.constant(
          type, transposedBytes(*bytes, t.getDimSize(0), t.getDimSize(1),
                                t.getElementTypeBitWidth() / 8));
  mlir::Value v = ctx.input(i);
  if (!v)
    return nullptr;
  return transposed(ctx.b, ctx.loc, v, {1, 0});
}

/// Y = alpha * A' @ B' + beta * C.
mlir::LogicalResult gemm(NodeContext &ctx) {
  mlir::Value a =
      ctx.intAttr("transA", 0) ? transposedInput(ctx, 0) : ctx.input(0);
  mlir::Value b =
      ctx.intAttr("transB", 0) ? transposedInput(ctx, 1) : ctx.input(1);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!a || !b || !out)
    return mlir::failure();
  mlir::Value y = matmul2D(ctx, a, b, out);
  double alpha = ctx.floatAttr("alpha", 1.0f);
  double beta = ctx.floatAttr("beta", 1.0f);
  llvm::SmallVector<mlir::Value> inputs = {y};
  bool withC = ctx.hasInput(2) && beta != 0;
  if (withC) {
    mlir::Value c = ctx.input(2);
    if (!c)
      return mlir::failure();
    inputs.push_back(c);
  }
  if (alpha != 1 || withC)
    y = elementwise(ctx, inputs, out,
                    [=](mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange v, mlir::Type t) -> mlir::Value {
                      auto k = [&](double x) {
                        return mlir::arith::ConstantOp::create(
                            b, loc, b.getFloatAttr(t, x));
                      };
                      mlir::Value r = v[0];
                      if (alpha != 1)
                        r = mlir::arith::MulFOp::create(b, loc, r, k(alpha));
                      if (v.size() > 1) {
                        mlir::Value c = v[1];
                        if (beta != 1)
                          c = mlir::arith::MulFOp::create(b, loc, c, k(beta));
                        r = mlir::arith::AddFOp::create(b, loc, r, c);
                      }
                      return r;
                    });
  ctx.setOutput(0, y);
  return mlir::success();
}

/// Einsum as one linalg.generic contraction: a loop per letter, the
/// output's letters parallel, the others reductions. An ellipsis stands
/// for the leading dims not named, broadcast as numpy does; a letter
/// repeated in one term reads its diagonal.
mlir::LogicalResult einsum(NodeContext &ctx) {
  std::string equation;
  for (char c : ctx.stringAttr("equation", ""))
    if (c != ' ')
      equation += c;
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  int n = ctx.node().input_size();
  llvm::SmallVector<mlir::Value> inputs;
  for (int i = 0; i < n; ++i) {
    inputs.push_back(ctx.input(i));
    if (!inputs.back())
      return mlir::failure();
  }
  size_t arrow = equation.find("->");
  std::string lhs = equation.substr(0, arrow);
  llvm::SmallVector<llvm::StringRef> terms;
  llvm::StringRef(lhs).split(terms, ',');
  if (int(terms.size()) != n)
    return ctx.fail("equation '" + equation + "' has " +
                    llvm::Twine(terms.size()) + " terms for " + llvm::Twine(n) +
                    " inputs");
  // Letters not in the equation stand for the dims of the ellipsis.
  std::string spare;
  for (char c = 'A'; c <= 'Z'; ++c)
    if (equation.find(c) == std::string::npos)
      spare += c;
  int64_t ellipsisRank = 0;
  llvm::SmallVector<std::string> named;
  for (int i = 0; i < n; ++i) {
    std::string term = terms[i].str();
    int64_t rank =
        llvm::cast<mlir::RankedTensorType>(inputs[i].getType()).getRank();
    size_t dots = term.find("...");
    int64_t letters =
        int64_t(term.size()) - (dots == std::string::npos ? 0 : 3);
    if (dots == std::string::npos ? letters != rank : letters > rank)
      return ctx.fail("term '" + term + "' of equation '" + equation +
                      "' does not match input " + llvm::Twine(i) + " of rank " +
                      llvm::Twine(rank));
    if (dots != std::string::npos) {
      int64_t extra = rank - letters;
      ellipsisRank = std::max(ellipsisRank, extra);
      term =
          term.substr(0, dots) +
          spare.substr(spare.size() - std::min<size_t>(extra, spare.size())) +
          term.substr(dots + 3);
    }
    named.push_back(term);
  }
  if (ellipsisRank > int64_t(spare.size()))
    return ctx.fail("equation '" + equation + "' has too many dims");
  std::string ellipsis = spare.substr(spare.size() - ellipsisRank);
  std::string result;
  if (arrow != std::string::npos) {
    result = equation.substr(arrow + 2);
    size_t dots = result.find("...");
    if (dots != std::string::npos)
      result = result.substr(0, dots) + ellipsis + result.substr(dots + 3);
  } else {
    // Implicit output: the ellipsis, then the letters used once, sorted.
    std::string once;
    for (char c = 'a'; c <= 'z'; ++c) {
      int uses = 0;
      for (const std::string &t : named)
        uses += int(std::count(t.begin(), t.end(), c));
      if (uses == 1)
        once += c;
    }
    result = ellipsis + once;
  }
  for (char c : result)
    if (!std::isalpha(static_cast<unsigned char>(c)) ||
        std::count(result.begin(), result.end(), c) != 1)
      return ctx.fail("equation '" + equation +
                      "' has an output term that is not distinct letters");
  if (int64_t(result.size()) != out.getRank())
    return ctx.fail("equation '" + equation + "' gives rank " +
                    llvm::Twine(result.size()) + ", the output has rank " +
                    llvm::Twine(out.getRank()));
  // Loops: the output's letters, then the summed ones.
  std::string loops = result;
  for (const std::string &t : named)
    for (char c : t) {
      if (!std::isalpha(static_cast<unsigned char>(c)))
        return ctx.fail("equation '" + equation + "' is malformed");
      if (loops.find(c) == std::string::npos)
        loops += c;
    }
  // Where a letter's size comes from: a dim not of static size 1 where
  // there is one (the others broadcast), else any.
  llvm::SmallVector<std::pair<int, int64_t>> source(loops.size(), {-1, 0});
  for (int i = 0; i < n; ++i) {
    auto t = llvm::cast<mlir::RankedTensorType>(inputs[i].getType());
    for (int64_t d = 0; d < t.getRank(); ++d) {
      auto &s = source[loops.find(named[i][d])];
      if (s.first < 0 || t.getDimSize(d) != 1)
        s = {i, d};
    }
  }
  for (size_t d = 0; d < result.size(); ++d)
    if (source[d].first < 0)
      return ctx.fail("equation '" + equation + "' has output letter '" +
                      llvm::Twine(result[d]) + "' in no input");
  mlir::MLIRContext *mctx = ctx.b.getContext();
  llvm::SmallVector<mlir::AffineMap> maps;
  for (int i = 0; i < n; ++i) {
    auto t = llvm::cast<mlir::RankedTensorType>(inputs[i].getType());
    llvm::SmallVector<mlir::AffineExpr> exprs;
    for (int64_t d = 0; d < t.getRank(); ++d) {
      size_t loop = loops.find(named[i][d]);
      auto [si, sd] = source[loop];
      auto st = llvm::cast<mlir::RankedTensorType>(inputs[si].getType());
      bool broadcast = t.getDimSize(d) == 1 && st.getDimSize(sd) != 1;
      exprs.push_back(broadcast ? mlir::getAffineConstantExpr(0, mctx)
                                : mlir::getAffineDimExpr(loop, mctx));
    }
    maps.push_back(mlir::AffineMap::get(loops.size(), 0, exprs, mctx));
  }
  // The output's dims are the first loops (none for a scalar result).
  llvm::SmallVector<mlir::AffineExpr> outExprs;
  for (size_t d = 0; d < result.size(); ++d)
    outExprs.push_back(mlir::getAffineDimExpr(d, mctx));
  maps.push_back(mlir::AffineMap::get(loops.size(), 0, outExprs, mctx));
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      loops.size(), mlir::utils::IteratorType::reduction);
  llvm::SmallVector<mlir::Value> dims(out.getRank());
  for (size_t d = 0; d < result.size(); ++d) {
    iterators[d] = mlir::utils::IteratorType::parallel;
    if (out.isDynamicDim(d))
      dims[d] = ctx.dim(inputs[source[d].first], source[d].second);
  }
  mlir::Type element = out.getElementType();
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{out}, inputs,
      mlir::ValueRange{zeroFilled(ctx, out, dims)}, maps, iterators,
      [&](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::Value product = v[0];
        for (int i = 1; i < n; ++i)
          product =
              isFloatType(element)
                  ? mlir::Value(
                        mlir::arith::MulFOp::create(b, loc, product, v[i]))
                  : mlir::Value(
                        mlir::arith::MulIOp::create(b, loc, product, v[i]));
        mlir::Value sum =
            isFloatType(element)
                ? mlir::Value(
                      mlir::arith::AddFOp::create(b, loc, v[n], product))
                : mlir::Value(
                      mlir::arith::AddIOp::create(b, loc, v[n], product));
        mlir::linalg::YieldOp::create(b, loc, sum);
      });
  ctx.setOutput(0, generic.getResult(0));
  return mlir::success();
}

/// Det: the determinant of each matrix of the last two dims, by Gaussian
/// elimination with partial pivoting (as LAPACK's getrf, which numpy and
/// PyTorch call): the product of the pivots, negated per row swap. A zero
/// pivot makes it 0 (the columns below it are then left as they are).
mlir::LogicalResult det(NodeContext &ctx) {
  mlir::Value x = ctx.input(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!x || !out)
    return mlir::failure();
  auto xType = llvm::cast<mlir::RankedTensorType>(x.getType());
  const int64_t rank = xType.getRank();
  mlir::Type f = xType.getElementType();
  if (rank < 2 || !isFloatType(f))
    return ctx.fail("takes float matrices (a tensor of rank 2 or more)");
  if (out.getRank() != rank - 2)
    return ctx.fail("its output is not of rank " + llvm::Twine(rank - 2));
  int64_t rows = xType.getDimSize(rank - 2), cols = xType.getDimSize(rank - 1);
  if (!mlir::ShapedType::isDynamic(rows) &&
      !mlir::ShapedType::isDynamic(cols) && rows != cols)
    return ctx.fail("takes square matrices, not " + llvm::Twine(rows) + "x" +
                    llvm::Twine(cols));
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  mlir::Value n = ctx.dim(x, rank - 1);
  auto square = mlir::RankedTensorType::get({cols, cols}, f);
  mlir::OpFoldResult side = mlir::ShapedType::isDynamic(cols)
                                ? mlir::OpFoldResult(n)
                                : mlir::OpFoldResult(b.getIndexAttr(cols));
  llvm::SmallVector<mlir::Value> batch;
  for (int64_t d = 0; d < rank - 2; ++d)
    batch.push_back(ctx.dim(x, d));
  llvm::SmallVector<mlir::Value> dims;
  for (int64_t d = 0; d < rank - 2; ++d)
    dims.push_back(out.isDynamicDim(d) ? batch[d] : nullptr);
  mlir::Value result = ctx.empty(out, dims);
  auto forRange = [&](mlir::OpBuilder &b, mlir::Value lo, mlir::Value hi,
                      mlir::ValueRange acc,
                      llvm::function_ref<llvm::SmallVector<mlir::Value>(
                          mlir::OpBuilder &, mlir::Value, mlir::ValueRange)>
                          body) {
    auto loop = mlir::scf::ForOp::create(
        b, loc, lo, hi, indexConst(b, loc, 1), acc,
        [&](mlir::OpBuilder &in, mlir::Location, mlir::Value i,
            mlir::ValueRange args) {
          mlir::scf::YieldOp::create(in, loc, body(in, i, args));
        });
    return llvm::SmallVector<mlir::Value>(loop.getResults());
  };
  auto at = [&](mlir::OpBuilder &b, mlir::Value a, mlir::Value i,
                mlir::Value j) -> mlir::Value {
    return mlir::tensor::ExtractOp::create(b, loc, a, mlir::ValueRange{i, j});
  };
  auto put = [&](mlir::OpBuilder &b, mlir::Value v, mlir::Value a,
                 mlir::Value i, mlir::Value j) -> mlir::Value {
    return mlir::tensor::InsertOp::create(b, loc, v, a, mlir::ValueRange{i, j});
  };
  llvm::SmallVector<mlir::Value> written = forEachPosition(
      b, loc, batch, mlir::ValueRange{result},
      [&](mlir::OpBuilder &b, mlir::Location, mlir::ValueRange p,
          mlir::ValueRange acc) -> llvm::SmallVector<mlir::Value> {
        // This matrix, a tensor of its own that elimination rewrites.
        llvm::SmallVector<mlir::OpFoldResult> offsets, sizes,
            strides(rank, b.getIndexAttr(1));
        for (int64_t d = 0; d < rank - 2; ++d) {
          offsets.push_back(p[d]);
          sizes.push_back(b.getIndexAttr(1));
        }
        offsets.append(2, b.getIndexAttr(0));
        sizes.append(2, side);
        mlir::Value a = mlir::tensor::ExtractSliceOp::create(
            b, loc, square, x, offsets, sizes, strides);
        mlir::Value zero = floatConst(b, loc, f, 0);
        auto steps = forRange(
            b, indexConst(b, loc, 0), n,
            mlir::ValueRange{a, floatConst(b, loc, f, 1)},
            [&](mlir::OpBuilder &b, mlir::Value k, mlir::ValueRange s) {
              mlir::Value a = s[0], d = s[1];
              // The row from k on whose element in column k is largest.
              auto magnitude = [&](mlir::OpBuilder &b, mlir::Value v) {
                return mlir::math::AbsFOp::create(b, loc, v).getResult();
              };
              auto pivot = forRange(
                  b, k, n, mlir::ValueRange{k, magnitude(b, at(b, a, k, k))},
                  [&](mlir::OpBuilder &b, mlir::Value i, mlir::ValueRange m) {
                    mlir::Value v = magnitude(b, at(b, a, i, k));
                    mlir::Value larger = mlir::arith::CmpFOp::create(
                        b, loc, mlir::arith::CmpFPredicate::OGT, v, m[1]);
                    return llvm::SmallVector<mlir::Value>{
                        mlir::arith::SelectOp::create(b, loc, larger, i, m[0]),
                        mlir::arith::SelectOp::create(b, loc, larger, v, m[1])};
                  });
              mlir::Value r = pivot[0];
              // Rows k and r swapped (nothing where r is k).
              a = forRange(
                  b, indexConst(b, loc, 0), n, mlir::ValueRange{a},
                  [&](mlir::OpBuilder &b, mlir::Value j, mlir::ValueRange t) {
                    mlir::Value top = at(b, t[0], k, j);
                    mlir::Value low = at(b, t[0], r, j);
                    mlir::Value u = put(b, low, t[0], k, j);
                    return llvm::SmallVector<mlir::Value>{put(b, top, u, r, j)};
                  })[0];
              mlir::Value swapped = mlir::arith::CmpIOp::create(
                  b, loc, mlir::arith::CmpIPredicate::ne, r, k);
              d = mlir::arith::SelectOp::create(
                  b, loc, swapped, mlir::arith::NegFOp::create(b, loc, d), d);
              mlir::Value piv = at(b, a, k, k);
              d = mlir::arith::MulFOp::create(b, loc, d, piv);
              mlir::Value singular = mlir::arith::CmpFOp::create(
                  b, loc, mlir::arith::CmpFPredicate::OEQ, piv, zero);
              mlir::Value next =
                  mlir::arith::AddIOp::create(b, loc, k, indexConst(b, loc, 1));
              // Each row below: less its factor times row k.
              a = forRange(
                  b, next, n, mlir::ValueRange{a},
                  [&](mlir::OpBuilder &b, mlir::Value i, mlir::ValueRange t) {
                    mlir::Value factor = mlir::arith::SelectOp::create(
                        b, loc, singular, zero,
                        mlir::arith::DivFOp::create(b, loc, at(b, t[0], i, k),
                                                    piv));
                    return forRange(
                        b, next, n, mlir::ValueRange{t[0]},
                        [&](mlir::OpBuilder &b, mlir::Value j,
                            mlir::ValueRange u) {
                          mlir::Value v = mlir::arith::SubFOp::create(
                              b, loc, at(b, u[0], i, j),
                              mlir::arith::MulFOp::create(b, loc, factor,
                                                          at(b, u[0], k, j)));
                          return llvm::SmallVector<mlir::Value>{
                              put(b, v, u[0], i, j)};
                        });
                  })[0];
              return llvm::SmallVector<mlir::Value>{a, d};
            });
        return {mlir::tensor::InsertOp::create(b, loc, steps[1], acc[0], p)
                    .getResult()};
      });
  ctx.setOutput(0, written[0]);
  return mlir::success();
}

} // namespace

std::vector<OpConverter> linearConverters() {
  return {{"MatMul", matMul}, {"Gemm", gemm}, {"Einsum", einsum}, {"Det", det}};
}

} // namespace aot::onnx_import
