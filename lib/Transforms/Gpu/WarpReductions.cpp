//===- WarpReductions.cpp - a warp per output of a row reduction ----------===//
//
// convert-linalg-to-parallel-loops makes a reduction along the last
// dimension (a row's sum, max, ...) a parallel loop over the outputs whose
// body walks the row in an scf.for: one thread per output, reading a row
// alone, with neighbouring threads a row apart. Here the row goes to the 32
// lanes of a warp instead: lane l combines the elements l, l + 32, ... (a
// warp reads 32 neighbouring elements at each step), five xor shuffles
// combine the lanes, and lane 0 combines the sum into the output element,
// which still holds its initial value.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Gpu/WarpReductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace aot {

namespace {

/// One reduction loop of the shape this file rewrites.
struct RowReduction {
  mlir::scf::ForOp loop;
  int64_t length;
  mlir::memref::LoadOp init;   ///< the output element, read
  mlir::Operation *combine;    ///< init and the element combined
  mlir::memref::StoreOp store; ///< the output element, written
  mlir::Value element;         ///< what each step contributes
};

bool isCombiner(mlir::Operation *op) {
  return llvm::isa<
      mlir::arith::AddFOp, mlir::arith::MulFOp, mlir::arith::MaxNumFOp,
      mlir::arith::MinNumFOp, mlir::arith::MaximumFOp, mlir::arith::MinimumFOp,
      mlir::arith::AddIOp, mlir::arith::MulIOp, mlir::arith::MaxSIOp,
      mlir::arith::MinSIOp, mlir::arith::MaxUIOp, mlir::arith::MinUIOp,
      mlir::arith::AndIOp, mlir::arith::OrIOp, mlir::arith::XOrIOp>(op);
}

bool isConstant(mlir::Value value, int64_t expected) {
  auto c = mlir::getConstantIntValue(value);
  return c && *c == expected;
}

/// Whether `value` is the same in every iteration of `loop`.
bool invariant(mlir::Value value, mlir::scf::ForOp loop) {
  return !loop->isAncestor(value.getParentRegion()->getParentOp());
}

std::optional<RowReduction> match(mlir::scf::ParallelOp parallel) {
  if (parallel.getNumLoops() > 2 || parallel.getNumResults() != 0)
    return std::nullopt;
  for (mlir::Value step : parallel.getStep())
    if (!isConstant(step, 1))
      return std::nullopt;
  RowReduction r;
  for (mlir::Operation &op : parallel.getBody()->without_terminator()) {
    if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(op)) {
      if (r.loop)
        return std::nullopt;
      r.loop = loop;
    } else if (op.getNumRegions() != 0 || !mlir::isMemoryEffectFree(&op)) {
      return std::nullopt;
    }
  }
  if (!r.loop || r.loop.getNumResults() != 0 ||
      !isConstant(r.loop.getLowerBound(), 0) ||
      !isConstant(r.loop.getStep(), 1))
    return std::nullopt;
  auto length = mlir::getConstantIntValue(r.loop.getUpperBound());
  if (!length || *length < kWarpSize)
    return std::nullopt;
  r.length = *length;
  // Straight-line code: loads, one store, pure ops.
  for (mlir::Operation &op : r.loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return std::nullopt;
    if (auto store = llvm::dyn_cast<mlir::memref::StoreOp>(op)) {
      if (r.store)
        return std::nullopt;
      r.store = store;
    } else if (!llvm::isa<mlir::memref::LoadOp>(op) &&
               !mlir::isMemoryEffectFree(&op)) {
      return std::nullopt;
    }
  }
  if (!r.store)
    return std::nullopt;
  r.combine = r.store.getValueToStore().getDefiningOp();
  // Shuffles move 32 bits (not index, vectors or 64-bit values).
  if (!r.combine || r.combine->getBlock() != r.loop.getBody() ||
      !isCombiner(r.combine) || !r.combine->hasOneUse() ||
      !r.combine->getResult(0).getType().isIntOrFloat() ||
      r.combine->getResult(0).getType().getIntOrFloatBitWidth() != 32)
    return std::nullopt;
  // One operand is the output element read where it is written, in no
  // other way during the loop; the other the step's contribution.
  for (unsigned i = 0; i < 2; ++i) {
    auto load = r.combine->getOperand(i).getDefiningOp<mlir::memref::LoadOp>();
    if (load && load->getBlock() == r.loop.getBody() &&
        load.getMemRef() == r.store.getMemRef() &&
        load.getIndices() == r.store.getIndices() && load->hasOneUse()) {
      r.init = load;
      r.element = r.combine->getOperand(1 - i);
      break;
    }
  }
  if (!r.init)
    return std::nullopt;
  for (mlir::Value index : r.store.getIndices())
    if (!invariant(index, r.loop))
      return std::nullopt;
  // The lanes read neighbouring elements only if every read that moves
  // with the reduction moves along its last index (a row), never down a
  // column: a matmul's B, read down K, keeps its thread per output.
  mlir::Value j = r.loop.getInductionVar();
  bool alongRows = false;
  for (mlir::Operation &op : r.loop.getBody()->without_terminator()) {
    auto load = llvm::dyn_cast<mlir::memref::LoadOp>(op);
    if (!load || load == r.init)
      continue;
    if (load.getMemRef() == r.store.getMemRef())
      return std::nullopt;
    mlir::ValueRange indices = load.getIndices();
    for (size_t i = 0; i < indices.size(); ++i) {
      bool last = i + 1 == indices.size();
      if (indices[i] == j) {
        alongRows |= last;
        if (!last)
          return std::nullopt;
      } else if (!invariant(indices[i], r.loop)) {
        return std::nullopt; // an index computed from the step: unknown
      }
    }
  }
  if (!alongRows)
    return std::nullopt;
  return r;
}

