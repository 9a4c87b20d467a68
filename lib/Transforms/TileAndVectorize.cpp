//===- TileAndVectorize.cpp - aot-tile-and-vectorize ----------------------===//
//
// Register-blocks contractions and vectorizes elementwise ops. The tile loops
// carry the output tensor, and the output tile of a contraction is invariant
// in the innermost (reduction) loop, so subset hoisting lifts its reads and
// writes out of that loop: the accumulator then stays in vector registers.
//
//===----------------------------------------------------------------------===//
#include "Transforms/CollapseFills.h"
#include "Transforms/ContractionForms.h"
#include "Transforms/PackPanels.h"
#include "Transforms/PairDots.h"
#include "Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace aot {
#define GEN_PASS_DEF_TILEANDVECTORIZE
#include "Transforms/Passes.h.inc"

namespace {

/// The vector sizes of a tile, from tiling until it is vectorized.
constexpr llvm::StringLiteral kVectorSizes = "aot.vector_sizes";

/// The largest tile size <= `wanted` that divides `dim` evenly, so no tile is
/// partial and every vector has a static shape. A dynamic dim gets `wanted`:
/// its last tile is partial, and the vectors of every tile are masked.
int64_t evenTile(int64_t dim, int64_t wanted) {
  if (mlir::ShapedType::isDynamic(dim))
    return wanted;
  for (int64_t t = std::min(dim, wanted); t > 1; --t)
    if (dim % t == 0)
      return t;
  return 1;
}

/// What a tiled dim becomes in the vectors: rows (one vector each) or the
/// lanes of every vector, whose width is best a power of two: LLVM takes
/// vectors of other widths apart lane by lane.
enum class Along { Rows, Lanes };

/// The tile size of a loop of `dim` iterations that wants tiles of
/// `wanted`: the even tile (evenTile) when it is at least half of `wanted`
/// and, along lanes, a power of two, so every tile is full and static; else
/// `wanted` itself, the loop peeled so that only its last tile is partial,
/// and that tile vectorized at the full size with masks. (A prime dim's
/// even tile is 1: scalar code.) A dim of at most `wanted` is one tile.
int64_t tileFor(int64_t dim, int64_t wanted, Along along) {
  const int64_t even = evenTile(dim, wanted);
  if (mlir::ShapedType::isDynamic(dim) || dim <= wanted)
    return even;
  const bool width = along == Along::Rows || llvm::isPowerOf2_64(even);
  return 2 * even >= wanted && width ? even : wanted;
}

/// A memref of i1 holds one byte per element, but LLVM stores a vector of
/// i1 as packed bits: vectorized i1 loads and stores would corrupt memory.
bool touchesI1(mlir::linalg::LinalgOp op) {
  for (mlir::Value v : op->getOperands())
    if (mlir::getElementTypeOrSelf(v.getType()).isInteger(1))
      return true;
  return false;
}

/// Whether `op` multiplies i8 or i16 operands into an i32 result.
bool isSmallIntegerContraction(mlir::linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return false;
  return holdsI8OrI16(op.getDpsInputOperand(0)->get()) &&
         holdsI8OrI16(op.getDpsInputOperand(1)->get()) &&
         mlir::getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType())
             .isInteger(32);
}

/// On a contraction that becomes pair dots at the end of the pass.
constexpr llvm::StringLiteral kPairDotBlock = "aot.pair_dot_block";

/// Whether splitIntoPairDots applies to `op`.
bool isPairDotBlock(mlir::vector::ContractionOp op) {
  mlir::MLIRContext *ctx = op.getContext();
  if (op.getKind() != mlir::vector::CombiningKind::ADD ||
      llvm::isa<mlir::vector::MaskOp>(op->getParentOp()))
    return false;
  mlir::AffineExpr m, n, k;
  mlir::bindDims(ctx, m, n, k);
  auto map = [&](mlir::AffineExpr row, mlir::AffineExpr col) {
    return mlir::AffineMap::get(3, 0, {row, col}, ctx);
  };
  llvm::SmallVector<mlir::AffineMap> matmul = {map(m, k), map(k, n), map(m, n)};
  if (op.getIndexingMapsArray() != matmul)
    return false;
  auto accType = llvm::dyn_cast<mlir::VectorType>(op.getAccType());
  mlir::Value lhs = signExtendedSmall(op.getLhs());
  mlir::Value rhs = signExtendedSmall(op.getRhs());
  return accType && lhs && rhs && accType.getRank() == 2 &&
         accType.getElementType().isInteger(32) &&
         op.getLhsType().getShape()[1] == 2 &&
         accType.getShape()[1] % kPairDotLanes == 0 && !accType.isScalable();
}

/// A register block of an integer matmul whose K is tiled by 2: a
/// vector.contract of an M x 2 and a 2 x N matrix of i8 or i16 values
/// (sign-extended to i32) into an M x N i32 accumulator, in 16-lane chunks
/// of N. Each chunk of each row becomes a contraction of 16 pairs of i16
/// (A's pair of the row, broadcast; B's two rows, interleaved) into 16 i32
/// lanes, tagged kPairDotAttr: exactly what x86's vpmaddwd computes, which
/// aot-x86-pair-dot makes of it after bufferization (vpdpwssd, with the
/// accumulation, on a CPU with AVX-512 VNNI). Untagged, it is still a valid
/// contraction that any lowering computes.
void splitIntoPairDots(mlir::vector::ContractionOp op,
                       mlir::RewriterBase &rewriter) {
  constexpr int64_t kLanes = kPairDotLanes;
  auto accType = llvm::cast<mlir::VectorType>(op.getAccType());
  mlir::Value lhs = signExtendedSmall(op.getLhs());
  mlir::Value rhs = signExtendedSmall(op.getRhs());
  int64_t rows = accType.getShape()[0], cols = accType.getShape()[1];
  mlir::Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  mlir::Type i16 = rewriter.getI16Type();
  auto toI16 = [&](mlir::Value v) -> mlir::Value {
    auto type = llvm::cast<mlir::VectorType>(v.getType());
    if (type.getElementType().isInteger(16))
      return v;
    return mlir::arith::ExtSIOp::create(rewriter, loc, type.clone(i16), v);
  };
  mlir::Value a = toI16(lhs);
  // B's pairs, chunk by chunk: 16 x 2, row j holding B[0][j], B[1][j]:
  // its two rows interleaved (still narrow: one shuffle of bytes), then
  // widened.
  auto pairType = mlir::VectorType::get({kLanes, 2}, i16);
  llvm::SmallVector<mlir::Value> bPairs;
  for (int64_t c = 0; c < cols; c += kLanes) {
    auto row = [&](int64_t r) -> mlir::Value {
      return mlir::vector::ExtractStridedSliceOp::create(
          rewriter, loc, mlir::vector::ExtractOp::create(rewriter, loc, rhs, r),
          {c}, {kLanes}, {1});
    };
    mlir::Value interleaved = toI16(
        mlir::vector::InterleaveOp::create(rewriter, loc, row(0), row(1)));
    bPairs.push_back(mlir::vector::ShapeCastOp::create(rewriter, loc, pairType,
                                                       interleaved));
  }
  mlir::Value result = op.getAcc();
  for (int64_t i = 0; i < rows; ++i) {
    mlir::Value aPairs = mlir::vector::BroadcastOp::create(
        rewriter, loc, pairType,
        mlir::vector::ExtractOp::create(rewriter, loc, a, i));
    mlir::Value row = mlir::vector::ExtractOp::create(rewriter, loc, result, i);
    for (int64_t c = 0; c < cols; c += kLanes) {
      mlir::Value acc = mlir::vector::ExtractStridedSliceOp::create(
          rewriter, loc, row, {c}, {kLanes}, {1});
      mlir::Value dot =
          createPairDot(rewriter, loc, aPairs, bPairs[c / kLanes], acc);
      row = mlir::vector::InsertStridedSliceOp::create(rewriter, loc, dot, row,
                                                       {c}, {1});
    }
    result = mlir::vector::InsertOp::create(rewriter, loc, row, result, i);
  }
  rewriter.replaceOp(op, result);
}

