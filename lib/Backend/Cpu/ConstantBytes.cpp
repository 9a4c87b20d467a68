//===- ConstantBytes.cpp - large constants handed to the assembler as bytes
//===//
#include "Backend/Cpu/ConstantBytes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SwapByteOrder.h"

#include <string>
#include <vector>

namespace aot {
namespace {

/// Appends the in-memory bytes of `c` to `out`; false when `c` is not an
/// array of numbers without padding (whose raw data is its memory image).
bool appendBytes(const llvm::Constant *c, const llvm::DataLayout &layout,
                 std::string &out) {
  if (const auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
    llvm::Type *element = data->getElementType();
    if (layout.getTypeAllocSize(element) != layout.getTypeStoreSize(element))
      return false;
    out += data->getRawDataValues();
    return true;
  }
  if (llvm::isa<llvm::ConstantAggregateZero>(c) &&
      llvm::isa<llvm::ArrayType>(c->getType())) {
    out.append(layout.getTypeAllocSize(c->getType()), '\0');
    return true;
  }
  const auto *array = llvm::dyn_cast<llvm::ConstantArray>(c);
  if (!array)
    return false;
  for (const llvm::Use &element : array->operands())
    if (!appendBytes(llvm::cast<llvm::Constant>(element.get()), layout, out))
      return false;
  return true;
}

} // namespace

void storeConstantsAsBytes(llvm::Module &module, std::uint64_t minBytes) {
  const llvm::DataLayout &layout = module.getDataLayout();
  // Raw constant data is in the host's byte order.
  if (layout.isLittleEndian() != llvm::sys::IsLittleEndianHost)
    return;
  std::vector<llvm::GlobalVariable *> candidates;
  for (llvm::GlobalVariable &global : module.globals())
    if (global.isConstant() && global.hasInitializer() &&
        !global.isThreadLocal() &&
        llvm::isa<llvm::ArrayType>(global.getValueType()) &&
        !global.getValueType()->getArrayElementType()->isIntegerTy(8) &&
        layout.getTypeAllocSize(global.getValueType()) >= minBytes)
      candidates.push_back(&global);
  for (llvm::GlobalVariable *global : candidates) {
    std::string bytes;
    if (!appendBytes(global->getInitializer(), layout, bytes) ||
        bytes.size() != layout.getTypeAllocSize(global->getValueType()))
      continue;
    llvm::Constant *image = llvm::ConstantDataArray::getString(
        module.getContext(), bytes, /*AddNull=*/false);
    auto *replacement = new llvm::GlobalVariable(
        module, image->getType(), /*isConstant=*/true, global->getLinkage(),
        image, "", global, llvm::GlobalValue::NotThreadLocal,
        global->getAddressSpace());
    replacement->copyAttributesFrom(global);
    // The typed array's alignment, whether stated or the layout's choice.
    replacement->setAlignment(layout.getPreferredAlign(global));
    replacement->takeName(global);
    global->replaceAllUsesWith(replacement);
    global->eraseFromParent();
  }
}

} // namespace aot
