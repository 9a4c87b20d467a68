//===- Registration.h - the dialects the pipeline uses --------------------===//
#pragma once

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace aot {

/// Dialects accepted at the input stage plus those the shared stages
/// produce, with the external interface models bufferization and tiling
/// need; each back end adds its own (Backend::registerDialects). Explicit,
/// so that nothing depends on static initialisers.
void registerPipelineDialects(mlir::DialectRegistry &registry);

} // namespace aot