bool isParallelGenericOrFill(mlir::linalg::LinalgOp op) {
  return op.getNumLoops() > 0 && op.getNumLoops() == op.getNumParallelLoops() &&
         llvm::isa<mlir::linalg::GenericOp, mlir::linalg::FillOp>(
             op.getOperation());
}

/// An op with one result that reduces along exactly one loop: a sum, max,
/// min or product of rows or columns.
std::optional<unsigned> reductionLoop(mlir::linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1 ||
      op.getNumLoops() < 2)
    return std::nullopt;
  llvm::SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  return dims.front();
}

/// B of a float matmul that reads it as it lies (no panel): packableRhs, or
/// halfRhs (B f16 or bf16, converted as it is read).
MatmulRhs streamedRhs(mlir::linalg::LinalgOp op) {
  const MatmulRhs rhs = packableRhs(op);
  return rhs.operand ? rhs : halfRhs(op);
}

/// B of `op` for dot products (below): streamedRhs (f32 or f64, or an f16
/// or bf16 B of an f32 matmul: their register tiles would gather B a value
/// at a time; f64 1 x 1024 by (1024 x 1024)^T: 1.67 ms against 111 us as
/// dot products), or of a matmul of integer operands, whose dot products
/// add products into 16 lanes, 16 widened to i32 or, as pair dots, 32 a
/// step (pairDotProducts) (its register tiles of pair dots, without a
/// panel, would gather B one pair at a time: 271 against 36 us for i8 1 x
/// 1024 by (1024 x 1024)^T and 1024 x 1024).
MatmulRhs dotProductRhs(mlir::linalg::LinalgOp op) {
  if (allElements(op,
                  [](mlir::Type t) { return llvm::isa<mlir::IntegerType>(t); }))
    return matmulRhs(op);
  return streamedRhs(op);
}

/// Dot products (see dotProductTiles) computed side by side: independent
/// chains of adds, where one alone waits on the latency of each, and as
/// many rows of B streamed at once. Eight streams read B faster than four
/// (1 x 2048 by (2048 x 2048)^T: 296 against 350 us); sixteen were far
/// slower (580 us; as slow in a hand-written loop, so not the compiler's
/// code).
constexpr int64_t kDotProductsAtOnce = 8;

/// The most dot products (below) computed at a time: a vector register of
/// partial sums each, half of AVX-512's 32, the rest left for the rows they
/// read.
constexpr int64_t kDotProductResults = 16;

/// For a matmul with B stored transposed and too few rows for a packed
/// panel to pay (a matrix-vector product, a linear layer on a few samples):
/// A's rows and B's lie along K, the innermost loop, so each result is a
/// dot product, vectorized along K like a row reduction, and B is read in
/// order instead of gathered. The tiles of outputs: every row of A (B is
/// then read once in all, not once per row: 4 x 2048 by (2048 x 2048)^T,
/// 1.17 ms a row at a time, 0.49 to 0.61 ms at once) by kDotProductsAtOnce
/// rows of B, or a half or a quarter as many, the most that N is a multiple
/// of and that keeps the results within kDotProductResults; else by one.
/// None for any other op.
std::optional<llvm::SmallVector<int64_t>>
dotProductTiles(mlir::linalg::LinalgOp op) {
  const MatmulRhs rhs = dotProductRhs(op);
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!rhs.operand || !rhs.transposed() || rhs.k != ranges.size() - 1 ||
      !hasFewRows(op, rhs))
    return std::nullopt;
  llvm::SmallVector<int64_t> sizes(ranges.size(), 1);
  const int64_t rows = ranges[rhs.m];
  const int64_t n = ranges[rhs.n];
  sizes[rhs.m] = rows;
  if (mlir::ShapedType::isDynamic(n))
    return sizes;
  for (int64_t outputs :
       {kDotProductsAtOnce, kDotProductsAtOnce / 2, kDotProductsAtOnce / 4})
    if (n % outputs == 0 && rows * outputs <= kDotProductResults) {
      sizes[rhs.n] = outputs;
      break;
    }
  return sizes;
}

/// Pair dots (x86 vpmaddwd) in a register tile: at most this many lanes of
/// i32 results (16 of the 32 vector registers; the rest hold B's pairs)...
constexpr int64_t kPairDotResultLanes = 256;
/// ...and at most this many along N (256 for one row: 164 against 97 us
/// for 128, the pairs of B no longer fit in the registers beside them).
constexpr int64_t kPairDotTileLanes = 128;

/// Rows of B that a register tile of few rows by a matrix (below) adds into
/// its results between loading and storing them.
constexpr int64_t kFewRowsStepK = 4;

/// For a matmul of fewer than kFewRows rows of A (a vector times a matrix,
/// a linear layer on a few samples) by B stored K x N: the order of its
/// register tiles' loops (batch, m, k, n), each tile every row of A, so
/// that each row of B is read once, in order, into the rows of results,
/// which stay in the cache, instead of register tiles that each walk down
/// a strip of B one row (a page, at N = 1024 and more) at a time (4 x 2048
/// by 2048 x 2048: 1.55 ms as such tiles, 0.67 ms in this order). Empty for
/// any other op (the loops' own order).
llvm::SmallVector<int64_t> fewRowsOrder(mlir::linalg::LinalgOp op) {
  const MatmulRhs rhs = streamedRhs(op);
  if (!rhs.operand || rhs.transposed() || !hasFewRows(op, rhs))
    return {};
  llvm::SmallVector<int64_t> order;
  if (rhs.batch)
    order.push_back(*rhs.batch);
  order.append({rhs.m, rhs.k, rhs.n});
  return order;
}

