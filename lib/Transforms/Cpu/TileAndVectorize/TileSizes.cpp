//===- TileSizes.cpp - register tiles and cache blocks, chosen -----------===//
#include "Transforms/Cpu/TileAndVectorize/TileSizes.h"
#include "Transforms/Attributes.h"
#include "Transforms/Common/ContractionForms.h"
#include "Transforms/Cpu/PackPanels.h"
#include "Transforms/Cpu/PairDotForms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

#include <algorithm>

namespace aot::tile_and_vectorize {

namespace {

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

} // namespace

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

int64_t blockOfTiles(int64_t dim, int64_t wanted, int64_t tile) {
  const int64_t block = tileFor(dim, wanted, Along::Rows);
  if (tile <= 1 || wanted < tile || mlir::ShapedType::isDynamic(dim) ||
      dim <= wanted || block % tile == 0)
    return block;
  if (dim % tile == 0)
    return tile * tileFor(dim / tile, wanted / tile, Along::Rows);
  return wanted - wanted % tile;
}

int64_t blockForThreads(int64_t dim, int64_t block, int64_t tile,
                        int64_t threads) {
  if (threads <= 1 || tile < 1 || block % tile != 0 ||
      mlir::ShapedType::isDynamic(dim) || dim % tile != 0)
    return block;
  const int64_t blocks = llvm::divideCeil(dim, block);
  if (blocks % threads == 0)
    return block;
  const int64_t tiles = dim / tile;
  for (int64_t count = llvm::alignTo(blocks, threads); count <= 2 * blocks;
       count += threads)
    if (tiles % count == 0)
      return tiles / count * tile;
  return block;
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

static bool isParallelGenericOrFill(mlir::linalg::LinalgOp op) {
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
static MatmulRhs streamedRhs(mlir::linalg::LinalgOp op) {
  const MatmulRhs rhs = packableRhs(op);
  return rhs.operand ? rhs : halfRhs(op);
}

/// B of `op` for dot products (below): streamedRhs (f32 or f64, or an f16
/// or bf16 B of an f32 matmul: their register tiles would gather B a value
/// at a time, far slower than dot products), or of a matmul of integer
/// operands, whose dot products add products into 16 lanes, 16 widened to
/// i32 or, as pair dots, 32 a step (pairDotProducts) (its register tiles of
/// pair dots, without a panel, would gather B one pair at a time, as far
/// slower). Few rows by B stored transposed: aot-bench --only=layouts and
/// --only=matmul, `aot-run --benchmark` for f64; docs/performance.md,
/// "Matmul layouts and few rows".
static MatmulRhs dotProductRhs(mlir::linalg::LinalgOp op) {
  if (allElements(op,
                  [](mlir::Type t) { return llvm::isa<mlir::IntegerType>(t); }))
    return matmulRhs(op);
  return streamedRhs(op);
}

/// Dot products (see dotProductTiles) computed side by side: independent
/// chains of adds, where one alone waits on the latency of each, and as
/// many rows of B streamed at once. Eight streams read B faster than four,
/// and sixteen far slower, as slow in a hand-written loop, so not the
/// compiler's code's doing (1 x 2048 by (2048 x 2048)^T; aot-bench
/// --only=layouts, docs/performance.md, "Matmul layouts and few rows").
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
/// then read once in all, not once per row, which is faster: 4 x 2048 by
/// (2048 x 2048)^T in docs/performance.md, "Matmul layouts and few rows")
/// by kDotProductsAtOnce rows of B, or a half or a quarter as many, the
/// most that N is a multiple of and that keeps the results within
/// kDotProductResults; else by one.
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
/// ...and at most this many along N (256 for one row is slower than 128:
/// the pairs of B no longer fit in the registers beside them; aot-bench
/// --only=matmul, docs/performance.md, "Matmul layouts and few rows").
constexpr int64_t kPairDotTileLanes = 128;

/// Rows of B that a register tile of few rows by a matrix (below) adds into
/// its results between loading and storing them.
constexpr int64_t kFewRowsStepK = 4;

/// For a matmul of fewer than kFewRows rows of A (a vector times a matrix,
/// a linear layer on a few samples) by B stored K x N: the order of its
/// register tiles' loops (batch, m, k, n), each tile every row of A, so
/// that each row of B is read once, in order, into the rows of results,
/// which stay in the cache, instead of register tiles that each walk down
/// a strip of B one row (a page, at N = 1024 and more) at a time, which are
/// slower (4 x 2048 by 2048 x 2048; aot-bench --only=layouts,
/// docs/performance.md, "Matmul layouts and few rows"). Empty for any other
/// op (the loops' own order).
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

/// Whether `op` is a 2-D convolution (NHWC input, HWCF filter, static but
/// for the batch) whose filter holds more values than one image of its
/// input. Its register blocks then run a block of output channels at a
/// time (filterBlocks in Tiling.cpp), so that each block's slice of the
/// filter (every window position and input channel by a register block of
/// channels: 3 x 3 x 512 x 16 floats, 288 KiB) is read from memory once and
/// stays in the cache while every output pixel reads it, and only the
/// smaller image is read again, once a block. In the loops' own order (a
/// row of output pixels at a time, every block of channels), the whole
/// filter is read once per register block of pixels: 14 times from memory
/// for ResNet-50's 3 x 3 x 512 x 512 filter over a 7 x 7 image, which ran
/// at a fifth of the rate of the same convolution over larger images. Where
/// the image is the larger, the filter stays in the cache in the loops' own
/// order, which reads the image once. (bench/onnx/models.py resnet50;
/// docs/performance.md, "On a machine without AVX-512".) An image of
/// dynamic size is taken to be outweighed by a filter of more than
/// kLargeFilter values, one that does not stay in a core's L2 cache.
bool filterOutweighsImage(mlir::linalg::LinalgOp op) {
  constexpr int64_t kLargeFilter = int64_t(1) << 18;
  if (!llvm::isa<mlir::linalg::Conv2DNhwcHwcfOp>(op.getOperation()) ||
      op.getNumDpsInputs() != 2)
    return false;
  auto image = llvm::dyn_cast<mlir::ShapedType>(
      op.getDpsInputOperand(0)->get().getType());
  auto filter = llvm::dyn_cast<mlir::ShapedType>(
      op.getDpsInputOperand(1)->get().getType());
  if (!image || !filter || !filter.hasStaticShape() || image.getRank() != 4 ||
      image.isDynamicDim(3))
    return false;
  if (image.isDynamicDim(1) || image.isDynamicDim(2))
    return filter.getNumElements() > kLargeFilter;
  return filter.getNumElements() >
         image.getDimSize(1) * image.getDimSize(2) * image.getDimSize(3);
}

/// The threads the compiled code runs on (Pipeline::runThreads, on the
/// module while the stage runs; 0: the runtime's count), 1 without it.
int64_t runThreads(mlir::Operation *op) {
  auto module = op->getParentOfType<mlir::ModuleOp>();
  auto threads =
      module ? module->getAttrOfType<mlir::IntegerAttr>(kThreadsAttr) : nullptr;
  return threads ? threads.getInt() : 1;
}

int64_t threadsToShareFor(mlir::Operation *op) {
  const int64_t threads = runThreads(op);
  return threads ? threads : 2;
}

/// Below this many iterations of its loops (multiply-adds, elements) an op
/// is done before threads would have started on it.
constexpr int64_t kParallelWork = int64_t(1) << 17;

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

/// The lanes (along N) of a register tile of pair dots `rows` high: as
/// many as keep its results within kPairDotResultLanes (16 registers) and
/// kPairDotTileLanes, where N is a multiple of them; else tileN. Each
/// register of results is a chain of vpmaddwd and adds that waits on the
/// one before: a tile of one row by 32 lanes has two, and runs far slower
/// than one of 128 lanes; 4 rows run faster by 64 lanes than by 32 (i8 1
/// and 4 x 2048 by 2048 x 2048; aot-bench --only=matmul,
/// docs/performance.md, "Matmul layouts and few rows").
static int64_t pairDotLanes(int64_t rows, int64_t n, int64_t tileN) {
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
static std::optional<llvm::SmallVector<int64_t>>
contractionTiles(mlir::linalg::LinalgOp op, llvm::ArrayRef<int64_t> ranges,
                 const TileOptions &options) {
  if (!mlir::linalg::isaContractionOpInterface(op))
    return std::nullopt;
  mlir::FailureOr<mlir::linalg::ContractionDimensions> dims =
      mlir::linalg::inferContractionDims(op);
  if (mlir::failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1 ||
      ranges.size() != 3 + dims->batch.size())
    return std::nullopt;
  llvm::SmallVector<int64_t> sizes(ranges.size(), 1);
  sizes[dims->m[0]] = tileFor(ranges[dims->m[0]], options.tileM, Along::Rows);
  sizes[dims->n[0]] = tileFor(ranges[dims->n[0]], options.tileN, Along::Lanes);
  // Two steps of K for vpmaddwd (PairDot). An odd or dynamic K is peeled
  // like any dim: its last, single step is a masked contraction.
  int64_t k = ranges[dims->k[0]];
  if (options.pairDot && isSmallIntegerContraction(op) &&
      (mlir::ShapedType::isDynamic(k) || k >= 2)) {
    sizes[dims->k[0]] = 2;
    if (int64_t lanes =
            pairDotLanes(sizes[dims->m[0]], ranges[dims->n[0]], options.tileN);
        lanes > options.tileN)
      sizes[dims->n[0]] = lanes;
  }
  // Few rows of A (fewRowsOrder): each register tile adds
  // kFewRowsStepK rows of B into its results between a load and
  // a store of them (8: slower).
  if (!fewRowsOrder(op).empty())
    sizes[dims->k[0]] = tileFor(k, kFewRowsStepK, Along::Rows);
  return sizes;
}

bool windowedOverPixels(mlir::linalg::LinalgOp op) {
  return llvm::isa<
      mlir::linalg::Conv2DNhwcHwcfOp, mlir::linalg::DepthwiseConv2DNhwcHwcOp,
      mlir::linalg::PoolingNhwcSumOp, mlir::linalg::PoolingNhwcMaxOp,
      mlir::linalg::PoolingNhwcMinOp>(op.getOperation());
}

/// For a 2-D convolution or pooling in NHWC layout, of static channels and
/// window: one output row of one image at a time, a register block of
/// output pixels (along W) by channels, every window position and input
/// channel a loop of its own, so the tile is a 1-D convolution with a
/// size-1 window, the register block of a matmul, of a static shape
/// whatever the batch. Over an image of dynamic height or width, the loop
/// along W is peeled like any other over a dynamic dim: its full tiles are
/// static, its last partial one is not. Loops: n, oh, ow, f, kh, kw, c for
/// conv (filter HWCF); n, oh, ow, c, kh, kw for depthwise and pooling.
static std::optional<llvm::SmallVector<int64_t>>
convolutionTiles(mlir::linalg::LinalgOp op, llvm::ArrayRef<int64_t> ranges,
                 const TileOptions &options) {
  if (!windowedOverPixels(op) || ranges.size() < 4 ||
      llvm::any_of(ranges.drop_front(3), mlir::ShapedType::isDynamic))
    return std::nullopt;
  // Output pixels along W (rows of the register block), channels (lanes).
  auto pixels = [&] {
    return tileFor(ranges[kPixelLoop], options.tileM, Along::Rows);
  };
  if (llvm::isa<mlir::linalg::Conv2DNhwcHwcfOp>(op.getOperation()))
    return llvm::SmallVector<int64_t>{
        1, 1, pixels(), tileFor(ranges[3], options.tileN, Along::Lanes),
        1, 1, 1};
  // Depthwise and pooling.
  return llvm::SmallVector<int64_t>{
      1, 1, pixels(), tileFor(ranges[3], options.vectorWidth, Along::Lanes),
      1, 1};
}

/// Rows and lanes of a transpose's square tiles (below).
constexpr int64_t kTransposeBlock = 8;

/// For a linalg.transpose: where it moves the innermost dim, square tiles
/// over the output's innermost dim and the one that reads the input's
/// innermost dim, each read as rows of the input, transposed in registers
/// and written as rows of the output; where the innermost dim stays, rows
/// copied a vector at a time. Scalar, an element at a time, each read of a
/// moved dim was a cache line of its own (BERT-base's keys, 128 x 96 x 64
/// to 96 x 64 x 128 per layer; bench/onnx/models.py and perf).
static std::optional<llvm::SmallVector<int64_t>>
transposeTiles(mlir::linalg::LinalgOp op, llvm::ArrayRef<int64_t> ranges,
               const TileOptions &options) {
  auto transpose = llvm::dyn_cast<mlir::linalg::TransposeOp>(op.getOperation());
  if (!transpose || ranges.empty())
    return std::nullopt;
  llvm::ArrayRef<int64_t> permutation = transpose.getPermutation();
  const size_t last = ranges.size() - 1;
  const size_t readsLast =
      llvm::find(permutation, int64_t(last)) - permutation.begin();
  llvm::SmallVector<int64_t> sizes(ranges.size(), 1);
  if (readsLast == last) {
    sizes[last] = tileFor(ranges[last], options.vectorWidth, Along::Lanes);
    return sizes;
  }
  // Whole tiles only: a partial one would read and write through masks
  // of both dims, which vectorized wrong (ViT's transposes of 17 tokens;
  // tests/onnx/zoo.py); those keep scalar code.
  auto whole = [](int64_t dim) {
    return !mlir::ShapedType::isDynamic(dim) && dim % kTransposeBlock == 0;
  };
  if (!whole(ranges[last]) || !whole(ranges[readsLast]))
    return std::nullopt;
  sizes[last] = kTransposeBlock;
  sizes[readsLast] = kTransposeBlock;
  return sizes;
}

/// Tile sizes for `op`, or empty when the op is left alone.
llvm::SmallVector<int64_t> tileSizesFor(mlir::linalg::LinalgOp op,
                                        const TileOptions &options) {
  llvm::SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (std::optional<llvm::SmallVector<int64_t>> sizes =
          convolutionTiles(op, ranges, options))
    return *sizes;
  if (std::optional<llvm::SmallVector<int64_t>> sizes =
          contractionTiles(op, ranges, options))
    return *sizes;
  if (std::optional<llvm::SmallVector<int64_t>> sizes =
          transposeTiles(op, ranges, options))
    return *sizes;
  if (isParallelGenericOrFill(op)) {
    llvm::SmallVector<int64_t> sizes(ranges.size(), 1);
    sizes.back() = tileFor(ranges.back(), options.vectorWidth, Along::Lanes);
    return sizes;
  }
  return {};
}

} // namespace aot::tile_and_vectorize
