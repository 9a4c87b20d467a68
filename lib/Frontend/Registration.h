//===- Registration.h - the dialects and passes the pipeline uses ---------===//
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

/// Registers, once per process, the passes the default stages name (and the
/// project's own `aot-` passes) so textual pass lists can refer to them.
void registerPipelinePasses();

} // namespace aot