/// The threads the compiled code runs on (Pipeline::runThreads, on the
/// module while the stage runs; 0: the runtime's count), 1 without it.
int64_t runThreads(mlir::Operation *op) {
  auto module = op->getParentOfType<mlir::ModuleOp>();
  auto threads =
      module ? module->getAttrOfType<mlir::IntegerAttr>(kThreadsAttr) : nullptr;
  return threads ? threads.getInt() : 1;
}

/// Below this many iterations of its loops (multiply-adds, elements) an op
/// is done before threads would have started on it.
constexpr int64_t kParallelWork = int64_t(1) << 17;

/// A tile loop that may run on threads.
struct ParallelLoop {
  /// Its index among the loops tiling makes.
  unsigned index;
  /// When its trip count is dynamic and every other dim of the op static:
  /// the fewest trips with enough work for threads (fewer run on the
  /// calling thread, decided when the code runs). 0: no such bound.
  int64_t minTrips;
  /// In a contraction whose sizes are all dynamic, the next tile loop
  /// inside this one over a parallel dim, which runs on threads where this
  /// one makes a single trip (a dynamic matmul of N <= 256: one block of
  /// columns, its blocks of rows on threads).
  std::optional<unsigned> fallback;
};

/// Which tile loop of those that tiling `op` with `sizes` (in the order of
/// `interchange`, if any) makes can run on threads: the outermost that runs
/// more than once, when it runs over a parallel dim of `op` and `op` has
/// (or, with dynamic dims, may have) enough work for threads (the loops
/// outside it run once, and fold away).
std::optional<ParallelLoop> parallelLoop(mlir::linalg::LinalgOp op,
                                         llvm::ArrayRef<int64_t> sizes,
                                         llvm::ArrayRef<int64_t> interchange) {
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t work = 1;
  for (int64_t r : ranges)
    work = mlir::ShapedType::isDynamic(r) || work > kParallelWork
               ? kParallelWork
               : work * r;
  if (work < kParallelWork)
    return std::nullopt;
  auto iterators = op.getIteratorTypesArray();
  // The dim of the i-th loop in tiling order, if tiled.
  auto tiledDim = [&](size_t i) -> std::optional<size_t> {
    size_t d = interchange.empty() ? i : size_t(interchange[i]);
    return d < sizes.size() && sizes[d] != 0 ? std::optional(d) : std::nullopt;
  };
  auto once = [&](size_t d) {
    return !mlir::ShapedType::isDynamic(ranges[d]) && ranges[d] <= sizes[d];
  };
  unsigned loop = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    std::optional<size_t> tiled = tiledDim(i);
    if (!tiled)
      continue;
    const size_t d = *tiled;
    if (once(d)) {
      ++loop;
      continue;
    }
    if (!mlir::linalg::isParallelIterator(iterators[d]))
      return std::nullopt;
    // The work of one trip: a tile of this dim, all of the others.
    int64_t perTrip = sizes[d];
    for (size_t other = 0; other < ranges.size() && perTrip; ++other)
      if (other != d)
        perTrip = mlir::ShapedType::isDynamic(ranges[other])
                      ? 0
                      : std::min(perTrip * ranges[other], kParallelWork);
    int64_t minTrips = 0;
    if (mlir::ShapedType::isDynamic(ranges[d]) && perTrip > 0)
      minTrips = (kParallelWork + perTrip - 1) / perTrip;
    ParallelLoop parallel{loop, minTrips, std::nullopt};
    // With a bound on the trips that work allows, a single trip has too
    // little work for threads; an elementwise op's inner loops too little
    // per trip. A convolution's batch of one image has work enough for
    // threads in its rows.
    bool convolution = mlir::linalg::isaConvolutionOpInterface(op);
    if (!mlir::ShapedType::isDynamic(ranges[d]) ||
        (minTrips != 0 && !convolution) ||
        !(convolution || mlir::linalg::isaContractionOpInterface(op)))
      return parallel;
    // Loops over reductions may lie between: within one of their trips,
    // the trips of a loop over a parallel dim are still independent. A
    // convolution's takes the first whose trips share out evenly among
    // the threads (a 7x7 image's 7 rows leave one of two threads idle an
    // eighth of the time; its channel blocks do not), else the first.
    const int64_t threads = runThreads(op);
    auto even = [&](size_t e) {
      if (threads < 2 || mlir::ShapedType::isDynamic(ranges[e]))
        return true;
      int64_t trips = (ranges[e] + sizes[e] - 1) / sizes[e];
      return trips % threads == 0 || trips >= 8 * threads;
    };
    unsigned inner = loop;
    for (size_t j = i + 1; j < ranges.size(); ++j) {
      std::optional<size_t> e = tiledDim(j);
      if (!e)
        continue;
      ++inner;
      if (!mlir::linalg::isParallelIterator(iterators[*e]) || once(*e))
        continue;
      if (!parallel.fallback)
        parallel.fallback = inner;
      if (!convolution || even(*e)) {
        parallel.fallback = inner;
        break;
      }
    }
    return parallel;
  }
  return std::nullopt;
}

/// Marks the loop `parallel` of `tiled` parallel, unless a loop around it
/// already is (one level of threads). The mark holds its minTrips.
void markParallel(mlir::scf::SCFTilingResult &tiled,
                  std::optional<ParallelLoop> parallel) {
  if (!parallel || parallel->index >= tiled.loops.size())
    return;
  mlir::Operation *loop = tiled.loops[parallel->index].getOperation();
  for (mlir::Operation *p = loop->getParentOp(); p; p = p->getParentOp())
    if (p->hasAttr(kParallelLoopAttr))
      return;
  if (!llvm::isa<mlir::scf::ForOp>(loop))
    return;
  auto i64 = mlir::IntegerType::get(loop->getContext(), 64);
  loop->setAttr(kParallelLoopAttr,
                mlir::IntegerAttr::get(i64, parallel->minTrips));
  if (parallel->fallback && *parallel->fallback < tiled.loops.size() &&
      llvm::isa<mlir::scf::ForOp>(
          tiled.loops[*parallel->fallback].getOperation()))
    tiled.loops[*parallel->fallback]->setAttr(
        kParallelFallbackAttr, mlir::UnitAttr::get(loop->getContext()));
}

