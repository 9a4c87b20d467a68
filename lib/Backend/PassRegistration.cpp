//===- PassRegistration.cpp - the passes the stages' lists name -----------===//
#include "Backend/PassRegistration.h"

#include "Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/Passes.h"
#include "mlir/Dialect/Tosa/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

namespace aot {

void registerPipelinePasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerTransformsPasses();
    mlir::registerConversionPasses();
    mlir::affine::registerAffinePasses();
    mlir::arith::registerArithPasses();
    mlir::bufferization::registerBufferizationPasses();
    mlir::bufferization::registerBufferizationPipelines();
    mlir::func::registerFuncPasses();
    mlir::LLVM::registerLLVMPasses();
    mlir::registerLinalgPasses();
    mlir::math::registerMathPasses();
    mlir::memref::registerMemRefPasses();
    mlir::registerSCFPasses();
    mlir::tensor::registerTensorPasses();
    mlir::tosa::registerTosaPasses();
    mlir::vector::registerVectorPasses();
    registerAotPasses();
  });
}

} // namespace aot
