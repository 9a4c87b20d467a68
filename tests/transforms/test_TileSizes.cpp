//===- test_TileSizes.cpp - aot-tile-and-vectorize's strategy, alone ------===//
//
// The tile sizes, loop orders and parallel loops the strategy chooses
// (lib/Transforms/Cpu/TileAndVectorize/TileSizes.h) for ops parsed from text,
// without running the pass: the decisions its lit test sees only through
// the IR they produce.
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "Transforms/Cpu/TileAndVectorize/TileSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <string>
#include <vector>

using namespace aot::tile_and_vectorize;

namespace {

/// A context with the dialects the cases use, and the first linalg op of a
/// module parsed from `body` (a function's ops).
struct Parsed {
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::linalg::LinalgOp op;

  Parsed(const std::string &text) {
    context.loadDialect<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                        mlir::linalg::LinalgDialect,
                        mlir::tensor::TensorDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    REQUIRE(module);
    module->walk([&](mlir::linalg::LinalgOp found) {
      if (!op)
        op = found;
    });
    REQUIRE(op);
  }
};

std::vector<int64_t> vec(llvm::ArrayRef<int64_t> a) {
  return {a.begin(), a.end()};
}

const char *kMatmul = R"(
func.func @f(%a: tensor<64x48xf32>, %b: tensor<48x96xf32>,
             %c: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x48xf32>, tensor<48x96xf32>)
                     outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
})";

} // namespace

TEST_CASE("tileFor: an even tile where one is near the size wanted") {
  // 64 rows by 8, 96 lanes by 32: even tiles.
  CHECK(tileFor(64, 8, Along::Rows) == 8);
  CHECK(tileFor(96, 32, Along::Lanes) == 32);
  // 30 rows: 15 divides it and is at least half of 16.
  CHECK(tileFor(30, 16, Along::Rows) == 15);
  // Along lanes an even tile must be a power of two: 1000 = 8 x 125, and
  // 25 is no width for a vector; the loop is peeled at 32 instead.
  CHECK(tileFor(1000, 32, Along::Lanes) == 32);
  CHECK(tileFor(1000, 32, Along::Rows) == 25);
  // A prime has no even tile but 1: the size wanted, its last tile masked.
  CHECK(tileFor(17, 8, Along::Rows) == 8);
  // A dim no larger than the tile is one tile; a dynamic one gets the size
  // wanted.
  CHECK(tileFor(7, 32, Along::Lanes) == 7);
  CHECK(tileFor(mlir::ShapedType::kDynamic, 16, Along::Lanes) == 16);
}

TEST_CASE("blockOfTiles: cache blocks of whole register tiles") {
  // 768 = 3 x 256: tileFor's block, 16 tiles of 16.
  CHECK(blockOfTiles(768, 256, 16) == 256);
  // 50256 = 16 x 3141: tileFor's even block is 144, 9 tiles.
  CHECK(blockOfTiles(50256, 256, 16) == 144);
  // tileFor would cut 50260 into blocks of 140 and 1000 into blocks of 250,
  // each ending in a partial tile; N is no multiple of 16, so blocks of 256
  // instead and only the last one ragged.
  CHECK(blockOfTiles(50260, 256, 16) == 256);
  CHECK(blockOfTiles(1000, 256, 16) == 256);
  // 4800: tileFor's 240 is 7.5 tiles of 32; 4800 / 32 = 150 tiles, in even
  // blocks of 6 tiles (192 columns, 25 blocks).
  CHECK(blockOfTiles(4800, 256, 32) == 192);
  // The size wanted itself cut to whole tiles: 250 -> 240 for tiles of 24.
  CHECK(blockOfTiles(1000, 250, 24) == 240);
  // One block where the dim fits; a dynamic dim gets the size wanted.
  CHECK(blockOfTiles(200, 256, 16) == 200);
  CHECK(blockOfTiles(mlir::ShapedType::kDynamic, 256, 16) == 256);
}

TEST_CASE("blockForThreads: blocks that share evenly among threads") {
  // 768 columns: 3 blocks of 256 leave one of two threads idle a third of
  // the time; 4 blocks of 192 (12 tiles of 16 each) share evenly.
  CHECK(blockForThreads(768, 256, 16, 2) == 192);
  // 2304 = 144 tiles: 9 blocks of 256; 10 do not cut 144 tiles evenly, 12
  // blocks of 12 tiles do.
  CHECK(blockForThreads(2304, 256, 16, 2) == 192);
  // Already a multiple of the threads: 12 blocks of 256, 3072 columns.
  CHECK(blockForThreads(3072, 256, 16, 2) == 256);
  CHECK(blockForThreads(3072, 256, 16, 4) == 256);
  // 768 on 3 threads: 3 blocks already.
  CHECK(blockForThreads(768, 256, 16, 3) == 256);
  // One thread, a dynamic dim, or a dim that is no whole number of tiles:
  // unchanged (50257 columns: 197 blocks, the imbalance one block in 197).
  CHECK(blockForThreads(768, 256, 16, 1) == 256);
  CHECK(blockForThreads(mlir::ShapedType::kDynamic, 256, 16, 2) == 256);
  CHECK(blockForThreads(50257, 256, 16, 2) == 256);
  // Two blocks, the second partial (112 = 64 + 48, 48 = 32 + 16): even
  // counts already.
  CHECK(blockForThreads(112, 64, 16, 2) == 64);
  CHECK(blockForThreads(48, 32, 16, 2) == 32);
  // 80 columns, 5 tiles, in 3 blocks of 32: neither 4 nor 6 blocks cut 5
  // tiles evenly, so unchanged.
  CHECK(blockForThreads(80, 32, 16, 2) == 32);
}

