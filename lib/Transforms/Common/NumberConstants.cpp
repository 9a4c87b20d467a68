//===- NumberConstants.cpp - aot-number-constants -------------------------===//
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace aot {
#define GEN_PASS_DEF_NUMBERCONSTANTS
#include "Transforms/Common/Passes.h.inc"

namespace {
/// The prefix upstream's bufferization gives the globals it makes.
constexpr llvm::StringLiteral kConstantPrefix = "__constant_";

/// `__constant_1x32xf32` for memref<1x32xf32>.
std::string baseName(mlir::MemRefType type) {
  std::string name = kConstantPrefix.str();
  llvm::raw_string_ostream os(name);
  for (int64_t dim : type.getShape())
    os << dim << 'x';
  os << type.getElementType();
  return name;
}

struct NumberConstantsPass : impl::NumberConstantsBase<NumberConstantsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    llvm::StringMap<mlir::memref::GlobalOp> constants;
    llvm::StringSet<> otherSymbols;
    for (mlir::Operation &op : module.getBody()->getOperations()) {
      auto name = op.getAttrOfType<mlir::StringAttr>(
          mlir::SymbolTable::getSymbolAttrName());
      if (!name)
        continue;
      auto global = llvm::dyn_cast<mlir::memref::GlobalOp>(op);
      if (global && global.getConstant() && global.isPrivate() &&
          name.getValue().starts_with(kConstantPrefix))
        constants[name.getValue()] = global;
      else
        otherSymbols.insert(name.getValue());
    }
    if (constants.empty())
      return;

    // Each constant's uses, in the order of its first use.
    llvm::MapVector<mlir::memref::GlobalOp,
                    llvm::SmallVector<mlir::memref::GetGlobalOp>>
        uses;
    module.walk([&](mlir::memref::GetGlobalOp get) {
      auto it = constants.find(get.getName());
      if (it != constants.end())
        uses[it->second].push_back(get);
    });

    // Private globals nothing uses are dead; their names would otherwise
    // depend on the order they were made in.
    for (auto &entry : constants)
      if (!uses.count(entry.second))
        entry.second.erase();

    // Names by type, numbered in order; a name some other symbol holds is
    // skipped.
    mlir::MLIRContext *ctx = &getContext();
    llvm::StringMap<unsigned> counters;
    llvm::StringSet<> taken;
    mlir::Block *body = module.getBody();
    mlir::Operation *insertAfter = nullptr;
    for (auto &[global, gets] : uses) {
      std::string base = baseName(global.getType());
      std::string name;
      do {
        unsigned n = counters[base]++;
        name = n == 0 ? base : base + "_" + std::to_string(n - 1);
      } while (otherSymbols.contains(name) || taken.contains(name));
      taken.insert(name);
      auto attr = mlir::StringAttr::get(ctx, name);
      global.setSymNameAttr(attr);
      for (mlir::memref::GetGlobalOp get : gets)
        get.setNameAttr(mlir::FlatSymbolRefAttr::get(attr));
      if (insertAfter)
        global->moveAfter(insertAfter);
      else
        global->moveBefore(body, body->begin());
      insertAfter = global;
    }
  }
};
} // namespace
} // namespace aot
