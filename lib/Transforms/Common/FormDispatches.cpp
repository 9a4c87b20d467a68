//===- FormDispatches.cpp - aot-form-dispatches ---------------------------===//
//
// Outlines each fused group of linalg ops into a private function. Later
// stages, and LLVM's optimiser most of all, cost more than linearly in the
// size of one function; many small functions keep that cost near linear in
// the size of a model, and leave function-level passes work they could
// share between threads.
//
// Dispatches are in destination-passing style: the caller allocates the
// tensor each one writes (a `bufferization.alloc_tensor` right before the
// call) and passes it in. After bufferization the caller owns every buffer,
// the dispatch writes into its argument, and `drop-equivalent-buffer-results`
// removes the returned copy of it; the caller frees what it allocated with
// plain deallocations instead of ownership checks across calls. Not a
// tensor.empty: CSE would merge those of a whole model into one, and
// bufferization's conflict analysis of one tensor written by every layer
// costs time quadratic in the number of layers.
//
// A slice that a dispatch reads (a layer's weights cut from a stacked
// tensor) goes in with the dispatch, its offsets as arguments: passed as
// itself, it would reach the dispatch as a buffer of identity layout, which
// bufferization makes by copying the slice at every call; inside, it is a
// view of the whole tensor. Offsets as arguments, not constants, keep the
// dispatches of layers that differ only in where their slice starts one
// function (aot-deduplicate-dispatches).
//
// A result whose only use is a tensor.pad by a constant (a convolution's
// input padded with zeros) is written into the padding: the dispatch takes
// the padded tensor as its destination, fills it and writes the middle.
// Otherwise bufferization makes the pad a fill and a copy, both on the
// calling thread.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

namespace aot {
#define GEN_PASS_DEF_FORMDISPATCHES
#include "Transforms/Common/Passes.h.inc"

namespace {

/// A tensor.empty in `block`, or null.
mlir::tensor::EmptyOp emptyIn(mlir::Value value, mlir::Block *block) {
  auto empty = value.getDefiningOp<mlir::tensor::EmptyOp>();
  return empty && empty->getBlock() == block ? empty : nullptr;
}

/// A linalg.fill of a tensor.empty: cheaper to recompute in every dispatch
/// whose output it initialises than to compute once and copy per use.
mlir::linalg::FillOp recomputedFill(mlir::Value value, mlir::Block *block) {
  auto fill = value.getDefiningOp<mlir::linalg::FillOp>();
  if (!fill || fill->getBlock() != block || !fill.hasPureTensorSemantics() ||
      !emptyIn(fill.getOutputs()[0], block))
    return nullptr;
  return fill;
}

/// Whether every use of `value` is the output (init) of a linalg op in
/// `block`, which then recomputes it.
bool onlyInitialises(mlir::Value value, mlir::Block *block) {
  return llvm::all_of(value.getUses(), [&](mlir::OpOperand &use) {
    auto user = llvm::dyn_cast<mlir::linalg::LinalgOp>(use.getOwner());
    return user && user->getBlock() == block && user.hasPureTensorSemantics() &&
           user.isDpsInit(&use);
  });
}

/// The padding of the only result of a linalg op, written in place by its
/// dispatch: a tensor.pad by a constant, static amounts, its result's only
/// use, where the result starts as a tensor.empty.
mlir::tensor::PadOp paddedResult(mlir::linalg::LinalgOp op) {
  mlir::Block *block = op->getBlock();
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse() ||
      !emptyIn(op.getDpsInits()[0], block))
    return nullptr;
  auto pad =
      llvm::dyn_cast<mlir::tensor::PadOp>(*op->getResult(0).getUsers().begin());
  if (!pad || pad->getBlock() != block || !pad.getConstantPaddingValue() ||
      !pad.getLow().empty() || !pad.getHigh().empty())
    return nullptr;
  return pad;
}

/// A linalg op on tensors that starts a dispatch: anything but a fill that
/// every user recomputes as the start of its output.
bool isRoot(mlir::linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return false;
  auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(op.getOperation());
  mlir::Block *block = op->getBlock();
  return !fill || !recomputedFill(fill.getResult(0), block) ||
         !onlyInitialises(fill.getResult(0), block);
}

/// Values cheap enough to copy into each dispatch that uses them: scalar and
/// splat constants, and a tensor.empty read as an input. Other constants
/// (weights) stay with the caller, passed by reference.
bool isCopiedIn(mlir::Value value) {
  mlir::Operation *def = value.getDefiningOp();
  if (llvm::isa_and_nonnull<mlir::tensor::EmptyOp>(def))
    return true;
  auto constant = llvm::dyn_cast_or_null<mlir::arith::ConstantOp>(def);
  if (!constant)
    return false;
  auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(constant.getValue());
  return !dense || dense.isSplat();
}

/// A view that a dispatch reading `value` takes in with it: a slice of unit
/// strides in `block`, or a reshape of one.
bool isPulledView(mlir::Value value, mlir::Block *block) {
  mlir::Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != block)
    return false;
  if (auto slice = llvm::dyn_cast<mlir::tensor::ExtractSliceOp>(def))
    return llvm::all_of(slice.getStaticStrides(),
                        [](int64_t stride) { return stride == 1; });
  if (llvm::isa<mlir::tensor::ExpandShapeOp, mlir::tensor::CollapseShapeOp>(
          def))
    return isPulledView(def->getOperand(0), block);
  return false;
}