/// Tiles `op` in place with tile sizes `sizes` (its uses take the tiled
/// loops' results) and marks the loop that may run on threads, if any.
/// `options` gives the loop order (interchange).
mlir::FailureOr<mlir::scf::SCFTilingResult>
tileInPlace(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
            llvm::ArrayRef<int64_t> sizes,
            mlir::scf::SCFTilingOptions options) {
  options.setTileSizes(mlir::getAsIndexOpFoldResult(op->getContext(), sizes));
  // Asked before tiling, which replaces `op`.
  std::optional<ParallelLoop> parallel =
      parallelLoop(op, sizes, options.interchangeVector);
  rewriter.setInsertionPoint(op);
  auto tiled = mlir::scf::tileUsingSCF(
      rewriter, llvm::cast<mlir::TilingInterface>(op.getOperation()), options);
  if (mlir::succeeded(tiled)) {
    rewriter.replaceOp(op, tiled->replacements);
    markParallel(*tiled, parallel);
  }
  return tiled;
}

/// Peels `loop`, the tile loop over a dim of `range` iterations in tiles of
/// `size`, where its last tile may be partial (a dynamic range, or one that
/// `size` does not divide), so that every other tile is full. Whether it
/// did.
bool peelPartialTile(mlir::RewriterBase &rewriter,
                     mlir::LoopLikeOpInterface loop, int64_t range,
                     int64_t size) {
  auto forOp = llvm::dyn_cast<mlir::scf::ForOp>(loop.getOperation());
  const bool lastPartial =
      mlir::ShapedType::isDynamic(range) || (size > 0 && range % size != 0);
  if (!forOp || !lastPartial || size == 1)
    return false;
  mlir::scf::ForOp last;
  return mlir::succeeded(
      mlir::scf::peelForLoopAndSimplifyBounds(rewriter, forOp, last));
}

/// Tiles `op` in place with `sizes` for vectorization: marks its tiles with
/// their vector sizes and peels each tile loop whose last tile may be
/// partial (setting `peeled`), so that the full tiles get static shapes
/// once canonicalized and the partial one masked vectors. `order`, if
/// given, is the order of the tile loops (outermost first).
mlir::LogicalResult tileForVectors(mlir::IRRewriter &rewriter,
                                   mlir::linalg::LinalgOp op,
                                   llvm::ArrayRef<int64_t> sizes, bool &peeled,
                                   llvm::ArrayRef<int64_t> order = {}) {
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  mlir::scf::SCFTilingOptions options;
  if (!order.empty())
    options.setInterchange(order);
  auto tiled = tileInPlace(rewriter, op, sizes, options);
  if (mlir::failed(tiled))
    return mlir::failure();
  for (mlir::Operation *t : tiled->tiledOps)
    t->setAttr(kVectorSizes, rewriter.getDenseI64ArrayAttr(sizes));
  if (tiled->loops.size() == sizes.size())
    for (auto [i, loop] : llvm::enumerate(tiled->loops)) {
      const size_t dim = order.empty() ? i : size_t(order[i]);
      peeled |= peelPartialTile(rewriter, loop, ranges[dim], sizes[dim]);
    }
  return mlir::success();
}

/// Whether tile `t`, tiled with `sizes`, is smaller than them: of dynamic
/// size, or static and smaller along some dim.
bool isPartialTile(mlir::linalg::LinalgOp t, llvm::ArrayRef<int64_t> sizes) {
  if (t.hasDynamicShape())
    return true;
  llvm::SmallVector<int64_t> ranges = t.getStaticLoopRanges();
  if (sizes.size() != ranges.size())
    return false;
  for (auto [range, size] : llvm::zip_equal(ranges, sizes))
    if (range < size)
      return true;
  return false;
}

