//===- PassRegistration.h - the passes the stages' lists name -------------===//
#pragma once

namespace aot {

/// Registers, once per process, the upstream passes the default stages name
/// and every `aot-` pass, so that textual pass lists can refer to them. A
/// back end's Backend::registerPasses calls it, then registers its own
/// upstream extras.
void registerPipelinePasses();

} // namespace aot