/// Clones what computes the contribution of step `at` of `r`'s loop.
mlir::Value element(mlir::OpBuilder &b, RowReduction r, mlir::IRMapping map,
                    mlir::Value at) {
  map.map(r.loop.getInductionVar(), at);
  for (mlir::Operation &op : r.loop.getBody()->without_terminator())
    if (&op != r.init && &op != r.combine && &op != r.store)
      b.clone(op, map);
  return map.lookupOrDefault(r.element);
}

/// `r`'s combining op over `lhs` and `rhs`, in its operands' order.
mlir::Value combine(mlir::OpBuilder &b, RowReduction r, mlir::Value lhs,
                    mlir::Value rhs) {
  mlir::IRMapping map;
  bool initFirst = r.combine->getOperand(0) == r.init.getResult();
  map.map(r.combine->getOperand(initFirst ? 0 : 1), lhs);
  map.map(r.combine->getOperand(initFirst ? 1 : 0), rhs);
  return b.clone(*r.combine, map)->getResult(0);
}

} // namespace

mlir::scf::ParallelOp spreadRowReduction(mlir::scf::ParallelOp parallel) {
  std::optional<RowReduction> match = aot::match(parallel);
  if (!match)
    return nullptr;
  RowReduction r = *match;
  mlir::OpBuilder b(parallel);
  mlir::Location loc = r.loop.getLoc();
  auto index = [&](int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  llvm::SmallVector<mlir::Value> lower(parallel.getLowerBound());
  llvm::SmallVector<mlir::Value> upper(parallel.getUpperBound());
  llvm::SmallVector<mlir::Value> steps(parallel.getStep());
  lower.push_back(index(0));
  upper.push_back(index(kWarpSize));
  steps.push_back(index(1));
  auto lanes =
      mlir::scf::ParallelOp::create(b, parallel.getLoc(), lower, upper, steps);
  b.setInsertionPointToStart(lanes.getBody());
  mlir::IRMapping map;
  for (auto [from, to] :
       llvm::zip(parallel.getInductionVars(), lanes.getInductionVars()))
    map.map(from, to);
  mlir::Value lane = lanes.getInductionVars().back();
  for (mlir::Operation &op : parallel.getBody()->without_terminator())
    if (&op != r.loop.getOperation())
      b.clone(op, map);

  // Lane l: the elements l, l + 32, ... (the reduction is at least a warp
  // long, so every lane has the first).
  mlir::Value first = element(b, r, map, lane);
  auto walk = mlir::scf::ForOp::create(
      b, loc, mlir::arith::AddIOp::create(b, loc, lane, index(kWarpSize)),
      index(r.length), index(kWarpSize), mlir::ValueRange{first});
  {
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(walk.getBody());
    mlir::Value next = element(b, r, map, walk.getInductionVar());
    mlir::scf::YieldOp::create(
        b, loc, combine(b, r, walk.getRegionIterArgs()[0], next));
  }
  mlir::Value partial = walk.getResult(0);
  for (int32_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
    auto shuffle = mlir::gpu::ShuffleOp::create(
        b, loc, partial, offset, kWarpSize, mlir::gpu::ShuffleMode::XOR);
    partial = combine(b, r, partial, shuffle.getShuffleResult());
  }
  auto firstLane = mlir::scf::IfOp::create(
      b, loc,
      mlir::arith::CmpIOp::create(b, loc, mlir::arith::CmpIPredicate::eq, lane,
                                  index(0)),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(&firstLane.getThenRegion().front());
  mlir::Value init = b.clone(*r.init, map)->getResult(0);
  map.map(r.combine->getResult(0), combine(b, r, init, partial));
  b.clone(*r.store, map);
  parallel.erase();
  return lanes;
}

} // namespace aot