/// Whether `op`'s body divides integers. A masked tile computes its lanes
/// past the end of the data too, on whatever its masked reads left in them
/// (poison): a division there may divide by zero, which traps on x86
/// (SIGFPE) although no element of the data is divided by zero.
bool dividesIntegers(mlir::linalg::LinalgOp op) {
  return op.getBlock()
      ->walk([](mlir::Operation *o) {
        return llvm::isa<mlir::arith::DivSIOp, mlir::arith::DivUIOp,
                         mlir::arith::RemSIOp, mlir::arith::RemUIOp,
                         mlir::arith::CeilDivSIOp, mlir::arith::CeilDivUIOp,
                         mlir::arith::FloorDivSIOp>(o)
                   ? mlir::WalkResult::interrupt()
                   : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

void markForVectors(mlir::Operation *op) {
  if (op && llvm::isa<mlir::linalg::LinalgOp>(op))
    op->setAttr(kVectorSizes,
                mlir::DenseI64ArrayAttr::get(op->getContext(), {}));
}

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

    mlir::RewritePatternSet conv(ctx);
    mlir::linalg::populateDecomposeConvolutionPatterns(conv);
    convDecomposition = std::move(conv);

    // A linalg.generic contraction vectorizes to a broadcast product and a
    // multi-reduction; as a vector.contract it lowers like a named one.
    mlir::RewritePatternSet contract(ctx);
    mlir::vector::populateVectorReductionToContractPatterns(contract);
    toContraction = std::move(contract);

    // A reduction over dims of size 1 (a column reduction's tile, one row
    // deep) is the combining op itself, not a reduction per lane.
    mlir::RewritePatternSet unit(ctx);
    mlir::vector::MultiDimReductionOp::getCanonicalizationPatterns(unit, ctx);
    unitReductions = std::move(unit);

    // Contractions become outer products (FMAs on rows), transfers with
    // permutation maps become plain ones the LLVM lowering understands.
    mlir::RewritePatternSet lowering(ctx);
    mlir::vector::populateVectorContractLoweringPatterns(
        lowering, mlir::vector::VectorContractLowering::OuterProduct);
    // The unit batch dim of a batch matmul's tile goes first, so that its
    // contraction is a matrix one that lowers to outer products.
    mlir::vector::populateCastAwayVectorLeadingOneDimPatterns(lowering);
    mlir::vector::populateVectorTransferPermutationMapLoweringPatterns(
        lowering);
    // Masked transfers (of dynamic tiles) carry their mask themselves.
    mlir::vector::populateVectorMaskLoweringPatternsForSideEffectingOps(
        lowering);
    // The ends of vectorized reductions: 1-D horizontal reductions, which
    // the LLVM lowering takes.
    mlir::vector::populateVectorMultiReductionLoweringPatterns(
        lowering, mlir::vector::VectorMultiReductionLowering::InnerReduction);
    vectorLowering = std::move(lowering);

    mlir::RewritePatternSet math(ctx);
    mlir::populateMathPolynomialApproximationPatterns(math);
    approximations = std::move(math);
    return mlir::success();
  }

  /// The lanes (along N) of a register tile of pair dots `rows` high: as
  /// many as keep its results within kPairDotResultLanes (16 registers) and
  /// kPairDotTileLanes, where N is a multiple of them; else tileN. Each
  /// register of results is a chain of vpmaddwd and adds that waits on the
  /// one before: a tile of one row by 32 lanes has two (i8 1 x 2048 by
  /// 2048 x 2048: 322 us; 128 lanes: 97 us; 4 rows by 32, 248 us; by 64,
  /// 212 us).
  int64_t pairDotLanes(int64_t rows, int64_t n) const {
    int64_t lanes = tileN;
    while (!mlir::ShapedType::isDynamic(n) && n % (2 * lanes) == 0 &&
           2 * lanes <= kPairDotTileLanes &&
           rows * 2 * lanes <= kPairDotResultLanes)
      lanes *= 2;
    return lanes;
  }

  /// For a contraction with one M, one N and one K loop (and at most one
  /// batch loop), in any loop order and with any operand layout: a named
  /// matmul or batch matmul, or a linalg.generic that is one (transposed
  /// operands included). M and N get the register tile, K and the batch 1
  /// (K: 2 for pair dots, 4 for few rows of A, fewRowsOrder).
  std::optional<llvm::SmallVector<int64_t>>
  contractionTiles(mlir::linalg::LinalgOp op, llvm::ArrayRef<int64_t> ranges) {
    if (!mlir::linalg::isaContractionOpInterface(op))
      return std::nullopt;
    mlir::FailureOr<mlir::linalg::ContractionDimensions> dims =
        mlir::linalg::inferContractionDims(op);
    if (mlir::failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
        dims->k.size() != 1 || dims->batch.size() > 1 ||
        ranges.size() != 3 + dims->batch.size())
      return std::nullopt;
    llvm::SmallVector<int64_t> sizes(ranges.size(), 1);
    sizes[dims->m[0]] = tileFor(ranges[dims->m[0]], tileM, Along::Rows);
    sizes[dims->n[0]] = tileFor(ranges[dims->n[0]], tileN, Along::Lanes);
    // Two steps of K for vpmaddwd (PairDot). An odd or dynamic K is peeled
    // like any dim: its last, single step is a masked contraction.
    int64_t k = ranges[dims->k[0]];
    if (pairDot && isSmallIntegerContraction(op) &&
        (mlir::ShapedType::isDynamic(k) || k >= 2)) {
      sizes[dims->k[0]] = 2;
      if (int64_t lanes = pairDotLanes(sizes[dims->m[0]], ranges[dims->n[0]]);
          lanes > tileN)
        sizes[dims->n[0]] = lanes;
    }
    // Few rows of A (fewRowsOrder): each register tile adds
    // kFewRowsStepK rows of B into its results between a load and
    // a store of them (8: slower).
    if (!fewRowsOrder(op).empty())
      sizes[dims->k[0]] = tileFor(k, kFewRowsStepK, Along::Rows);
    return sizes;
  }

  /// For a 2-D convolution or pooling in NHWC layout, static but for the
  /// batch: one output row of one image at a time, a register block of
  /// output pixels (along W) by channels, every window position and input
  /// channel a loop of its own, so the tile is a 1-D convolution with a
  /// size-1 window, the register block of a matmul, of a static shape
  /// whatever the batch. Loops: n, oh, ow, f, kh, kw, c for conv (filter
  /// HWCF); n, oh, ow, c, kh, kw for depthwise and pooling.
  std::optional<llvm::SmallVector<int64_t>>
  convolutionTiles(mlir::linalg::LinalgOp op, llvm::ArrayRef<int64_t> ranges) {
    if (llvm::any_of(ranges.drop_front(), mlir::ShapedType::isDynamic))
      return std::nullopt;
    // Output pixels along W (rows of the register block), channels (lanes).
    auto pixels = [&] { return tileFor(ranges[2], tileM, Along::Rows); };
    if (llvm::isa<mlir::linalg::Conv2DNhwcHwcfOp>(op.getOperation()))
      return llvm::SmallVector<int64_t>{
          1, 1, pixels(), tileFor(ranges[3], tileN, Along::Lanes), 1, 1, 1};
    if (llvm::isa<mlir::linalg::DepthwiseConv2DNhwcHwcOp,
                  mlir::linalg::PoolingNhwcSumOp,
                  mlir::linalg::PoolingNhwcMaxOp,
                  mlir::linalg::PoolingNhwcMinOp>(op.getOperation()))
      return llvm::SmallVector<int64_t>{
          1, 1, pixels(), tileFor(ranges[3], vectorWidth, Along::Lanes), 1, 1};
    return std::nullopt;
  }

  /// Reduces along another loop than the innermost (a column): the loops
  /// keep their order, so the input is read row after row as it lies in
  /// memory, and each row adds one vector per tile of `vectorWidth`
  /// columns into the outputs, which stay in the cache. Rows of more than
  /// kColumnBlock columns are first cut into blocks of columns, each
  /// reduced over all rows before the next (those blocks may run on
  /// threads). The last, partial tile of a row is peeled and masked. (Down
  /// a column instead, each row is a new page that the prefetcher does not
  /// follow: eight times slower.) True when tiled.
  bool tileColumnReduction(mlir::IRRewriter &rewriter,
                           mlir::linalg::LinalgOp op, bool &peeled) {
    constexpr int64_t kColumnBlock = 1024;
    llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    const unsigned n = ranges.size();
    mlir::linalg::LinalgOp block = op;
    if (mlir::ShapedType::isDynamic(ranges[n - 1]) ||
        ranges[n - 1] > kColumnBlock) {
      llvm::SmallVector<int64_t> blocks(n, 0);
      blocks[n - 1] = tileFor(ranges[n - 1], kColumnBlock, Along::Rows);
      auto tiled = tileInPlace(rewriter, op, blocks, {});
      if (mlir::failed(tiled))
        return false;
      block = llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
    }
    llvm::SmallVector<int64_t> sizes(n, 1);
    sizes[n - 1] =
        tileFor(block.getStaticLoopRanges()[n - 1], vectorWidth, Along::Lanes);
    return mlir::succeeded(tileForVectors(rewriter, block, sizes, peeled));
  }

  /// Reduces along the innermost loop (a row) into `vectorWidth` partial
  /// results, one vector register, merged once at the end of the row; each
  /// output element is a tile of its own, or, with `outputs` (a tile size
  /// per loop, the reduced one's ignored), each tile of outputs reduces its
  /// rows side by side, their partial results independent chains of adds.
  /// Along another loop, see tileColumnReduction. True when tiled.
  bool tileReduction(mlir::IRRewriter &rewriter, mlir::linalg::LinalgOp op,
                     unsigned reduced, bool &peeled,
                     llvm::ArrayRef<int64_t> outputs = {}) {
    llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    const unsigned n = ranges.size();
    if (reduced != n - 1)
      return tileColumnReduction(rewriter, op, peeled);
    mlir::MLIRContext *ctx = op->getContext();
    llvm::SmallVector<int64_t> sizes(n, 1);
    if (outputs.size() == n)
      sizes.assign(outputs.begin(), outputs.end());
    sizes[reduced] = 0;
    auto tiled = tileInPlace(rewriter, op, sizes, {});
    if (mlir::failed(tiled))
      return false;
    mlir::Operation *row = tiled->tiledOps.back();
    // Integer dot products (outputs) that become pair dots take
    // kPairDotChunk values of K a step, each two into one lane
    // (pairDotProducts, after bufferization), where K is a multiple of
    // kPairDotChunk: a last, partial chunk adds into the lanes after the
    // loop, which pairDotProducts does not follow.
    const bool pairs = pairDot && !outputs.empty() &&
                       isSmallIntegerContraction(op) &&
                       !mlir::ShapedType::isDynamic(ranges[reduced]) &&
                       ranges[reduced] % kPairDotChunk == 0;
    const int64_t lanes = tileFor(
        ranges[reduced], pairs ? kPairDotChunk : vectorWidth, Along::Lanes);
    if (lanes < 2) {
      markForVectors(row);
      return true;
    }
    auto partialOp = llvm::dyn_cast<mlir::PartialReductionOpInterface>(row);
    if (!partialOp)
      return true;
    // Upstream's partial-reduction tiling leaves a linalg.index of the
    // reduced loop counting within its chunk instead of along the row: a
    // row that reads by its position (a gather fused into a contraction)
    // would read the first chunk's elements for every chunk. It stays a
    // scalar loop.
    if (auto linalgRow = llvm::dyn_cast<mlir::linalg::LinalgOp>(row))
      if (!linalgRow.getBlock()->getOps<mlir::linalg::IndexOp>().empty())
        return true;
    llvm::SmallVector<int64_t> chunk(n, 0);
    chunk[reduced] = lanes;
    rewriter.setInsertionPoint(row);
    auto partial = mlir::scf::tileReductionUsingScf(
        rewriter, partialOp, mlir::getAsIndexOpFoldResult(ctx, chunk));
    if (mlir::failed(partial))
      return true; // the row stays a scalar loop
    rewriter.replaceOp(row, partial->replacements);
    if (pairs && !partial->loops.empty())
      partial->loops.front()->setAttr(kPairDotProductsAttr,
                                      mlir::UnitAttr::get(ctx));
    // Several results at a time read as many rows side by side, which
    // aot-prefetch-rows prefetches ahead.
    if (!partial->loops.empty() &&
        llvm::any_of(outputs, [](int64_t size) { return size > 1; }))
      partial->loops.front()->setAttr(kPrefetchRowsAttr,
                                      mlir::UnitAttr::get(ctx));
    // A row that the vector does not divide, or of dynamic length: the loop
    // over its chunks is peeled, and its last chunk left a loop, which
    // costs less than a masked vector here (tried: 56 against 77 us for the
    // row sums of 1024 x 1021).
    if (!partial->loops.empty())
      peeled |= peelPartialTile(rewriter, partial->loops.front(),
                                ranges[reduced], lanes);
    for (mlir::Operation *t : partial->tiledOps)
      markForVectors(t);
    for (mlir::Operation *t : partial->mergeOps)
      markForVectors(t);
    for (mlir::Value init : partial->initialValues)
      markForVectors(init.getDefiningOp());
    return true;
  }

  /// A large contraction in blocks that stay in the caches while the
  /// register tiles run over them: a panel of B (kBlockK x kBlockN) is
  /// reused by every row block of A (kBlockM rows) before the next panel.
  /// Loops: N blocks, K blocks, M blocks. A dynamic dim counts as large; its
  /// blocks' register tiles are peeled like any dynamic tile. Returns the
  /// block's op (or `op`).
  mlir::linalg::LinalgOp cacheBlocks(mlir::IRRewriter &rewriter,
                                     mlir::linalg::LinalgOp op) {
    constexpr int64_t kBlockM = 64, kBlockN = 256, kBlockK = 256;
    constexpr int64_t kPackedRowBlocks = 2;
    if (!mlir::linalg::isaContractionOpInterface(op))
      return op;
    auto dims = mlir::linalg::inferContractionDims(op);
    llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (mlir::failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
        dims->k.size() != 1 || dims->batch.size() > 1)
      return op;
    unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
    auto small = [](int64_t size, int64_t block) {
      return !mlir::ShapedType::isDynamic(size) && size <= block;
    };
    // Few rows of A by B stored K x N: B is read row after row, whole, into
    // rows of results that stay in the cache (longer runs of B stream
    // faster: 1024 columns at a time 20% slower at N = 2048 on one thread,
    // 256 by 256 blocks 50%). Wider rows are cut into blocks, which may run
    // on threads; for code that runs on threads, into a block per thread,
    // of 512 columns or more (1 x 2048 by 2048 x 2048, aot-run: 390 to 435
    // us on one thread, 191 to 193 on two).
    if (!fewRowsOrder(op).empty()) {
      constexpr int64_t kRowBlock = 2048, kThreadRowBlock = 512;
      int64_t block = kRowBlock;
      const int64_t threads = runThreads(op);
      if (threads != 1 && !mlir::ShapedType::isDynamic(ranges[n]))
        block = std::clamp<int64_t>(
            llvm::alignTo(llvm::divideCeil(ranges[n], threads ? threads : 2),
                          kThreadRowBlock),
            kThreadRowBlock, kRowBlock);
      if (small(ranges[n], block))
        return op;
      llvm::SmallVector<int64_t> sizes(ranges.size(), 0);
      sizes[n] = tileFor(ranges[n], block, Along::Rows);
      auto tiled = tileInPlace(rewriter, op, sizes, {});
      return mlir::failed(tiled)
                 ? op
                 : llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
    }
    // B stored transposed is packed whatever its size, where enough rows
    // read it: each register tile would otherwise gather B one value at a
    // time at every step of K (17 times slower at 2048).
    const MatmulRhs rhs = packableRhs(op);
    const bool transposed = rhs.operand && rhs.transposed();
    auto manyRows = [&](int64_t rows) {
      return mlir::ShapedType::isDynamic(ranges[m]) || ranges[m] >= rows;
    };
    if (small(ranges[k], kBlockK) && small(ranges[n], kBlockN) &&
        !(transposed && manyRows(kFewRows)))
      return op;
    llvm::SmallVector<int64_t> sizes(ranges.size(), 0);
    sizes[m] = tileFor(ranges[m], kBlockM, Along::Rows);
    sizes[n] = tileFor(ranges[n], kBlockN, Along::Rows);
    sizes[k] = tileFor(ranges[k], kBlockK, Along::Rows);
    for (unsigned b : dims->batch)
      sizes[b] = 1;
    llvm::SmallVector<int64_t> order(dims->batch.begin(), dims->batch.end());
    order.append({n, k, m});
    mlir::scf::SCFTilingOptions options;
    options.setInterchange(order);
    auto tiled = tileInPlace(rewriter, op, sizes, options);
    if (mlir::failed(tiled))
      return op;
    // The last tiled op computes the results (SCFTilingResult).
    auto block = llvm::cast<mlir::linalg::LinalgOp>(tiled->tiledOps.back());
    // Where several row blocks read each panel of B, it is packed first:
    // the copy, B read row after row, costs less than what the register
    // tiles lose to B's strided rows (128 x 1024 @ 1024 x 1024 on one
    // thread: 2.9 against 2.7 ms, B in the cache; 8 layers of it, B read
    // from memory: 24 against 22 ms). With one row block it costs more
    // where B is in the cache (64 rows: 1.25 against 1.35-1.4 ms; 8 rows
    // 0.17 against 0.27), and where B comes from memory the prefetch of
    // the next block does better (8 rows: 2.1 ms, 3.6 packed, 5.0 neither;
    // 64 rows 11.2, 12.5, 13.7). A transposed B costs far more unpacked:
    // one row block pays for its copy.
    if (!manyRows(transposed ? kFewRows : kPackedRowBlocks * kBlockM) ||
        tiled->loops.size() != 3 + dims->batch.size()) {
      // B read where it lies, a block at a time down its columns: from
      // memory, each step of K is a new page. The next block is prefetched
      // row after row while this one runs (aot-prefetch-rows).
      if (rhs.operand && !transposed && dims->batch.empty() &&
          tiled->loops.size() == 3)
        tiled->loops[1]->setAttr(kPrefetchNextBlockAttr,
                                 mlir::UnitAttr::get(op->getContext()));
      return block;
    }
    auto rowLoop =
        llvm::dyn_cast<mlir::scf::ForOp>(tiled->loops.back().getOperation());
    if (!rowLoop)
      return block;
    return packRhsPanel(rewriter, block, rowLoop, sizes[k], sizes[n],
                        tileFor(sizes[n], tileN, Along::Lanes));
  }

  /// Tile sizes for `op`, or empty when the op is left alone.
  llvm::SmallVector<int64_t> tileSizesFor(mlir::linalg::LinalgOp op) {
    llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    if (std::optional<llvm::SmallVector<int64_t>> sizes =
            convolutionTiles(op, ranges))
      return *sizes;
    if (std::optional<llvm::SmallVector<int64_t>> sizes =
            contractionTiles(op, ranges))
      return *sizes;
    if (isParallelGenericOrFill(op)) {
      llvm::SmallVector<int64_t> sizes(ranges.size(), 1);
      sizes.back() = tileFor(ranges.back(), vectorWidth, Along::Lanes);
      return sizes;
    }
    return {};
  }

  void runOnOperation() override {
    mlir::func::FuncOp fn = getOperation();
    mlir::IRRewriter rewriter(fn.getContext());
    collapseFills(rewriter, fn);
    branchOnFewRows(rewriter, fn);
    prepareContractions(rewriter, fn);
    transposeIntegerRhs(rewriter, fn);

    llvm::SmallVector<mlir::linalg::LinalgOp> candidates;
    llvm::SmallVector<std::pair<mlir::linalg::LinalgOp, unsigned>> reductions;
    llvm::SmallVector<
        std::pair<mlir::linalg::LinalgOp, llvm::SmallVector<int64_t>>>
        dots;
    fn.walk([&](mlir::linalg::LinalgOp op) {
      if (!op.hasPureTensorSemantics() || touchesI1(op))
        return;
      if (std::optional<llvm::SmallVector<int64_t>> tiles = dotProductTiles(op))
        dots.push_back({op, std::move(*tiles)});
      else if (!tileSizesFor(op).empty())
        candidates.push_back(op);
      else if (std::optional<unsigned> dim = reductionLoop(op))
        reductions.push_back({op, *dim});
    });
    bool peeled = false;
    for (auto [op, dim] : reductions)
      (void)tileReduction(rewriter, op, dim, peeled);
    for (auto &[op, tiles] : dots)
      (void)tileReduction(rewriter, op, op.getNumLoops() - 1, peeled, tiles);

    // Tile each op; the tiles are marked with their vector sizes. The loop
    // over a dynamic dim, or a static one that the tile does not divide, is
    // peeled: its full tiles get static shapes (after the canonicalization
    // below) and plain vectors, the last partial tile masked ones.
    for (mlir::linalg::LinalgOp op : candidates) {
      op = cacheBlocks(rewriter, op);
      // Where tiling fails, the loop lowering handles the op untiled.
      (void)tileForVectors(rewriter, op, tileSizesFor(op), peeled,
                           fewRowsOrder(op));
    }
    // Full tiles: sizes folded to constants, slices and ops made static.
    if (peeled)
      (void)mlir::applyPatternsGreedily(fn, canonicalization);

    // Tiles of 2-D convolutions have size-1 windows: as 1-D convolutions
    // the vectorizer takes them. The new ops are marked as they are made.
    llvm::SmallVector<mlir::Operation *> convTiles;
    fn.walk([&](mlir::linalg::LinalgOp t) {
      if (t->hasAttr(kVectorSizes) &&
          llvm::isa<mlir::linalg::ConvolutionOpInterface>(t.getOperation()))
        convTiles.push_back(t);
    });
    if (!convTiles.empty()) {
      struct MarkNewConvolutions : mlir::RewriterBase::Listener {
        void notifyOperationInserted(mlir::Operation *op,
                                     mlir::OpBuilder::InsertPoint) override {
          if (llvm::isa<mlir::linalg::ConvolutionOpInterface>(op))
            op->setAttr(kVectorSizes,
                        mlir::DenseI64ArrayAttr::get(op->getContext(), {}));
        }
      } marker;
      mlir::GreedyRewriteConfig config;
      config.setListener(&marker);
      (void)mlir::applyOpPatternsGreedily(convTiles, convDecomposition, config);
    }

    llvm::SmallVector<mlir::linalg::LinalgOp> tiles;
    fn.walk([&](mlir::linalg::LinalgOp t) {
      if (t->hasAttr(kVectorSizes))
        tiles.push_back(t);
    });
    for (mlir::linalg::LinalgOp t : tiles) {
      auto sizes = t->getAttrOfType<mlir::DenseI64ArrayAttr>(kVectorSizes);
      t->removeAttr(kVectorSizes);
      // A partial tile (of dynamic size, or the static last one of a peeled
      // loop) is vectorized at the full tile's size, with masks for the
      // lanes past the end of the data.
      // One that divides integers stays scalar instead: no lane past the end
      // is computed (x86 divides vectors of integers a lane at a time anyway).
      llvm::SmallVector<int64_t> vectorSizes;
      if (isPartialTile(t, sizes.asArrayRef())) {
        if (dividesIntegers(t))
          continue;
        vectorSizes.assign(sizes.asArrayRef().begin(),
                           sizes.asArrayRef().end());
      }
      llvm::SmallVector<bool> scalable(vectorSizes.size(), false);
      rewriter.setInsertionPoint(t);
      // Contractions stay contractions, so they lower to outer products.
      auto vectorized = mlir::linalg::vectorize(
          rewriter, t, vectorSizes, scalable,
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false,
          /*createNamedContraction=*/true);
      if (mlir::succeeded(vectorized)) {
        if (t->getNumResults())
          rewriter.replaceOp(t, vectorized->replacements);
        else
          rewriter.eraseOp(t);
      }
    }

    (void)mlir::applyPatternsGreedily(fn, toContraction);
    llvm::SmallVector<mlir::Operation *> reductionsOfOneRow;
    fn.walk([&](mlir::vector::MultiDimReductionOp r) {
      auto shape = r.getSourceVectorType().getShape();
      if (llvm::all_of(r.getReductionDims(),
                       [&](int64_t d) { return shape[d] == 1; }))
        reductionsOfOneRow.push_back(r);
    });
    if (!reductionsOfOneRow.empty())
      (void)mlir::applyOpPatternsGreedily(reductionsOfOneRow, unitReductions);

    // Integer register blocks stay contractions here, to become pair dots
    // once their accumulators are hoisted (below); the vector lowering
    // leaves them alone, and aot-x86-pair-dot lowers the pair dots after
    // bufferization.
    llvm::SmallVector<mlir::Operation *> toLower;
    bool pairDotBlocks = false;
    if (pairDot) {
      fn.walk([&](mlir::vector::ContractionOp c) {
        if (isPairDotBlock(c)) {
          c->setAttr(kPairDotBlock, mlir::UnitAttr::get(c.getContext()));
          pairDotBlocks = true;
        }
      });
      if (pairDotBlocks)
        fn.walk([&](mlir::Operation *o) {
          if (!o->hasAttr(kPairDotBlock) && o != fn.getOperation())
            toLower.push_back(o);
        });
    }
    if (!toLower.empty()) {
      mlir::GreedyRewriteConfig config;
      config.setStrictness(mlir::GreedyRewriteStrictness::ExistingAndNewOps);
      if (mlir::failed(
              mlir::applyOpPatternsGreedily(toLower, vectorLowering, config)))
        return signalPassFailure();
    } else if (mlir::failed(mlir::applyPatternsGreedily(fn, vectorLowering))) {
      return signalPassFailure();
    }

    // Math functions on vectors as vector arithmetic (MLIR's polynomial
    // approximations of exp, log, tanh, erf, ...) instead of a libm call per
    // lane; scalar math keeps its libm call.
    llvm::SmallVector<mlir::Operation *> vectorMath;
    fn.walk([&](mlir::Operation *op) {
      if (llvm::isa_and_nonnull<mlir::math::MathDialect>(op->getDialect()) &&
          op->getNumResults() == 1 &&
          llvm::isa<mlir::VectorType>(op->getResult(0).getType()))
        vectorMath.push_back(op);
    });
    if (!vectorMath.empty()) {
      mlir::GreedyRewriteConfig config;
      config.setStrictness(mlir::GreedyRewriteStrictness::ExistingAndNewOps);
      (void)mlir::applyOpPatternsGreedily(vectorMath, approximations, config);
    }

    // Keep accumulators in registers: hoist loop-invariant subsets (the
    // output tile's reads and writes) out of the reduction loops, innermost
    // loops first.
    hoistAccumulators(fn, rewriter);
    // What depends only on the outer loops (a row's mean, its reciprocal
    // square root of the variance, read broadcast into every column tile)
    // is computed once per row, not once per tile.
    // (Subset hoisting replaced loops: walk them again.)
    for (mlir::LoopLikeOpInterface loop : loopsOf(fn))
      (void)mlir::moveLoopInvariantCode(loop);
    // Some accumulators' reads and writes become invariant only once the
    // code above moved out what the loop does not change: the masks and
    // sizes of partial tiles, the indices of pair-dot blocks (whose K loops
    // step by two). Hoist again.
    hoistAccumulators(fn, rewriter);
    reassociateLaneMerges(fn);

    if (!pairDotBlocks)
      return;
    llvm::SmallVector<mlir::vector::ContractionOp> blocks;
    fn.walk([&](mlir::vector::ContractionOp c) {
      if (c->hasAttr(kPairDotBlock))
        blocks.push_back(c);
    });
    for (mlir::vector::ContractionOp c : blocks) {
      c->removeAttr(kPairDotBlock);
      splitIntoPairDots(c, rewriter);
    }
  }

  /// Every loop of `fn`, innermost first.
  static llvm::SmallVector<mlir::LoopLikeOpInterface>
  loopsOf(mlir::func::FuncOp fn) {
    llvm::SmallVector<mlir::LoopLikeOpInterface> loops;
    fn.walk([&](mlir::LoopLikeOpInterface loop) { loops.push_back(loop); });
    return loops;
  }

  /// Float horizontal adds (the merge of a row reduction's or a dot
  /// product's partial sums, lane by lane) add the lanes in any order: a
  /// tree of adds instead of a chain of one per lane, each waiting on the
  /// last (about a tenth of the time of a vector times a 2048 x 2048
  /// matrix stored transposed, where each 8 results end in 8 of them).
  /// Every vector op here is the tiling's (the input contract admits none),
  /// and its lanes already sum the terms in another order than the
  /// source's. Deterministic still: the same code adds in the same order on
  /// any thread count.
  static void reassociateLaneMerges(mlir::func::FuncOp fn) {
    fn.walk([](mlir::vector::ReductionOp merge) {
      if (merge.getKind() == mlir::vector::CombiningKind::ADD &&
          llvm::isa<mlir::FloatType>(merge.getType()))
        merge.setFastmath(merge.getFastmath() |
                          mlir::arith::FastMathFlags::reassoc);
    });
  }

  static void hoistAccumulators(mlir::func::FuncOp fn,
                                mlir::RewriterBase &rewriter) {
    for (mlir::LoopLikeOpInterface loop : loopsOf(fn))
      (void)mlir::hoistLoopInvariantSubsets(rewriter, loop);
  }
};
} // namespace
} // namespace aot
