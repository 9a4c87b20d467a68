//===- OnnxQuant.cpp - quantized tensors: scales, zero points, int8 math --===//
//
// ONNX's two quantized forms: QDQ (QuantizeLinear / DequantizeLinear around
// float ops) and the integer ops (MatMulInteger, ConvInteger, QLinearMatMul,
// QLinearConv). uint8 is i8 here, read unsigned where the ONNX type says so.
// The integer ops subtract the zero points in i16, where every difference
// of two 8-bit values fits, and contract in i32, exactly; operands of int8
// without zero points go to the contraction as they are (the compiler's
// int8 matmul). Requantizing is in f32, rounding half to even, saturating.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Onnx/OnnxConv.h"
#include "Frontend/Onnx/OnnxElementwise.h"
#include "Frontend/Onnx/OnnxLinear.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>
#include <optional>
#include <utility>

namespace aot::onnx_import {

namespace {

/// Per tensor only, for quantParam.
constexpr int64_t kPerTensor = std::numeric_limits<int64_t>::min();

/// The quantization parameter input `i` (a scale or a zero point, named
/// `what`) of a tensor of type `x`: a scalar (or one element), or per
/// `axis` a 1-D tensor as long as that dim, broadcast to x's rank. Null
/// after an error.
mlir::Value quantParam(NodeContext &ctx, int i, mlir::RankedTensorType x,
                       int64_t axis, llvm::StringRef what) {
  mlir::RankedTensorType t = ctx.inputType(i);
  mlir::Value v = ctx.input(i);
  if (!t || !v)
    return nullptr;
  if (t.getRank() == 1 && t.getDimSize(0) == 1) {
    v = mlir::tensor::CollapseShapeOp::create(
        ctx.b, ctx.loc, t.clone(llvm::ArrayRef<int64_t>{}), v,
        llvm::SmallVector<mlir::ReassociationIndices>{});
    return v;
  }
  if (t.getRank() == 0)
    return v;
  if (axis == kPerTensor)
    return (void)ctx.fail(what + " must be a scalar (per tensor)"), nullptr;
  if (t.getRank() > 1 || x.getRank() == 0)
    return (void)ctx.fail(what + " must be a scalar or a 1-D tensor along " +
                          "the axis (blocked quantization is not supported)"),
           nullptr;
  if (axis < 0 || axis >= x.getRank())
    return (void)ctx.fail("axis " + llvm::Twine(ctx.intAttr("axis", 1)) +
                          " is out of range for rank " +
                          llvm::Twine(x.getRank())),
           nullptr;
  if (!t.isDynamicDim(0) && !x.isDynamicDim(axis) &&
      t.getDimSize(0) != x.getDimSize(axis))
    return (void)ctx.fail(what + " has " + llvm::Twine(t.getDimSize(0)) +
                          " elements; dim " + llvm::Twine(axis) + " has " +
                          llvm::Twine(x.getDimSize(axis))),
           nullptr;
  return alongAxis(ctx, v, x.getRank(), axis);
}

/// The node's `axis` attribute (default 1) counted from the front of a
/// rank-`rank` tensor (checked only where a parameter is per axis).
int64_t quantAxis(NodeContext &ctx, int64_t rank) {
  int64_t axis = ctx.intAttr("axis", 1);
  return axis < 0 ? axis + rank : axis;
}

/// `q` (a float already rounded) plus the zero point `zp` (an i8 read
/// unsigned where `isUnsigned`, or null for 0), saturated to the 8-bit
/// range and converted to i8.
mlir::Value saturated(mlir::OpBuilder &b, mlir::Location loc, mlir::Value q,
                      mlir::Value zp, bool isUnsigned) {
  mlir::Type f = q.getType();
  if (zp)
    q = mlir::arith::AddFOp::create(b, loc, q,
                                    convertScalar(b, loc, zp, f, isUnsigned));
  q = mlir::arith::MaximumFOp::create(
      b, loc, q, floatConst(b, loc, f, isUnsigned ? 0 : -128));
  q = mlir::arith::MinimumFOp::create(
      b, loc, q, floatConst(b, loc, f, isUnsigned ? 255 : 127));
  return convertScalar(b, loc, q, b.getI8Type(), false, isUnsigned);
}

/// The type of `x` with another element type.
mlir::RankedTensorType withElement(mlir::Value x, mlir::Type element) {
  return llvm::cast<mlir::RankedTensorType>(x.getType()).clone(element);
}

/// The operands of QuantizeLinear and DequantizeLinear: input 0 (of type
/// `xType`), its scale and its zero point where given (named `name`_scale
/// and `name`_zero_point), the two broadcast along the node's axis where
/// 1-D. Empty after an error.
llvm::SmallVector<mlir::Value> quantOperands(NodeContext &ctx,
                                             mlir::RankedTensorType xType,
                                             llvm::StringRef name) {
  int64_t axis = quantAxis(ctx, xType.getRank());
  llvm::SmallVector<mlir::Value> inputs = {
      ctx.input(0), quantParam(ctx, 1, xType, axis, (name + "_scale").str())};
  if (ctx.hasInput(2))
    inputs.push_back(
        quantParam(ctx, 2, xType, axis, (name + "_zero_point").str()));
  if (llvm::any_of(inputs, [](mlir::Value v) { return !v; }))
    inputs.clear();
  return inputs;
}

/// y = saturate(round(x / scale) + zero_point), per tensor or per axis.
mlir::LogicalResult quantizeLinear(NodeContext &ctx) {
  mlir::RankedTensorType xType = ctx.inputType(0), out = ctx.outputType(0);
  if (!xType || !out)
    return mlir::failure();
  if (!out.getElementType().isInteger(8))
    return ctx.fail("makes int8 and uint8 only");
  llvm::SmallVector<mlir::Value> inputs = quantOperands(ctx, xType, "y");
  if (inputs.empty())
    return mlir::failure();
  bool isUnsigned = ctx.outputIsUnsigned(0);
  ctx.setOutput(
      0, elementwise(
             ctx, inputs, out,
             [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
                 mlir::Type) -> mlir::Value {
               mlir::Type f = a[1].getType();
               mlir::Value v = convertScalar(b, loc, a[0], f);
               v = mlir::math::RoundEvenOp::create(
                   b, loc, mlir::arith::DivFOp::create(b, loc, v, a[1]));
               return saturated(b, loc, v, a.size() > 2 ? a[2] : mlir::Value(),
                                isUnsigned);
             }));
  return mlir::success();
}

/// y = (x - zero_point) * scale, the difference exact in i32.
mlir::LogicalResult dequantizeLinear(NodeContext &ctx) {
  mlir::RankedTensorType xType = ctx.inputType(0), out = ctx.outputType(0);
  if (!xType || !out)
    return mlir::failure();
  llvm::SmallVector<mlir::Value> inputs = quantOperands(ctx, xType, "x");
  if (inputs.empty())
    return mlir::failure();
  bool xUnsigned = ctx.isUnsigned(0), zpUnsigned = ctx.isUnsigned(2);
  ctx.setOutput(
      0, elementwise(ctx, inputs, out,
                     [=](mlir::OpBuilder &b, mlir::Location loc,
                         mlir::ValueRange a, mlir::Type f) -> mlir::Value {
                       mlir::Type i32 = b.getI32Type();
                       mlir::Value v =
                           convertScalar(b, loc, a[0], i32, xUnsigned);
                       if (a.size() > 2)
                         v = mlir::arith::SubIOp::create(
                             b, loc, v,
                             convertScalar(b, loc, a[2], i32, zpUnsigned));
                       return mlir::arith::MulFOp::create(
                           b, loc, convertScalar(b, loc, v, f),
                           convertScalar(b, loc, a[1], f));
                     }));
  return mlir::success();
}

/// The smallest and the largest element of `x` and 0, in one pass.
std::pair<mlir::Value, mlir::Value> rangeWithZero(NodeContext &ctx,
                                                  mlir::Value x) {
  auto t = llvm::cast<mlir::RankedTensorType>(x.getType());
  mlir::MLIRContext *mctx = ctx.b.getContext();
  auto scalarType = mlir::RankedTensorType::get({}, t.getElementType());
  mlir::Value init = ctx.filled(scalarType, ctx.scalar(t.getElementType(), 0));
  auto scalar = mlir::AffineMap::get(t.getRank(), 0, {}, mctx);
  llvm::SmallVector<mlir::AffineMap> maps = {
      mlir::AffineMap::getMultiDimIdentityMap(t.getRank(), mctx), scalar,
      scalar};
  llvm::SmallVector<mlir::utils::IteratorType> iterators(
      t.getRank(), mlir::utils::IteratorType::reduction);
  auto generic = mlir::linalg::GenericOp::create(
      ctx.b, ctx.loc, mlir::TypeRange{scalarType, scalarType},
      mlir::ValueRange{x}, mlir::ValueRange{init, init}, maps, iterators,
      [](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange v) {
        mlir::linalg::YieldOp::create(
            b, loc,
            mlir::ValueRange{
                mlir::arith::MinimumFOp::create(b, loc, v[0], v[1]),
                mlir::arith::MaximumFOp::create(b, loc, v[0], v[2])});
      });
  auto extract = [&](mlir::Value r) -> mlir::Value {
    return mlir::tensor::ExtractOp::create(ctx.b, ctx.loc, r,
                                           mlir::ValueRange{});
  };
  return {extract(generic.getResult(0)), extract(generic.getResult(1))};
}

/// DynamicQuantizeLinear: uint8 over the range of x widened to hold 0;
/// scale = (max - min) / 255, zero point = saturate(round(-min / scale)).
/// (Where x is all zeros the scale is 0, and y and the zero point are 0.)
mlir::LogicalResult dynamicQuantizeLinear(NodeContext &ctx) {
  mlir::RankedTensorType xType = ctx.inputType(0);
  mlir::RankedTensorType out = ctx.outputType(0);
  mlir::Value x = ctx.input(0);
  if (!xType || !out || !x)
    return mlir::failure();
  mlir::Type f = xType.getElementType();
  if (!f.isF32())
    return ctx.fail("takes float (f32) only");
  mlir::OpBuilder &b = ctx.b;
  mlir::Location loc = ctx.loc;
  auto [lo, hi] = rangeWithZero(ctx, x);
  mlir::Value scale = mlir::arith::DivFOp::create(
      b, loc, mlir::arith::SubFOp::create(b, loc, hi, lo),
      floatConst(b, loc, f, 255));
  // A divisor of 1 where the scale is 0: every x is 0 then.
  mlir::Value zeroScale = mlir::arith::CmpFOp::create(
      b, loc, mlir::arith::CmpFPredicate::OEQ, scale, floatConst(b, loc, f, 0));
  mlir::Value divisor = mlir::arith::SelectOp::create(
      b, loc, zeroScale, floatConst(b, loc, f, 1), scale);
  mlir::Value zpFloat = mlir::math::RoundEvenOp::create(
      b, loc,
      mlir::arith::SubFOp::create(
          b, loc, floatConst(b, loc, f, 0),
          mlir::arith::DivFOp::create(b, loc, lo, divisor)));
  mlir::Value zp = saturated(b, loc, zpFloat, nullptr, /*isUnsigned=*/true);
  mlir::Value zpTensor = mlir::tensor::FromElementsOp::create(
      b, loc, mlir::RankedTensorType::get({}, b.getI8Type()),
      mlir::ValueRange{zp});
  ctx.setOutput(
      0, elementwise(ctx, {x, zpTensor}, out,
                     [=](mlir::OpBuilder &b, mlir::Location loc,
                         mlir::ValueRange a, mlir::Type) -> mlir::Value {
                       mlir::Value q = mlir::math::RoundEvenOp::create(
                           b, loc,
                           mlir::arith::DivFOp::create(b, loc, a[0], divisor));
                       return saturated(b, loc, q, a[1], true);
                     }));
  ctx.setOutput(1, mlir::tensor::FromElementsOp::create(
                       b, loc, mlir::RankedTensorType::get({}, f),
                       mlir::ValueRange{scale}));
  ctx.setOutput(2, zpTensor);
  return mlir::success();
}

/// Whether input `i` is left out or a constant of zeros.
bool absentOrZero(NodeContext &ctx, int i) {
  if (!ctx.hasInput(i))
    return true;
  std::optional<std::string> bytes = ctx.constantBytes(i);
  return bytes && llvm::all_of(*bytes, [](char c) { return c == 0; });
}

/// `x` (8 bits, read unsigned where `xUnsigned`) less its zero point `zp`
/// (already broadcast to x's rank; null for none), as i16: exact for any
/// two 8-bit values.
mlir::Value lessZeroPoint(NodeContext &ctx, mlir::Value x, bool xUnsigned,
                          mlir::Value zp, bool zpUnsigned) {
  mlir::RankedTensorType type = withElement(x, ctx.b.getI16Type());
  llvm::SmallVector<mlir::Value> inputs = {x};
  if (zp)
    inputs.push_back(zp);
  return elementwise(
      ctx, inputs, type,
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
          mlir::Type t) -> mlir::Value {
        mlir::Value v = convertScalar(b, loc, a[0], t, xUnsigned);
        if (a.size() < 2)
          return v;
        return mlir::arith::SubIOp::create(
            b, loc, v, convertScalar(b, loc, a[1], t, zpUnsigned));
      });
}

/// Input `i` of an integer contraction with its zero point (input
/// `zpInput`) taken off: as it is where it is int8 without one, else in
/// i16. A 1-D zero point runs along dim `zpAxis`. Null after an error.
mlir::Value contractionOperand(NodeContext &ctx, int i, int zpInput,
                               int64_t zpAxis) {
  mlir::RankedTensorType t = ctx.inputType(i);
  mlir::Value x = ctx.input(i);
  if (!t || !x)
    return nullptr;
  if (!t.getElementType().isInteger(8))
    return (void)ctx.fail("input " + llvm::Twine(i) + " must be int8 or uint8"),
           nullptr;
  bool xUnsigned = ctx.isUnsigned(i);
  if (absentOrZero(ctx, zpInput) && !xUnsigned)
    return x;
  mlir::Value zp;
  if (ctx.hasInput(zpInput)) {
    mlir::RankedTensorType zt = ctx.inputType(zpInput);
    if (!zt)
      return nullptr;
    // A zero point of the operand's rank broadcasts as numpy does; a 1-D
    // one runs along `zpAxis`.
    zp = zt.getRank() == t.getRank() && t.getRank() > 1
             ? ctx.input(zpInput)
             : quantParam(ctx, zpInput, t, zpAxis, "the zero point");
    if (!zp)
      return nullptr;
  }
  return lessZeroPoint(ctx, x, xUnsigned, zp, ctx.isUnsigned(zpInput));
}

/// (A - a_zero_point) @ (B - b_zero_point) in i32, as `out` (of i32).
/// Inputs: A, B, a_zero_point, b_zero_point at `a`, `b`, `aZp`, `bZp`.
mlir::Value integerMatMul(NodeContext &ctx, int a, int b, int aZp, int bZp,
                          mlir::RankedTensorType out) {
  mlir::RankedTensorType aType = ctx.inputType(a), bType = ctx.inputType(b);
  if (!aType || !bType)
    return nullptr;
  // A zero point per row of A (dim -2), per column of B (dim -1).
  mlir::Value lhs = contractionOperand(
      ctx, a, aZp, std::max<int64_t>(0, aType.getRank() - 2));
  mlir::Value rhs = contractionOperand(ctx, b, bZp, bType.getRank() - 1);
  if (!lhs || !rhs)
    return nullptr;
  return matMulOf(ctx, lhs, rhs, out);
}

mlir::LogicalResult matMulInteger(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  ctx.setOutput(0, integerMatMul(ctx, 0, 1, 2, 3, out));
  return mlir::success();
}

/// (x - x_zero_point) convolved with (w - w_zero_point) in i32, as `out`
/// (of i32), plus `bias` (i32 [F]) where given. Inputs x, w and their zero
/// points at `x`, `w`, `xZp`, `wZp`.
mlir::Value integerConv(NodeContext &ctx, int x, int w, int xZp, int wZp,
                        mlir::Value bias, mlir::RankedTensorType out) {
  mlir::RankedTensorType xType = ctx.inputType(x), wType = ctx.inputType(w);
  if (!xType || !wType)
    return nullptr;
  if (xType.getRank() != 4 || wType.getRank() != 4)
    return (void)ctx.fail("only 2-D convolutions (4-D input and weights) are "
                          "supported"),
           nullptr;
  auto window = readWindow(
      ctx, xType,
      ctx.intsAttr("kernel_shape", {wType.getDimSize(2), wType.getDimSize(3)}),
      out);
  if (mlir::failed(window))
    return nullptr;
  // The image's zero point is the value that stands for 0; taken off
  // first, the padding is zeros.
  mlir::Value image = ctx.input(x);
  if (!image)
    return nullptr;
  mlir::Value xzp;
  if (ctx.hasInput(xZp) &&
      !(xzp = quantParam(ctx, xZp, xType, kPerTensor, "x_zero_point")))
    return nullptr;
  image =
      lessZeroPoint(ctx, image, ctx.isUnsigned(x), xzp, ctx.isUnsigned(xZp));
  // The filters' zero points per output channel (dim 0).
  mlir::Value filters = contractionOperand(ctx, w, wZp, 0);
  if (!image || !filters)
    return nullptr;
  if (filters.getType() != withElement(filters, ctx.b.getI16Type()))
    filters = lessZeroPoint(ctx, filters, false, nullptr, false);
  return convNchw(ctx, image, filters, bias, *window, ctx.intAttr("group", 1),
                  out);
}

mlir::LogicalResult convInteger(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  ctx.setOutput(0, integerConv(ctx, 0, 1, 2, 3, nullptr, out));
  return mlir::success();
}

/// The i32 accumulator `acc` requantized: saturate(round(acc * scale) +
/// y_zero_point), scale = a_scale * b_scale / y_scale, with the scales
/// and y's zero point at inputs `aScale`, `bScale`, `yScale`, `yZp` (the
/// first two broadcast along `aAxis` and `bAxis` of acc where 1-D).
mlir::Value requantized(NodeContext &ctx, mlir::Value acc, int aScale,
                        int64_t aAxis, int bScale, int64_t bAxis, int yScale,
                        int yZp, mlir::RankedTensorType out) {
  auto accType = llvm::cast<mlir::RankedTensorType>(acc.getType());
  llvm::SmallVector<mlir::Value> inputs = {
      acc, quantParam(ctx, aScale, accType, aAxis, "the first scale"),
      quantParam(ctx, bScale, accType, bAxis, "the second scale"),
      quantParam(ctx, yScale, accType, kPerTensor, "y_scale")};
  if (ctx.hasInput(yZp))
    inputs.push_back(quantParam(ctx, yZp, accType, kPerTensor, "y_zero_point"));
  if (llvm::any_of(inputs, [](mlir::Value v) { return !v; }))
    return nullptr;
  bool isUnsigned = ctx.outputIsUnsigned(0);
  return elementwise(
      ctx, inputs, out,
      [=](mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange a,
          mlir::Type) -> mlir::Value {
        mlir::Type f = a[1].getType();
        mlir::Value scale = mlir::arith::DivFOp::create(
            b, loc, mlir::arith::MulFOp::create(b, loc, a[1], a[2]), a[3]);
        mlir::Value q = mlir::arith::MulFOp::create(
            b, loc, convertScalar(b, loc, a[0], f), scale);
        q = mlir::math::RoundEvenOp::create(b, loc, q);
        return saturated(b, loc, q, a.size() > 4 ? a[4] : mlir::Value(),
                         isUnsigned);
      });
}

/// QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp): a's
/// scale per tensor or per row, b's per tensor or per column.
mlir::LogicalResult qLinearMatMul(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  if (!out.getElementType().isInteger(8))
    return ctx.fail("makes int8 and uint8 only");
  mlir::Value acc =
      integerMatMul(ctx, 0, 3, 2, 5, out.clone(ctx.b.getI32Type()));
  if (!acc)
    return mlir::failure();
  int64_t rank = out.getRank();
  ctx.setOutput(0, requantized(ctx, acc, 1, std::max<int64_t>(0, rank - 2), 4,
                               rank - 1, 6, 7, out));
  return mlir::success();
}

/// QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?): w's
/// scale per tensor or per output channel; B is int32, of scale x_scale *
/// w_scale.
mlir::LogicalResult qLinearConv(NodeContext &ctx) {
  mlir::RankedTensorType out = ctx.outputType(0);
  if (!out)
    return mlir::failure();
  if (!out.getElementType().isInteger(8))
    return ctx.fail("makes int8 and uint8 only");
  mlir::Value bias;
  if (ctx.hasInput(8) && !(bias = ctx.input(8)))
    return mlir::failure();
  mlir::Value acc =
      integerConv(ctx, 0, 3, 2, 5, bias, out.clone(ctx.b.getI32Type()));
  if (!acc)
    return mlir::failure();
  ctx.setOutput(0, requantized(ctx, acc, 1, kPerTensor, 4, 1, 6, 7, out));
  return mlir::success();
}

} // namespace

std::vector<OpConverter> quantizationConverters() {
  std::vector<OpConverter> converters = {
      {"QuantizeLinear", quantizeLinear},
      {"DequantizeLinear", dequantizeLinear},
      {"DynamicQuantizeLinear", dynamicQuantizeLinear},
      {"MatMulInteger", matMulInteger},
      {"ConvInteger", convInteger},
      {"QLinearMatMul", qLinearMatMul},
      {"QLinearConv", qLinearConv},
  };
  for (OpConverter &c : converters) {
    c.readsUnsigned = true;
    c.takesOneD = c.opType == "ConvInteger" || c.opType == "QLinearConv";
  }
  return converters;
}

} // namespace aot::onnx_import
