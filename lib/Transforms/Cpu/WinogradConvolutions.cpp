//===- WinogradConvolutions.cpp - aot-winograd-convolutions ---------------===//
//
// A 3 x 3 convolution of unit strides computes each 2 x 2 block of its
// outputs from a 4 x 4 block of its input: Winograd's minimal filtering
// F(2 x 2, 3 x 3) does that with 16 products per pair of channels where the
// direct convolution takes 36. The filter, a constant, is transformed here,
// at compile time, into 16 matrices C x F; each 4 x 4 input block becomes
// 16 rows of C values (sums and differences only), the products are one
// batch of 16 matmuls, which aot-tile-and-vectorize tiles as any other, and
// each output block is again sums and differences of 16 of their rows. The
// two transforms are written here directly as vector loops over tensors, a
// block of pixels and a vector of channels at a time: as linalg ops they
// would each read the input 16 times. Their loop over rows of blocks is
// marked to run on threads as tiled loops are.
//
// The transforms' coefficients are 1, -1 and 1/2, so the results differ from
// the direct convolution's by rounding only (tests/models/winograd_conv.py
// states the tolerance against numpy's direct convolution).
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/ConstantBytes.h"
#include "Transforms/Cpu/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

namespace aot {
#define GEN_PASS_DEF_WINOGRADCONVOLUTIONS
#include "Transforms/Cpu/Passes.h.inc"

namespace {

using mlir::Value;

/// G of F(2, 3): the filter's 3 taps to the 4 points of a block.
constexpr double kG[4][3] = {
    {1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};

/// The filter g (3 x 3 x C x F, HWCF) as 16 matrices C x F, the one of
/// block point (a, b) at a * 4 + b: G g G^T for each pair of channels, in
/// double, rounded once.
std::vector<float> transformFilter(llvm::ArrayRef<float> g, int64_t c,
                                   int64_t f) {
  const int64_t cf = c * f;
  std::vector<float> u(16 * cf);
  for (int64_t e = 0; e < cf; ++e) {
    double gg[3][3];
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s)
        gg[r][s] = g[(r * 3 + s) * cf + e];
    for (int a = 0; a < 4; ++a) {
      double row[3] = {0, 0, 0};
      for (int s = 0; s < 3; ++s)
        for (int r = 0; r < 3; ++r)
          row[s] += kG[a][r] * gg[r][s];
      for (int b = 0; b < 4; ++b) {
        double sum = 0;
        for (int s = 0; s < 3; ++s)
          sum += row[s] * kG[b][s];
        u[(a * 4 + b) * cf + e] = static_cast<float>(sum);
      }
    }
  }
  return u;
}

/// A convolution this pass rewrites, with its static sizes.
struct Candidate {
  mlir::linalg::Conv2DNhwcHwcfOp op;
  mlir::arith::ConstantOp filter;
  /// The padded input's rows and columns, the channels in and out, the
  /// output's rows and columns, and the 2 x 2 blocks along each.
  int64_t hp, wp, c, f, ho, wo, th, tw;
};

/// `op` when it is a 3 x 3 convolution of unit strides and dilations on f32
/// with static dims but the batch, a constant filter, channels in and out in
/// whole vectors of `width` and images of enough 2 x 2 blocks.
std::optional<Candidate> candidate(mlir::linalg::Conv2DNhwcHwcfOp op,
                                   int64_t width) {
  auto ones = [](mlir::DenseIntElementsAttr attr) {
    return llvm::all_of(attr.getValues<int64_t>(),
                        [](int64_t v) { return v == 1; });
  };
  if (!op.hasPureTensorSemantics() || !ones(op.getStrides()) ||
      !ones(op.getDilations()))
    return std::nullopt;
  auto in = llvm::dyn_cast<mlir::RankedTensorType>(op.getInputs()[0].getType());
  auto filterType =
      llvm::dyn_cast<mlir::RankedTensorType>(op.getInputs()[1].getType());
  auto out = llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
  if (!in || !filterType || !out || !in.getElementType().isF32() ||
      !filterType.getElementType().isF32() || !out.getElementType().isF32() ||
      !filterType.hasStaticShape() || filterType.getDimSize(0) != 3 ||
      filterType.getDimSize(1) != 3)
    return std::nullopt;
  for (int d = 1; d < 4; ++d)
    if (in.isDynamicDim(d) || out.isDynamicDim(d))
      return std::nullopt;
  Candidate k{op,
              nullptr,
              in.getDimSize(1),
              in.getDimSize(2),
              in.getDimSize(3),
              out.getDimSize(3),
              out.getDimSize(1),
              out.getDimSize(2),
              0,
              0};
  if (k.c % width != 0 || k.f % width != 0)
    return std::nullopt;
  k.filter = op.getInputs()[1].getDefiningOp<mlir::arith::ConstantOp>();
  if (!k.filter)
    return std::nullopt;
  k.th = llvm::divideCeil(k.ho, 2);
  k.tw = llvm::divideCeil(k.wo, 2);
  // Each matrix of the transformed filter, 16/9 the size of the filter,
  // serves as many rows of products as the batch has blocks; the direct
  // convolution reads its filter once per block of pixels. Small images
  // keep the direct convolution: ResNet-50's 7 x 7 ones of 512 channels
  // (16 blocks) ran 1.3 times slower by Winograd's algorithm with one image,
  // 1.7 times faster with 8 (one thread, AVX2; `aot-run --benchmark`); its
  // 14 x 14 ones (49 blocks) 2.5 times faster with either.
  constexpr int64_t kMinImageBlocks = 32;
  if (k.th * k.tw < kMinImageBlocks)
    return std::nullopt;
  return k;
}

/// The transformed filter of `k` as a constant tensor<16 x C x F>, or null
/// where the filter's bytes cannot be read.
Value filterConstant(mlir::OpBuilder &b, Candidate k) {
  std::optional<WeightBytes> bytes =
      weightBytes(k.filter.getValue(), /*minBytes=*/0);
  if (!bytes)
    return nullptr;
  std::vector<float> g(9 * k.c * k.f);
  bytes->copyTo(reinterpret_cast<char *>(g.data()));
  std::vector<float> u = transformFilter(g, k.c, k.f);
  auto type = mlir::RankedTensorType::get({16, k.c, k.f}, b.getF32Type());
  llvm::ArrayRef<char> data(reinterpret_cast<const char *>(u.data()),
                            u.size() * sizeof(float));
  auto attr = mlir::DenseResourceElementsAttr::get(
      type, "winograd",
      mlir::HeapAsmResourceBlob::allocateAndCopyWithAlign(data, 64));
  // Named after the filter, so that external weights and debuggers say
  // where it came from.
  mlir::Location loc = k.filter.getLoc();
  std::string name = weightName(loc);
  if (!name.empty())
    loc = mlir::NameLoc::get(b.getStringAttr(name + ".winograd"), loc);
  return mlir::arith::ConstantOp::create(b, loc, type, attr);
}

/// Emits the loops over rows of blocks (on threads), blocks along the row
/// and vectors of `channels`, threading `init` through them; `body` gets
/// the builder, the batch index, the block's first row and column, the
/// block's number among all blocks, the channel and the tensor to update,
/// and returns the updated tensor.
using BlockBody = llvm::function_ref<Value(mlir::OpBuilder &, Value batch,
                                           Value row, Value col, Value block,
                                           Value channel, Value tensor)>;
Value blockLoops(mlir::OpBuilder &b, mlir::Location loc, Candidate k,
                 Value blockRows, int64_t channels, int64_t width, Value init,
                 BlockBody body) {
  auto index = [&](int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value zero = index(0), one = index(1);
  auto rows = mlir::scf::ForOp::create(
      b, loc, zero, blockRows, one, init,
      [&](mlir::OpBuilder &b, mlir::Location loc, Value r, mlir::ValueRange t) {
        auto index = [&](int64_t v) {
          return mlir::arith::ConstantIndexOp::create(b, loc, v).getResult();
        };
        Value th = index(k.th), two = index(2);
        Value batch = mlir::arith::DivUIOp::create(b, loc, r, th);
        Value row = mlir::arith::MulIOp::create(
            b, loc, mlir::arith::RemUIOp::create(b, loc, r, th), two);
        Value first = mlir::arith::MulIOp::create(b, loc, r, index(k.tw));
        auto cols = mlir::scf::ForOp::create(
            b, loc, index(0), index(k.tw), index(1), t,
            [&](mlir::OpBuilder &b, mlir::Location loc, Value tw,
                mlir::ValueRange t) {
              Value col = mlir::arith::MulIOp::create(b, loc, tw, two);
              Value block = mlir::arith::AddIOp::create(b, loc, first, tw);
              auto lanes = mlir::scf::ForOp::create(
                  b, loc, index(0), index(channels), index(width), t,
                  [&](mlir::OpBuilder &b, mlir::Location loc, Value ch,
                      mlir::ValueRange t) {
                    mlir::scf::YieldOp::create(
                        b, loc, body(b, batch, row, col, block, ch, t[0]));
                  });
              mlir::scf::YieldOp::create(b, loc, lanes.getResults());
            });
        mlir::scf::YieldOp::create(b, loc, cols.getResults());
      });
  // Two rows of blocks are worth threads (each is two rows of pixels by all
  // channels).
  rows->setAttr(kParallelLoopAttr, b.getI64IntegerAttr(2));
  rows->setAttr(kDisjointWritesAttr, b.getUnitAttr());
  return rows.getResult(0);
}

/// Sums and differences of vectors, the transforms' only arithmetic.
struct Sums {
  mlir::OpBuilder &b;
  mlir::Location loc;
  Value add(Value x, Value y) const {
    return mlir::arith::AddFOp::create(b, loc, x, y);
  }
  Value sub(Value x, Value y) const {
    return mlir::arith::SubFOp::create(b, loc, x, y);
  }
};

/// Four vectors of `type` read from `from`, the i-th at `at(i)` (in
/// bounds, so `pad` is never read): a column or a row of a block.
std::array<Value, 4>
readFour(mlir::OpBuilder &b, mlir::Location loc, mlir::VectorType type,
         Value from, Value pad,
         llvm::function_ref<llvm::SmallVector<Value, 4>(int64_t)> at) {
  std::array<Value, 4> values;
  for (int64_t i = 0; i < 4; ++i)
    values[i] = mlir::vector::TransferReadOp::create(
        b, loc, type, from, at(i), pad, llvm::ArrayRef<bool>{true});
  return values;
}

/// B^T of F(2, 3) applied to four values along a column or a row of a
/// block.
std::array<Value, 4> inputTransform(Sums s, std::array<Value, 4> d) {
  return {s.sub(d[0], d[2]), s.add(d[1], d[2]), s.sub(d[2], d[1]),
          s.sub(d[1], d[3])};
}

/// A^T of F(2, 3) applied to four values along a column or a row of a
/// block.
std::array<Value, 2> outputTransform(Sums s, std::array<Value, 4> m) {
  return {s.add(s.add(m[0], m[1]), m[2]), s.sub(s.sub(m[1], m[2]), m[3])};
}

/// Rewrites the convolution of `k`, or leaves it alone where its filter's
/// bytes cannot be read.
void rewrite(mlir::RewriterBase &rewriter, Candidate k, int64_t width) {
  mlir::linalg::Conv2DNhwcHwcfOp op = k.op;
  mlir::Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value u = filterConstant(rewriter, k);
  if (!u)
    return;
  auto index = [&](int64_t v) {
    return mlir::arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value input = op.getInputs()[0];
  mlir::Type f32 = rewriter.getF32Type();
  auto vector = mlir::VectorType::get({width}, f32);
  Value batches = mlir::tensor::DimOp::create(rewriter, loc, input, 0);
  Value blockRows =
      mlir::arith::MulIOp::create(rewriter, loc, batches, index(k.th));
  Value blocks =
      mlir::arith::MulIOp::create(rewriter, loc, blockRows, index(k.tw));
  Value pad = mlir::arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getF32FloatAttr(0));

  // The transformed input and the products: buffers of their own
  // (alloc_tensor), where two tensor.empty ops of one type would be merged by
  // CSE and the second user would get a copy.
  auto scratch = [&](int64_t cols) -> Value {
    auto type = mlir::RankedTensorType::get(
        {16, mlir::ShapedType::kDynamic, cols}, f32);
    return mlir::bufferization::AllocTensorOp::create(rewriter, loc, type,
                                                      mlir::ValueRange{blocks});
  };
  // Each 4 x 4 block of the input (overlapping by 2) to 16 rows of C. Where
  // the output has an odd number of rows (or columns), the last block's
  // fourth row lies past the input; it only reaches the output row that is
  // not there, so the input's last row is read in its place.
  Value v = scratch(k.c);
  v = blockLoops(
      rewriter, loc, k, blockRows, k.c, width, v,
      [&](mlir::OpBuilder &b, Value batch, Value row, Value col, Value block,
          Value ch, Value t) {
        // Row (column) i of a block starting at `base`, along a dim of
        // `size` in `blocks` blocks.
        auto at = [&](Value base, int64_t i, int64_t size,
                      int64_t blocks) -> Value {
          Value x = mlir::arith::AddIOp::create(
              b, loc, base, mlir::arith::ConstantIndexOp::create(b, loc, i));
          // The last block's last row is 2 * blocks + 1.
          if (i < 3 || 2 * blocks + 1 < size)
            return x;
          return mlir::arith::MinUIOp::create(
              b, loc, x,
              mlir::arith::ConstantIndexOp::create(b, loc, size - 1));
        };
        std::array<std::array<Value, 4>, 4> cols; // cols[j][a]
        for (int64_t j = 0; j < 4; ++j)
          cols[j] = inputTransform(
              Sums{b, loc},
              readFour(b, loc, vector, input, pad, [&](int64_t i) {
                return llvm::SmallVector<Value, 4>{
                    batch, at(row, i, k.hp, k.th), at(col, j, k.wp, k.tw), ch};
              }));
        for (int64_t a = 0; a < 4; ++a) {
          std::array<Value, 4> r = inputTransform(
              Sums{b, loc}, {cols[0][a], cols[1][a], cols[2][a], cols[3][a]});
          for (int64_t bb = 0; bb < 4; ++bb)
            t = mlir::vector::TransferWriteOp::create(
                    b, loc, r[bb], t,
                    mlir::ValueRange{mlir::arith::ConstantIndexOp::create(
                                         b, loc, a * 4 + bb),
                                     block, ch},
                    llvm::ArrayRef<bool>{true})
                    .getResult();
        }
        return t;
      });

  // The 16 products, blocks by C times C by F, tiled as any batch_matmul.
  // Their results and fill are no scratch: the loops that tile them may
  // write them from threads.
  auto multiply = [&](mlir::OpBuilder &b, Value lhs, Value out) -> Value {
    auto fill = mlir::linalg::FillOp::create(b, loc, pad, out);
    auto products = mlir::linalg::BatchMatmulOp::create(
        b, loc, out.getType(), mlir::ValueRange{lhs, u},
        mlir::ValueRange{fill.getResult(0)});
    for (mlir::Operation *op : {fill.getOperation(), products.getOperation()})
      op->setAttr(kDisjointWritesAttr, b.getUnitAttr());
    return products.getResult(0);
  };
  // An image at a time, or for images of fewer than 128 blocks, groups of
  // images of 128 rows or more, each matrix of the filter read from memory
  // once per group; then the images left over one at a time. Static rows:
  // the whole batch at once would be a dynamic count of rows, compiled
  // again for few of them, and ran slower (ResNet-50's 56 x 56 and 28 x 28
  // convolutions at batch 8, one thread, AVX2: 1.10 and 1.08 times faster
  // an image at a time; `aot-run --benchmark`).
  constexpr int64_t kGroupRows = 128;
  const int64_t imageBlocks = k.th * k.tw;
  const int64_t group = llvm::divideCeil(kGroupRows, imageBlocks);
  auto images = [&](Value from, Value to, int64_t count, Value t) -> Value {
    const int64_t rows = count * imageBlocks;
    auto loop = mlir::scf::ForOp::create(
        rewriter, loc, from, to, index(count), mlir::ValueRange{t},
        [&](mlir::OpBuilder &b, mlir::Location loc, Value image,
            mlir::ValueRange t) {
          Value first = mlir::arith::MulIOp::create(
              b, loc, image,
              mlir::arith::ConstantIndexOp::create(b, loc, imageBlocks));
          auto slice = [&](Value of, int64_t cols) {
            auto type = mlir::RankedTensorType::get({16, rows, cols}, f32);
            llvm::SmallVector<mlir::OpFoldResult> offsets{
                b.getIndexAttr(0), first, b.getIndexAttr(0)};
            llvm::SmallVector<mlir::OpFoldResult> sizes{
                b.getIndexAttr(16), b.getIndexAttr(rows), b.getIndexAttr(cols)};
            llvm::SmallVector<mlir::OpFoldResult> strides(3, b.getIndexAttr(1));
            return mlir::tensor::ExtractSliceOp::create(
                b, loc, type, of, offsets, sizes, strides);
          };
          auto out = slice(t[0], k.f);
          Value products = multiply(b, slice(v, k.c), out.getResult());
          mlir::scf::YieldOp::create(
              b, loc,
              mlir::tensor::InsertSliceOp::create(
                  b, loc, products, t[0], out.getMixedOffsets(),
                  out.getMixedSizes(), out.getMixedStrides())
                  .getResult());
        });
    return loop.getResult(0);
  };
  Value m = scratch(k.f);
  Value grouped = batches;
  if (group > 1)
    grouped = mlir::arith::MulIOp::create(
        rewriter, loc,
        mlir::arith::DivUIOp::create(rewriter, loc, batches, index(group)),
        index(group));
  m = images(index(0), grouped, group, m);
  if (group > 1)
    m = images(grouped, batches, 1, m);

  // Each block's 16 rows to its 2 x 2 outputs, added to the convolution's
  // initial value: a fill's scalar, else the tensor's own.
  Value init = op.getOutputs()[0];
  Value dest = init, scalar;
  if (auto fill = init.getDefiningOp<mlir::linalg::FillOp>()) {
    dest = fill.getOutputs()[0];
    scalar = fill.getInputs()[0];
    if (mlir::matchPattern(scalar, mlir::m_AnyZeroFloat()))
      scalar = nullptr;
    else
      scalar = mlir::vector::BroadcastOp::create(rewriter, loc, vector, scalar);
  }
  const bool initIsTensor = dest == init;
  Value result = blockLoops(
      rewriter, loc, k, blockRows, k.f, width, dest,
      [&](mlir::OpBuilder &b, Value batch, Value row, Value col, Value block,
          Value ch, Value t) {
        std::array<std::array<Value, 2>, 4> cols; // cols[b][i]
        for (int64_t bb = 0; bb < 4; ++bb)
          cols[bb] = outputTransform(
              Sums{b, loc}, readFour(b, loc, vector, m, pad, [&](int64_t a) {
                return llvm::SmallVector<Value, 4>{
                    mlir::arith::ConstantIndexOp::create(b, loc, a * 4 + bb),
                    block, ch};
              }));
        for (int64_t i = 0; i < 2; ++i) {
          std::array<Value, 2> y = outputTransform(
              Sums{b, loc}, {cols[0][i], cols[1][i], cols[2][i], cols[3][i]});
          for (int64_t j = 0; j < 2; ++j) {
            auto write = [&](mlir::OpBuilder &b, Value t) -> Value {
              Value h = mlir::arith::AddIOp::create(
                  b, loc, row, mlir::arith::ConstantIndexOp::create(b, loc, i));
              Value w = mlir::arith::AddIOp::create(
                  b, loc, col, mlir::arith::ConstantIndexOp::create(b, loc, j));
              llvm::SmallVector<Value, 4> at{batch, h, w, ch};
              Value out = y[j];
              if (scalar)
                out = mlir::arith::AddFOp::create(b, loc, out, scalar);
              if (initIsTensor)
                out = mlir::arith::AddFOp::create(
                    b, loc, out,
                    mlir::vector::TransferReadOp::create(
                        b, loc, vector, t, at, pad,
                        llvm::ArrayRef<bool>{true}));
              return mlir::vector::TransferWriteOp::create(
                         b, loc, out, t, at, llvm::ArrayRef<bool>{true})
                  .getResult();
            };
            // The second row (column) of the last block where the output
            // has an odd number of them is not there.
            Value inside;
            auto within = [&](Value base, int64_t size) {
              return mlir::arith::CmpIOp::create(
                  b, loc, mlir::arith::CmpIPredicate::ult,
                  mlir::arith::AddIOp::create(
                      b, loc, base,
                      mlir::arith::ConstantIndexOp::create(b, loc, 1)),
                  mlir::arith::ConstantIndexOp::create(b, loc, size));
            };
            if (i == 1 && k.ho % 2)
              inside = within(row, k.ho);
            if (j == 1 && k.wo % 2) {
              Value w = within(col, k.wo);
              inside = inside ? mlir::arith::AndIOp::create(b, loc, inside, w)
                                    .getResult()
                              : w;
            }
            if (!inside) {
              t = write(b, t);
              continue;
            }
            auto guarded = mlir::scf::IfOp::create(
                b, loc, inside,
                [&](mlir::OpBuilder &b, mlir::Location loc) {
                  mlir::scf::YieldOp::create(b, loc, write(b, t));
                },
                [&](mlir::OpBuilder &b, mlir::Location loc) {
                  mlir::scf::YieldOp::create(b, loc, t);
                });
            t = guarded.getResult(0);
          }
        }
        return t;
      });
  rewriter.replaceOp(op, result);
}

struct WinogradConvolutionsPass
    : impl::WinogradConvolutionsBase<WinogradConvolutionsPass> {
  using WinogradConvolutionsBase::WinogradConvolutionsBase;

  void runOnOperation() override {
    llvm::SmallVector<Candidate> candidates;
    getOperation().walk([&](mlir::linalg::Conv2DNhwcHwcfOp op) {
      if (auto k = candidate(op, vectorWidth))
        candidates.push_back(*k);
    });
    mlir::IRRewriter rewriter(&getContext());
    for (Candidate k : candidates)
      rewrite(rewriter, k, vectorWidth);
  }
};

} // namespace
} // namespace aot
