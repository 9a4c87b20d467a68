//===- aot-opt.cpp - mlir-opt with the project's passes and dialects ------===//
//
// MLIR's opt driver with what a compile registers: the dialects of every
// back end (and the interface models bufferization and tiling need) and the
// project's `aot-` passes beside the upstream ones the stages name. The
// tests of each pass (tests/transforms) run it on small cases; by hand it
// runs one pass, or a stage's list from `aot-compile --list-stages`, on a
// stage dump.
//
//===----------------------------------------------------------------------===//
#include "Backend/Backend.h"
#include "Frontend/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  aot::registerPipelineDialects(registry);
  for (const aot::Backend *backend : aot::allBackends()) {
    backend->registerDialects(registry);
    backend->registerPasses();
  }
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "mlir-aot's passes and dialects in MLIR's opt driver\n",
      registry));
}
