//===- FoldTosaShapes.cpp - aot-fold-tosa-shapes --------------------------===//
//
// TOSA's shape operators (tosa.dim, tosa.add_shape, tosa.concat_shape, ...)
// compute the !tosa.shape operands of ops such as tosa.reshape; no upstream
// pass lowers them, and the TOSA lowerings need those operands constant.
// Here each one whose operands are known when compiling becomes the
// tosa.const_shape of its value (a static dim, or shapes that are
// themselves constant); one that is not is an error at its location.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"

#include <bit>

namespace aot {
#define GEN_PASS_DEF_FOLDTOSASHAPES
#include "Transforms/Common/Passes.h.inc"

namespace {

using Values = llvm::SmallVector<int64_t>;

/// The values of a shape that a tosa.const_shape defines.
std::optional<Values> constantShape(mlir::Value v) {
  auto def = v.getDefiningOp<mlir::tosa::ConstShapeOp>();
  if (!def)
    return std::nullopt;
  Values values;
  for (const llvm::APInt &x : def.getValues().getValues<llvm::APInt>())
    values.push_back(x.getSExtValue());
  return values;
}

/// The single i32 of a tensor<1xi32> constant.
std::optional<int64_t> constantScalar(mlir::Value v) {
  mlir::DenseIntElementsAttr attr;
  if (!mlir::matchPattern(v, mlir::m_Constant(&attr)) ||
      attr.getNumElements() != 1)
    return std::nullopt;
  return (*attr.getValues<llvm::APInt>().begin()).getSExtValue();
}

/// `a op b` element by element; nullopt where op is undefined (a zero
/// divisor, a negative shape).
template <typename Fn>
std::optional<Values> elementwise(const Values &a, const Values &b, Fn fn) {
  if (a.size() != b.size())
    return std::nullopt;
  Values out;
  for (size_t i = 0; i < a.size(); ++i) {
    std::optional<int64_t> v = fn(a[i], b[i]);
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

template <typename Fn> std::optional<Values> unary(const Values &a, Fn fn) {
  Values out;
  for (int64_t x : a) {
    std::optional<int64_t> v = fn(x);
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

/// The value of shape op `op`, if its operands are known.
std::optional<Values> fold(mlir::Operation *op) {
  using Opt = std::optional<int64_t>;
  if (auto dim = llvm::dyn_cast<mlir::tosa::DimOp>(op)) {
    auto type = llvm::cast<mlir::ShapedType>(dim.getInput1().getType());
    int64_t axis = dim.getAxis();
    if (axis < 0 || axis >= type.getRank() || type.isDynamicDim(axis))
      return std::nullopt;
    return Values{type.getDimSize(axis)};
  }
  if (auto concat = llvm::dyn_cast<mlir::tosa::ConcatShapeOp>(op)) {
    Values out;
    for (mlir::Value in : concat.getInput()) {
      std::optional<Values> part = constantShape(in);
      if (!part)
        return std::nullopt;
      out.append(*part);
    }
    return out;
  }
  if (auto slice = llvm::dyn_cast<mlir::tosa::SliceShapeOp>(op)) {
    std::optional<Values> in = constantShape(slice.getInput());
    Opt start = constantScalar(slice.getStart());
    Opt size = constantScalar(slice.getSize());
    if (!in || !start || !size || *start < 0 || *size < 0 ||
        *start + *size > int64_t(in->size()))
      return std::nullopt;
    return Values(in->begin() + *start, in->begin() + *start + *size);
  }
  if (op->getNumOperands() == 1) {
    std::optional<Values> a = constantShape(op->getOperand(0));
    if (!a)
      return std::nullopt;
    auto log2 = [](int64_t x, bool ceil) -> Opt {
      if (x <= 0)
        return std::nullopt;
      int64_t floor = 63 - std::countl_zero(uint64_t(x));
      return ceil && (int64_t(1) << floor) != x ? floor + 1 : floor;
    };
    if (llvm::isa<mlir::tosa::Exp2ShapeOp>(op))
      return unary(*a, [](int64_t x) -> Opt {
        return x >= 0 && x < 63 ? Opt(int64_t(1) << x) : std::nullopt;
      });
    if (llvm::isa<mlir::tosa::Log2CeilShapeOp>(op))
      return unary(*a, [&](int64_t x) { return log2(x, true); });
    if (llvm::isa<mlir::tosa::Log2FloorShapeOp>(op))
      return unary(*a, [&](int64_t x) { return log2(x, false); });
    return std::nullopt;
  }
  if (op->getNumOperands() != 2)
    return std::nullopt;
  std::optional<Values> a = constantShape(op->getOperand(0));
  std::optional<Values> b = constantShape(op->getOperand(1));
  if (!a || !b)
    return std::nullopt;
  auto nonZero = [](int64_t y) { return y != 0; };
  if (llvm::isa<mlir::tosa::AddShapeOp>(op))
    return elementwise(*a, *b,
                       [](int64_t x, int64_t y) -> Opt { return x + y; });
  if (llvm::isa<mlir::tosa::SubShapeOp>(op))
    return elementwise(*a, *b,
                       [](int64_t x, int64_t y) -> Opt { return x - y; });
  if (llvm::isa<mlir::tosa::MulShapeOp>(op))
    return elementwise(*a, *b,
                       [](int64_t x, int64_t y) -> Opt { return x * y; });
  if (llvm::isa<mlir::tosa::MaxShapeOp>(op))
    return elementwise(
        *a, *b, [](int64_t x, int64_t y) -> Opt { return std::max(x, y); });
  if (llvm::isa<mlir::tosa::MinShapeOp>(op))
    return elementwise(
        *a, *b, [](int64_t x, int64_t y) -> Opt { return std::min(x, y); });
  if (llvm::isa<mlir::tosa::DivFloorShapeOp>(op))
    return elementwise(*a, *b, [&](int64_t x, int64_t y) -> Opt {
      if (!nonZero(y))
        return std::nullopt;
      int64_t q = x / y;
      return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
    });
  if (llvm::isa<mlir::tosa::DivCeilShapeOp>(op))
    return elementwise(*a, *b, [&](int64_t x, int64_t y) -> Opt {
      if (!nonZero(y))
        return std::nullopt;
      int64_t q = x / y;
      return (x % y != 0 && ((x < 0) == (y < 0))) ? q + 1 : q;
    });
  if (llvm::isa<mlir::tosa::ModShapeOp>(op))
    return elementwise(*a, *b, [&](int64_t x, int64_t y) -> Opt {
      return nonZero(y) ? Opt(x % y) : std::nullopt;
    });
  return std::nullopt;
}

bool isShapeOperator(mlir::Operation *op) {
  return llvm::isa<mlir::tosa::DimOp, mlir::tosa::ConcatShapeOp,
                   mlir::tosa::SliceShapeOp, mlir::tosa::AddShapeOp,
                   mlir::tosa::SubShapeOp, mlir::tosa::MulShapeOp,
                   mlir::tosa::MaxShapeOp, mlir::tosa::MinShapeOp,
                   mlir::tosa::DivFloorShapeOp, mlir::tosa::DivCeilShapeOp,
                   mlir::tosa::ModShapeOp, mlir::tosa::Exp2ShapeOp,
                   mlir::tosa::Log2CeilShapeOp, mlir::tosa::Log2FloorShapeOp>(
      op);
}

struct FoldTosaShapesPass : impl::FoldTosaShapesBase<FoldTosaShapesPass> {
  void runOnOperation() override {
    llvm::SmallVector<mlir::Operation *> shapeOps;
    getOperation()->walk([&](mlir::Operation *op) {
      if (isShapeOperator(op))
        shapeOps.push_back(op);
    });
    // In order: an op's operands are folded before it.
    for (mlir::Operation *op : shapeOps) {
      std::optional<Values> value = fold(op);
      if (!value) {
        op->emitOpError("needs shapes known when compiling (constant shapes, "
                        "static dims) with a defined result; the compiled "
                        "code cannot compute shapes");
        return signalPassFailure();
      }
      mlir::OpBuilder b(op);
      auto attr = mlir::DenseIntElementsAttr::get(
          mlir::RankedTensorType::get({int64_t(value->size())},
                                      b.getIndexType()),
          llvm::ArrayRef<int64_t>(*value));
      mlir::Value folded = mlir::tosa::ConstShapeOp::create(
          b, op->getLoc(), op->getResult(0).getType(), attr);
      op->getResult(0).replaceAllUsesWith(folded);
      op->erase();
    }
    // The ops that take the shapes check them against their types now
    // that they are constant (a reshape to a shape its result type does
    // not have is an error here, at the op, not invalid IR later).
    llvm::SetVector<mlir::Operation *> users;
    getOperation()->walk([&](mlir::tosa::ConstShapeOp c) {
      for (mlir::Operation *user : c->getUsers())
        users.insert(user);
    });
    for (mlir::Operation *user : users)
      if (mlir::failed(mlir::verify(user)))
        return signalPassFailure();
  }
};

} // namespace
} // namespace aot