TEST_CASE("tileSizesFor: a matmul's register tile follows the options") {
  Parsed p(kMatmul);
  // Loops m, n, k: 8 rows by 32 columns, one step of K.
  CHECK(vec(tileSizesFor(p.op, TileOptions{})) ==
        std::vector<int64_t>{8, 32, 1});
  TileOptions wide;
  wide.tileM = 4;
  wide.tileN = 16;
  CHECK(vec(tileSizesFor(p.op, wide)) == std::vector<int64_t>{4, 16, 1});
  // 295 k multiply-adds, enough for threads: its loop over rows, the
  // outermost that runs more than once.
  auto parallel = parallelLoop(p.op, {8, 32, 1}, {});
  REQUIRE(parallel.has_value());
  CHECK(parallel->index == 0);
  // With one tile of rows, the loop over columns.
  auto columns = parallelLoop(p.op, {64, 32, 1}, {});
  REQUIRE(columns.has_value());
  CHECK(columns->index == 1);
}

TEST_CASE("tileSizesFor: elementwise ops along their innermost dim") {
  Parsed p(R"(
func.func @f(%a: tensor<4x100xf32>, %o: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x100xf32>) outs(%o : tensor<4x100xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = arith.negf %x : f32
    linalg.yield %e : f32
  } -> tensor<4x100xf32>
  return %r : tensor<4x100xf32>
})");
  // 100 lanes: 10 would divide it but is no vector width; 16, peeled.
  CHECK(vec(tileSizesFor(p.op, TileOptions{})) == std::vector<int64_t>{1, 16});
  CHECK_FALSE(reductionLoop(p.op).has_value());
  // 400 elements: done before threads would have started.
  CHECK_FALSE(parallelLoop(p.op, {1, 16}, {}).has_value());
}

TEST_CASE("tileSizesFor: a row reduction is not tiled as elementwise") {
  Parsed p(R"(
func.func @f(%a: tensor<8x64xf32>, %o: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.reduce ins(%a : tensor<8x64xf32>) outs(%o : tensor<8xf32>)
      dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
})");
  CHECK(tileSizesFor(p.op, TileOptions{}).empty());
  REQUIRE(reductionLoop(p.op).has_value());
  CHECK(*reductionLoop(p.op) == 1);
}

TEST_CASE("tileSizesFor: an NHWC convolution, one output row a tile") {
  Parsed p(R"(
func.func @f(%x: tensor<?x10x10x8xf32>, %w: tensor<3x3x8x16xf32>,
             %o: tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x10x10x8xf32>, tensor<3x3x8x16xf32>)
      outs(%o : tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
  return %r : tensor<?x8x8x16xf32>
})");
  // n, oh, ow, f, kh, kw, c: 8 pixels by 16 channels, whatever the batch.
  CHECK(vec(tileSizesFor(p.op, TileOptions{})) ==
        std::vector<int64_t>{1, 1, 8, 16, 1, 1, 1});
  // The batch is dynamic: its loop may run on threads, with a fallback
  // inside it for a batch of one image.
  auto parallel = parallelLoop(p.op, {1, 1, 8, 16, 1, 1, 1}, {});
  REQUIRE(parallel.has_value());
  CHECK(parallel->index == 0);
  CHECK(parallel->fallback.has_value());
}

TEST_CASE("parallelLoop: a large matmul shares out its rows") {
  Parsed p(R"(
func.func @f(%a: tensor<512x512xf32>, %b: tensor<512x512xf32>,
             %c: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<512x512xf32>, tensor<512x512xf32>)
                     outs(%c : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
})");
  auto parallel = parallelLoop(p.op, {8, 32, 1}, {});
  REQUIRE(parallel.has_value());
  CHECK(parallel->index == 0);
  CHECK(parallel->minTrips == 0);
  // In the order n, k, m of cache blocks, the outer loop over N.
  auto blocked = parallelLoop(p.op, {64, 256, 256}, {1, 2, 0});
  REQUIRE(blocked.has_value());
  CHECK(blocked->index == 0);
  // With K outermost, no loop may: the trips of K are not independent.
  CHECK_FALSE(parallelLoop(p.op, {8, 32, 64}, {2, 0, 1}).has_value());
}

TEST_CASE("runThreads: the module's thread count, 1 without one") {
  Parsed p(kMatmul);
  CHECK(runThreads(p.op) == 1);
  (*p.module)->setAttr(
      "aot.threads",
      mlir::IntegerAttr::get(mlir::IntegerType::get(&p.context, 64), 2));
  CHECK(runThreads(p.op) == 2);
}
