//===- FormDispatches.cpp - aot-form-dispatches ---------------------------===//
//
// Outlines each fused group of linalg ops into a private function. Later
// stages, and LLVM's optimiser most of all, cost more than linearly in the
// size of one function; many small functions keep that cost near linear in
// the size of a model, and leave function-level passes work they could
// share between threads.
//
//===----------------------------------------------------------------------===//
#include "Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/SetVector.h"

#include <functional>

namespace aot {
#define GEN_PASS_DEF_FORMDISPATCHES
#include "Transforms/Passes.h.inc"

namespace {

/// Marks a dispatch, so that the pass leaves it alone when it runs again.
constexpr llvm::StringLiteral kDispatchAttr = "aot.dispatch";

/// A linalg.fill or tensor.empty whose only use initialises the output of
/// another op of the group: it belongs with that op.
bool initialisesOnly(mlir::Operation *op) {
  return op && op->hasOneUse() &&
         (llvm::isa<mlir::linalg::FillOp>(op) ||
          llvm::isa<mlir::tensor::EmptyOp>(op));
}

/// A linalg op on tensors that starts a dispatch: not a fill that only
/// initialises another linalg op's output (it joins that op's dispatch).
bool isRoot(mlir::linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return false;
  if (!llvm::isa<mlir::linalg::FillOp>(op.getOperation()) || !op->hasOneUse())
    return true;
  auto user = llvm::dyn_cast<mlir::linalg::LinalgOp>(*op->user_begin());
  if (!user || user->getBlock() != op->getBlock())
    return true;
  for (mlir::OpOperand &init : user.getDpsInitsMutable())
    if (init.get().getDefiningOp() == op)
      return false;
  return true;
}

/// Ops cheap enough to copy into each dispatch that uses them: scalar and
/// splat constants, and tensor.empty (a shared one, passed in, would make
/// every dispatch write into the same buffer and bufferization copy it).
/// Other constants (weights) stay with the caller, passed by reference.
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
      for (auto [index, root] : llvm::enumerate(roots))
        outline(root, fn, unsigned(index), symbols);
    }
  }

  /// The root and the ops that only initialise its outputs, in block order.
  static llvm::SmallVector<mlir::Operation *>
  groupOf(mlir::linalg::LinalgOp root) {
    llvm::SmallVector<mlir::Operation *> group;
    for (mlir::OpOperand &init : root.getDpsInitsMutable()) {
      mlir::Operation *def = init.get().getDefiningOp();
      if (!initialisesOnly(def) || def->getBlock() != root->getBlock())
        continue;
      if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(def)) {
        mlir::Operation *empty = fill.getOutputs()[0].getDefiningOp();
        if (initialisesOnly(empty) && llvm::isa<mlir::tensor::EmptyOp>(empty) &&
            empty->getBlock() == root->getBlock())
          group.push_back(empty);
      }
      group.push_back(def);
    }
    group.push_back(root);
    llvm::sort(group, [](mlir::Operation *a, mlir::Operation *b) {
      return a->isBeforeInBlock(b);
    });
    return group;
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

  void outline(mlir::linalg::LinalgOp rootOp, mlir::func::FuncOp fn,
               unsigned index, mlir::SymbolTable &symbols) {
    mlir::Operation *root = rootOp.getOperation();
    llvm::SmallVector<mlir::Operation *> group = groupOf(rootOp);
    llvm::SmallPtrSet<mlir::Operation *, 4> inGroup(group.begin(), group.end());

    // What the group reads from outside (operands and values its regions
    // capture) and what the rest of the function uses of it. Ops copied in
    // come after what they use, in `copiedIn`.
    llvm::SetVector<mlir::Value> inputs;
    llvm::SetVector<mlir::Operation *> copiedIn;
    std::function<void(mlir::Value)> use = [&](mlir::Value v) {
      mlir::Operation *def = v.getDefiningOp();
      if (inGroup.contains(def) || copiedIn.contains(def))
        return;
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
    llvm::SmallVector<mlir::Value> outputs;
    for (mlir::Operation *op : group)
      for (mlir::Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](mlir::Operation *user) {
              return !inGroup.contains(user);
            }))
          outputs.push_back(result);

    // The dispatch, placed before the function it came from.
    mlir::OpBuilder b(fn);
    mlir::Location loc = root->getLoc();
    auto type = b.getFunctionType(mlir::ValueRange(inputs.getArrayRef()),
                                  mlir::ValueRange(outputs));
    auto dispatch = mlir::func::FuncOp::create(
        b, loc, nameOf(fn, root, index, symbols), type);
    dispatch.setPrivate();
    dispatch->setAttr(kDispatchAttr, b.getUnitAttr());
    symbols.insert(dispatch);
    mlir::Block *body = dispatch.addEntryBlock();
    mlir::IRMapping map;
    for (auto [value, arg] : llvm::zip(inputs, body->getArguments()))
      map.map(value, arg);
    b.setInsertionPointToStart(body);
    for (mlir::Operation *op : copiedIn)
      b.clone(*op, map);
    for (mlir::Operation *op : group)
      b.clone(*op, map);
    llvm::SmallVector<mlir::Value> returned;
    for (mlir::Value v : outputs)
      returned.push_back(map.lookup(v));
    mlir::func::ReturnOp::create(b, loc, returned);

    // The call, where the group was; never inlined back.
    b.setInsertionPoint(root);
    auto call = mlir::func::CallOp::create(
        b, loc, dispatch, mlir::ValueRange(inputs.getArrayRef()));
    call.setNoInline(true);
    for (auto [value, result] : llvm::zip(outputs, call.getResults()))
      value.replaceAllUsesWith(result);
    for (mlir::Operation *op : llvm::reverse(group))
      op->erase();
  }
};

} // namespace
} // namespace aot
