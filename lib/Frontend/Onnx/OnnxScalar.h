//===- OnnxScalar.h - scalar arithmetic of the converters' bodies ---------===//
//
// What the converters that compute element by element (sampling, signals,
// regions) write in their bodies and loops: float arithmetic in one float
// type, index arithmetic, comparisons and selects, each one call. add, sub,
// mul, min, max and lt pick the float or the integer op by the operands'
// type.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Frontend/Onnx/OnnxElementwise.h"
#include "Frontend/Onnx/OnnxIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace aot::onnx_import {

struct ScalarMath {
  mlir::OpBuilder &b;
  mlir::Location loc;
  /// The float type of real() and realOf().
  mlir::Type f;

  mlir::Value real(double v) { return floatConst(b, loc, f, v); }
  mlir::Value index(int64_t v) { return indexConst(b, loc, v); }
  mlir::Value add(mlir::Value p, mlir::Value q) {
    if (isFloatType(p.getType()))
      return mlir::arith::AddFOp::create(b, loc, p, q);
    return mlir::arith::AddIOp::create(b, loc, p, q);
  }
  mlir::Value sub(mlir::Value p, mlir::Value q) {
    if (isFloatType(p.getType()))
      return mlir::arith::SubFOp::create(b, loc, p, q);
    return mlir::arith::SubIOp::create(b, loc, p, q);
  }
  mlir::Value mul(mlir::Value p, mlir::Value q) {
    if (isFloatType(p.getType()))
      return mlir::arith::MulFOp::create(b, loc, p, q);
    return mlir::arith::MulIOp::create(b, loc, p, q);
  }
  mlir::Value div(mlir::Value p, mlir::Value q) {
    return mlir::arith::DivFOp::create(b, loc, p, q);
  }
  /// Floats: the number where one side is NaN.
  mlir::Value max(mlir::Value p, mlir::Value q) {
    if (isFloatType(p.getType()))
      return mlir::arith::MaxNumFOp::create(b, loc, p, q);
    return mlir::arith::MaxSIOp::create(b, loc, p, q);
  }
  mlir::Value min(mlir::Value p, mlir::Value q) {
    if (isFloatType(p.getType()))
      return mlir::arith::MinNumFOp::create(b, loc, p, q);
    return mlir::arith::MinSIOp::create(b, loc, p, q);
  }
  /// Ordered for floats, signed for integers.
  mlir::Value lt(mlir::Value p, mlir::Value q) {
    if (isFloatType(p.getType()))
      return mlir::arith::CmpFOp::create(b, loc,
                                         mlir::arith::CmpFPredicate::OLT, p, q);
    return mlir::arith::CmpIOp::create(b, loc, mlir::arith::CmpIPredicate::slt,
                                       p, q);
  }
  mlir::Value gt(mlir::Value p, mlir::Value q) { return lt(q, p); }
  mlir::Value cmp(mlir::arith::CmpIPredicate p, mlir::Value x, mlir::Value y) {
    return mlir::arith::CmpIOp::create(b, loc, p, x, y);
  }
  mlir::Value both(mlir::Value p, mlir::Value q) {
    return mlir::arith::AndIOp::create(b, loc, p, q);
  }
  mlir::Value either(mlir::Value p, mlir::Value q) {
    return mlir::arith::OrIOp::create(b, loc, p, q);
  }
  mlir::Value select(mlir::Value c, mlir::Value p, mlir::Value q) {
    return mlir::arith::SelectOp::create(b, loc, c, p, q);
  }
  /// An index as a float of type f.
  mlir::Value realOf(mlir::Value i) {
    return mlir::arith::SIToFPOp::create(
        b, loc, f, mlir::arith::IndexCastOp::create(b, loc, b.getI64Type(), i));
  }
  /// The element of tensor `t` at `position`.
  mlir::Value at(mlir::Value t, llvm::ArrayRef<mlir::Value> position) {
    return mlir::tensor::ExtractOp::create(b, loc, t, position);
  }
};

} // namespace aot::onnx_import
