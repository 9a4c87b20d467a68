//===- X86PairDot.cpp - aot-x86-pair-dot ----------------------------------===//
//
// The pair dots aot-tile-and-vectorize makes of integer matmuls (16 pairs
// of i16 multiplied and each pair summed into an i32 lane, plus an
// accumulator), and those of the integer dot products it marked
// (pairDotProducts), become x86's vpmaddwd intrinsic and an add, which LLVM
// fuses into vpdpwssd where the CPU has AVX-512 VNNI. Here, after
// bufferization, because the intrinsic call is an op whose memory effects MLIR
// cannot see, which buffer deallocation refuses to reason about.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Cpu/PairDotForms.h"
#include "Transforms/Cpu/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace aot {
#define GEN_PASS_DEF_X86PAIRDOT
#include "Transforms/Cpu/Passes.h.inc"

namespace {

struct X86PairDotPass : impl::X86PairDotBase<X86PairDotPass> {
  void runOnOperation() override {
    mlir::IRRewriter rewriter(&getContext());
    pairDotProducts(getOperation(), rewriter);
    llvm::SmallVector<mlir::vector::ContractionOp> dots;
    getOperation()->walk([&](mlir::vector::ContractionOp op) {
      if (op->hasAttr(kPairDotAttr))
        dots.push_back(op);
    });
    for (mlir::vector::ContractionOp op : dots) {
      mlir::OpBuilder b(op);
      mlir::Location loc = op.getLoc();
      auto halves = mlir::VectorType::get({32}, b.getI16Type());
      auto flat = [&](mlir::Value pairs) -> mlir::Value {
        return mlir::vector::ShapeCastOp::create(b, loc, halves, pairs);
      };
      mlir::Value products =
          mlir::LLVM::CallIntrinsicOp::create(
              b, loc, op.getAccType(),
              b.getStringAttr("llvm.x86.avx512.pmaddw.d.512"),
              mlir::ValueRange{flat(op.getLhs()), flat(op.getRhs())})
              .getResult(0);
      op.replaceAllUsesWith(
          mlir::arith::AddIOp::create(b, loc, op.getAcc(), products)
              .getResult());
      op.erase();
    }
  }
};

} // namespace
} // namespace aot
