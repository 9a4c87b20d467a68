//===- TileAndVectorize.cpp - aot-tile-and-vectorize ----------------------===//
//
// Register-blocks contractions and vectorizes elementwise ops. The tile loops
// carry the output tensor, and the output tile of a contraction is invariant
// in the innermost (reduction) loop, so subset hoisting lifts its reads and
// writes out of that loop: the accumulator then stays in vector registers.
// The pass is its steps in order; each lives beside it: the strategy
// (TileSizes.h), the tiling (Tiling.h), the vectorization
// (Vectorization.h) and the lowering to what LLVM takes (VectorLowering.h).
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/ContractionForms.h"
#include "Transforms/Cpu/BatchDims.h"
#include "Transforms/Cpu/CollapseFills.h"
#include "Transforms/Cpu/FewRowsBranch.h"
#include "Transforms/Cpu/Passes.h"
#include "Transforms/Cpu/TileAndVectorize/Tiling.h"
#include "Transforms/Cpu/TileAndVectorize/VectorLowering.h"
#include "Transforms/Cpu/TileAndVectorize/Vectorization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace aot {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#include "Transforms/Cpu/Passes.h.inc"

namespace {
using namespace tile_and_vectorize;

struct TileAndVectorizePass : impl::TileAndVectorizeBase<TileAndVectorizePass> {
  using TileAndVectorizeBase::TileAndVectorizeBase;

  /// The pattern sets, made once (the pass runs on every function).
  mlir::FrozenRewritePatternSet canonicalization, convDecomposition,
      toContraction, unitReductions, vectorLowering, approximations;

  mlir::LogicalResult initialize(mlir::MLIRContext *ctx) override {
    mlir::RewritePatternSet canonical(ctx);
    for (mlir::Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(canonical);
    for (mlir::RegisteredOperationName name : ctx->getRegisteredOperations())
      name.getCanonicalizationPatterns(canonical, ctx);
    canonicalization = std::move(canonical);

    convDecomposition = convolutionDecompositionPatterns(ctx);
    toContraction = contractionPatterns(ctx);
    unitReductions = unitReductionPatterns(ctx);
    vectorLowering = vectorLoweringPatterns(ctx);
    approximations = approximationPatterns(ctx);
    return mlir::success();
  }

  void runOnOperation() override {
    mlir::func::FuncOp fn = getOperation();
    mlir::IRRewriter rewriter(fn.getContext());
    const TileOptions options{tileM, tileN, vectorWidth, pairDot};
    // Contractions in the forms their tiles are made for.
    collapseFills(rewriter, fn);
    collapseBatchDims(rewriter, fn);
    branchOnFewRows(rewriter, fn);
    prepareContractions(rewriter, fn);
    transposeIntegerRhs(rewriter, fn);
    // Register tiles and cache blocks (Tiling.h); where a loop was peeled,
    // its full tiles' sizes folded to constants, their slices and ops made
    // static.
    if (tileFunction(rewriter, fn, options))
      (void)mlir::applyPatternsGreedily(fn, canonicalization);
    // Vector ops (Vectorization.h).
    decomposeConvolutionTiles(fn, convDecomposition);
    vectorizeTiles(rewriter, fn);
    formContractions(fn, toContraction, unitReductions);
    // What LLVM takes (VectorLowering.h).
    const bool pairDotBlocks = pairDot && markPairDotBlocks(fn);
    if (mlir::failed(lowerVectors(fn, vectorLowering, pairDotBlocks)))
      return signalPassFailure();
    approximateVectorMath(fn, approximations);
    keepAccumulatorsInRegisters(fn, rewriter);
    reassociateLaneMerges(fn);
    if (pairDotBlocks)
      splitPairDotBlocks(fn, rewriter);
  }
};
} // namespace
} // namespace aot