struct FormDispatchesPass : impl::FormDispatchesBase<FormDispatchesPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::SymbolTable symbols(module);
    llvm::SmallVector<mlir::func::FuncOp> functions(
        module.getOps<mlir::func::FuncOp>());
    for (mlir::func::FuncOp fn : functions) {
      if (fn.isExternal() || fn->hasAttr(kDispatchAttr))
        continue;
      llvm::SmallVector<mlir::linalg::LinalgOp> roots;
      fn.walk([&](mlir::linalg::LinalgOp op) {
        if (isRoot(op))
          roots.push_back(op);
      });
      // Consumers first: a fill that is also a dispatch of its own is still
      // a fill when the ops it initialises recompute it. Each dispatch goes
      // before the previous one, so they stay in the function's order.
      mlir::Operation *before = fn;
      for (unsigned i = roots.size(); i-- > 0;)
        before = outline(roots[i], fn, i, symbols, before);
    }
  }

  /// `FN$KIND_N`: where a dispatch came from (its function, its op, its
  /// place among the function's dispatches), for stage dumps, action logs
  /// and bisection; the op's location stays on the function and the call.
  /// Not the op's line: a compile resumed from a stage dump, whose ops have
  /// the dump's lines, must make the same object.
  static std::string nameOf(mlir::func::FuncOp fn, mlir::Operation *root,
                            unsigned index, mlir::SymbolTable &symbols) {
    std::string base = fn.getSymName().str() + "$" +
                       root->getName().stripDialect().str() + "_" +
                       std::to_string(index);
    std::string name = base;
    for (int i = 2; symbols.lookup(name); ++i)
      name = base + "_" + std::to_string(i);
    return name;
  }

  /// Outlines `rootOp` into a function placed before `before`; returns it.
  mlir::Operation *outline(mlir::linalg::LinalgOp rootOp, mlir::func::FuncOp fn,
                           unsigned index, mlir::SymbolTable &symbols,
                           mlir::Operation *before) {
    mlir::Operation *root = rootOp.getOperation();
    mlir::Block *block = root->getBlock();

    // The group: the root and the fills it recomputes. Its outputs start
    // from tensor.empty values, which become arguments (`destinations`).
    llvm::SetVector<mlir::Operation *> group;
    llvm::SetVector<mlir::Value> destinations;
    // Padding the root writes into: then its destination (the last
    // argument) is made at the call, of the padding's type.
    mlir::tensor::PadOp pad = paddedResult(rootOp);
    for (mlir::OpOperand &init : rootOp.getDpsInitsMutable()) {
      if (pad)
        break;
      mlir::Value value = init.get();
      if (auto fill = recomputedFill(value, block)) {
        group.insert(fill);
        value = fill.getOutputs()[0];
      }
      if (emptyIn(value, block))
        destinations.insert(value);
    }
    group.insert(root);
    llvm::SmallPtrSet<mlir::Operation *, 4> inGroup(group.begin(), group.end());

    // What the group writes: its views are not pulled in (the dispatch
    // would write into a tensor it takes as read-only).
    llvm::SmallPtrSet<mlir::Value, 4> written;
    for (mlir::Operation *op : group)
      if (auto linalgOp = llvm::dyn_cast<mlir::linalg::LinalgOp>(op))
        for (mlir::OpOperand &init : linalgOp.getDpsInitsMutable())
          written.insert(init.get());

    // What the group reads from outside (operands and values its regions
    // capture). Ops copied in come after what they use, in `copiedIn`;
    // the offsets of a slice pulled in are arguments, in `sliceOffsets`.
    llvm::SetVector<mlir::Value> inputs;
    llvm::SetVector<mlir::Operation *> copiedIn;
    llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value>>
        sliceOffsets;
    std::function<void(mlir::Value)> use = [&](mlir::Value v) {
      mlir::Operation *def = v.getDefiningOp();
      if (destinations.contains(v) || inGroup.contains(def) ||
          copiedIn.contains(def))
        return;
      if (!written.contains(v) && isPulledView(v, block)) {
        use(def->getOperand(0));
        auto slice = llvm::dyn_cast<mlir::tensor::ExtractSliceOp>(def);
        if (!slice) {
          for (mlir::Value size : def->getOperands().drop_front())
            inputs.insert(size);
          copiedIn.insert(def);
          return;
        }
        for (mlir::Value size : slice.getSizes())
          inputs.insert(size);
        mlir::OpBuilder b(slice);
        llvm::SmallVector<mlir::Value> offsets;
        for (mlir::OpFoldResult offset : slice.getMixedOffsets()) {
          auto value = llvm::dyn_cast<mlir::Value>(offset);
          if (!value)
            value = mlir::arith::ConstantIndexOp::create(
                b, slice.getLoc(), *mlir::getConstantIntValue(offset));
          inputs.insert(value);
          offsets.push_back(value);
        }
        sliceOffsets[slice] = std::move(offsets);
        copiedIn.insert(def);
        return;
      }
      if (!isCopiedIn(v)) {
        inputs.insert(v);
        return;
      }
      for (mlir::Value operand : def->getOperands())
        use(operand);
      copiedIn.insert(def);
    };
    for (mlir::Operation *op : group) {
      llvm::SetVector<mlir::Value> used(op->getOperands().begin(),
                                        op->getOperands().end());
      mlir::getUsedValuesDefinedAbove(op->getRegions(), used);
      for (mlir::Value v : used)
        use(v);
    }
    // The padding's value: a constant, made in the dispatch where it was
    // made in the pad's region.
    mlir::Value padValue = pad ? pad.getConstantPaddingValue() : nullptr;
    if (padValue && !pad->isAncestor(padValue.getParentRegion()->getParentOp()))
      use(padValue);

    // The dispatch: inputs, then destinations; it returns the root's
    // results, which bufferization finds equivalent to the destinations.
    llvm::SmallVector<mlir::Value> arguments(inputs.begin(), inputs.end());
    arguments.append(destinations.begin(), destinations.end());
    mlir::OpBuilder b(before);
    mlir::Location loc = root->getLoc();
    llvm::SmallVector<mlir::Type> argumentTypes(
        mlir::ValueRange(arguments).getTypes());
    llvm::SmallVector<mlir::Type> resultTypes(root->getResultTypes());
    if (pad) {
      argumentTypes.push_back(pad.getResultType());
      resultTypes = {pad.getResultType()};
    }
    auto type = b.getFunctionType(argumentTypes, resultTypes);
    auto dispatch = mlir::func::FuncOp::create(
        b, loc, nameOf(fn, root, index, symbols), type);
    dispatch.setPrivate();
    dispatch->setAttr(kDispatchAttr, b.getUnitAttr());
    // The call sites say no_inline to MLIR; LLVM's inliner reads this.
    dispatch->setAttr("passthrough",
                      b.getArrayAttr({b.getStringAttr("noinline")}));
    // Tensors the group only reads: bufferization may not write them, and
    // aot-split-shared-reads may hand the same buffer to many dispatches.
    for (auto [i, value] : llvm::enumerate(inputs))
      if (llvm::isa<mlir::TensorType>(value.getType()) &&
          !written.contains(value))
        dispatch.setArgAttr(
            i, mlir::bufferization::BufferizationDialect::kWritableAttrName,
            b.getBoolAttr(false));
    symbols.insert(dispatch);
    mlir::Block *body = dispatch.addEntryBlock();
    mlir::IRMapping map;
    for (auto [value, arg] : llvm::zip(arguments, body->getArguments()))
      map.map(value, arg);
    b.setInsertionPointToStart(body);
    for (mlir::Operation *op : copiedIn) {
      auto offsets = sliceOffsets.find(op);
      if (offsets == sliceOffsets.end()) {
        b.clone(*op, map);
        continue;
      }
      // The slice again, at offsets that are arguments.
      auto slice = llvm::cast<mlir::tensor::ExtractSliceOp>(op);
      llvm::SmallVector<mlir::OpFoldResult> mixedOffsets, sizes;
      for (mlir::Value offset : offsets->second)
        mixedOffsets.push_back(map.lookup(offset));
      for (mlir::OpFoldResult size : slice.getMixedSizes())
        if (auto value = llvm::dyn_cast<mlir::Value>(size))
          sizes.push_back(map.lookup(value));
        else
          sizes.push_back(size);
      auto inside = mlir::tensor::ExtractSliceOp::create(
          b, slice.getLoc(), slice.getType(), map.lookup(slice.getSource()),
          mixedOffsets, sizes, slice.getMixedStrides());
      map.map(slice.getResult(), inside.getResult());
    }
    // Padding: filled, the root writing the slice of it that the pad
    // puts its input in.
    mlir::Value filled;
    llvm::SmallVector<mlir::OpFoldResult> padOffsets, padSizes, padStrides;
    if (pad) {
      mlir::Value value = padValue;
      if (pad->isAncestor(value.getParentRegion()->getParentOp()))
        value = b.clone(*value.getDefiningOp())->getResult(0);
      else
        value = map.lookup(value);
      filled = mlir::linalg::FillOp::create(b, pad.getLoc(), value,
                                            body->getArguments().back())
                   .getResult(0);
      mlir::Value init = map.lookup(rootOp.getDpsInits()[0]);
      padOffsets = pad.getMixedLowPad();
      padSizes = mlir::tensor::getMixedSizes(b, pad.getLoc(), init);
      padStrides.assign(padSizes.size(), b.getIndexAttr(1));
      map.map(rootOp.getDpsInits()[0],
              mlir::tensor::ExtractSliceOp::create(
                  b, pad.getLoc(), filled, padOffsets, padSizes, padStrides)
                  .getResult());
    }
    for (mlir::Operation *op : group)
      b.clone(*op, map);
    llvm::SmallVector<mlir::Value> returned;
    for (mlir::Value v : root->getResults())
      returned.push_back(map.lookup(v));
    if (pad)
      returned = {mlir::tensor::InsertSliceOp::create(
          b, pad.getLoc(), returned[0], filled, padOffsets, padSizes,
          padStrides)};
    mlir::func::ReturnOp::create(b, loc, returned);

    // The call, where the root was (or the insert into padding, after what
    // sizes the padding), with a fresh destination each, so that no two
    // dispatches write the same buffer; never inlined back.
    b.setInsertionPoint(pad ? pad.getOperation() : root);
    llvm::SmallVector<mlir::Value> operands(inputs.begin(), inputs.end());
    for (mlir::Value destination : destinations) {
      auto empty = destination.getDefiningOp<mlir::tensor::EmptyOp>();
      operands.push_back(mlir::bufferization::AllocTensorOp::create(
          b, empty.getLoc(), empty.getType(), empty.getDynamicSizes()));
    }
    if (pad) {
      // The padding's dynamic sizes: the root's plus what is added.
      auto empty =
          rootOp.getDpsInits()[0].getDefiningOp<mlir::tensor::EmptyOp>();
      llvm::SmallVector<mlir::Value> sizes;
      for (int64_t d = 0; d < pad.getResultType().getRank(); ++d) {
        if (!pad.getResultType().isDynamicDim(d))
          continue;
        int64_t extra = pad.getStaticLow()[d] + pad.getStaticHigh()[d];
        mlir::Value size;
        if (empty.getType().isDynamicDim(d)) {
          size = empty.getDynamicSize(d);
          if (extra)
            size = mlir::arith::AddIOp::create(
                b, pad.getLoc(), size,
                mlir::arith::ConstantIndexOp::create(b, pad.getLoc(), extra));
        } else {
          size = mlir::arith::ConstantIndexOp::create(
              b, pad.getLoc(), empty.getType().getDimSize(d) + extra);
        }
        sizes.push_back(size);
      }
      operands.push_back(mlir::bufferization::AllocTensorOp::create(
          b, pad.getLoc(), pad.getResultType(), sizes));
    }
    auto call = mlir::func::CallOp::create(b, loc, dispatch, operands);
    call.setNoInline(true);
    mlir::Operation *rootInit = rootOp.getDpsInits().empty()
                                    ? nullptr
                                    : rootOp.getDpsInits()[0].getDefiningOp();
    if (pad) {
      pad.getResult().replaceAllUsesWith(call.getResult(0));
      pad->erase();
    } else {
      root->replaceAllUsesWith(call.getResults());
    }
    root->erase();
    // The root's own destination, where the padding took its place.
    if (pad && rootInit && rootInit->use_empty())
      rootInit->erase();
    for (mlir::Operation *op : llvm::reverse(group))
      if (op != root && op->use_empty())
        op->erase();
    for (mlir::Value destination : destinations)
      if (destination.use_empty())
        destination.getDefiningOp()->erase();
    // Slices the dispatch took in that nothing else reads.
    for (mlir::Operation *op : llvm::reverse(copiedIn))
      if (sliceOffsets.contains(op) || isPulledView(op->getResult(0), block))
        if (mlir::isOpTriviallyDead(op))
          op->erase();
    return dispatch;
  }
};

} // namespace
} // namespace aot
