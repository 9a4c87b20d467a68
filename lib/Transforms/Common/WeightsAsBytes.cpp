//===- WeightsAsBytes.cpp - aot-weights-as-bytes --------------------------===//
// GCC 12 takes the move of a resource blob's deleter (an llvm::unique_function
// in LLVM's headers) for a read of uninitialized memory; the warning is about
// code in those headers, so it is silenced before they are included.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include "Transforms/Common/ConstantBytes.h"
#include "Transforms/Common/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"

namespace aot {
#define GEN_PASS_DEF_WEIGHTSASBYTES
#include "Transforms/Common/Passes.h.inc"

namespace {
struct WeightsAsBytesPass : impl::WeightsAsBytesBase<WeightsAsBytesPass> {
  using WeightsAsBytesBase::WeightsAsBytesBase;

  void runOnOperation() override {
    mlir::MLIRContext *ctx = &getContext();
    auto i8 = mlir::IntegerType::get(ctx, 8);
    for (auto global : getOperation().getOps<mlir::LLVM::GlobalOp>()) {
      if (!global.getConstant())
        continue;
      std::optional<WeightBytes> bytes =
          weightBytes(global.getValueOrNull(), /*minBytes=*/1);
      if (!bytes)
        continue;
      if (std::string name = weightName(global.getLoc()); !name.empty())
        global->setAttr(kWeightNameAttr, mlir::StringAttr::get(ctx, name));
      if (bytes->size < minBytes)
        continue;
      // The parsed attribute lives as long as the context, so the blob can
      // point at its bytes; only a splat is written out into storage of its
      // own.
      auto makeBlob = [&]() -> mlir::AsmResourceBlob {
        if (!bytes->splat)
          return mlir::UnmanagedAsmResourceBlob::allocateInferAlign(
              bytes->data);
        mlir::AsmResourceBlob blob = mlir::HeapAsmResourceBlob::allocate(
            bytes->size, alignof(double), /*dataIsMutable=*/true);
        bytes->copyTo(blob.getMutableData().data());
        return blob;
      };
      auto type = mlir::RankedTensorType::get({int64_t(bytes->size)}, i8);
      global.setValueAttr(mlir::DenseResourceElementsAttr::get(
          type, global.getSymName(), makeBlob()));
      global.setGlobalType(mlir::LLVM::LLVMArrayType::get(i8, bytes->size));
      // What the bytes are, for external weights, which name their dtype.
      global->setAttr(kWeightTypeAttr, mlir::TypeAttr::get(bytes->type));
    }
  }
};
} // namespace
} // namespace aot
