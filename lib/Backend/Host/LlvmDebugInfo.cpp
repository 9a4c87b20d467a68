//===- LlvmDebugInfo.cpp - keeping LLVM IR's debug info whole -------------===//
#include "Backend/Host/LlvmDebugInfo.h"

#include "llvm/IR/DIBuilder.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

namespace aot {

/// DWARF 5: what gdb, perf and llvm-dwarfdump of Debian 12 all read.
static constexpr unsigned kDwarfVersion = 5;

void setDwarfVersion(llvm::Module &module) {
  if (module.debug_compile_units().empty() ||
      module.getModuleFlag("Dwarf Version"))
    return;
  module.addModuleFlag(llvm::Module::Max, "Dwarf Version", kDwarfVersion);
}

void describeWrapper(llvm::Function &wrapper, const llvm::Function &callee) {
  llvm::DISubprogram *calleeScope = callee.getSubprogram();
  if (!calleeScope || !calleeScope->getUnit())
    return;
  llvm::DIBuilder builder(*wrapper.getParent(), /*AllowUnresolved=*/false,
                          calleeScope->getUnit());
  llvm::DISubprogram *scope = builder.createFunction(
      calleeScope->getFile(), wrapper.getName(), wrapper.getName(),
      calleeScope->getFile(), calleeScope->getLine(), calleeScope->getType(),
      calleeScope->getScopeLine(), llvm::DINode::FlagArtificial,
      calleeScope->getSPFlags());
  wrapper.setSubprogram(scope);
  auto *line = llvm::DILocation::get(wrapper.getContext(),
                                     calleeScope->getLine(), 0, scope);
  for (llvm::BasicBlock &block : wrapper)
    for (llvm::Instruction &inst : block)
      inst.setDebugLoc(line);
  builder.finalizeSubprogram(scope);
}

Status verifyLlvmIr(const llvm::Module &module, const std::string &what) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (!llvm::verifyModule(module, &os))
    return Status::ok();
  os.flush();
  while (!message.empty() && message.back() == '\n')
    message.pop_back();
  return Error::message(what + " fails LLVM's verifier: " + message);
}

} // namespace aot
