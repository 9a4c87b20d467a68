//===- StaticLlvm.cpp - what the static LLVM archives lack ----------------===//
//
// Linked only into executables built against LLVM's static archives
// (AOT_STATIC_LLVM_LINK). Debian builds LLVM with Polly registered as a
// static extension of the -O pipelines: libLLVM.so contains it, but no
// static archive of Polly is shipped, while libLLVMLTO.a and
// libLLVMExtensions.a still call its registration hook. The compiler never
// runs Polly; the hook registers nothing.
//
//===----------------------------------------------------------------------===//
#include "llvm/Plugins/PassPlugin.h"

llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Polly (not linked)", "0",
          [](llvm::PassBuilder &) {}};
}
