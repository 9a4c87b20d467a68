//===- PassLists.h - the pass lists of the stages both back ends run ------===//
//
// The CPU and CUDA back ends share the stages up to bufferization: the
// lists live here, as functions both call, each back end adding its own
// passes where the list leaves room for them. The lists are text so that
// `aot-compile --list-stages` shows them and a user can start from them
// when replacing a stage; every name in them is registered by
// registerPipelinePasses (Backend/PassRegistration.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

namespace aot {

/// The `linalg` stage: TOSA and tensor ops to linalg, elementwise fusion,
/// dispatches.
std::string linalgStagePasses();

/// The `bufferized` stage: one-shot bufferization into destination buffers,
/// deallocations inserted and lowered. `placeBuffers` runs right before the
/// deallocation ops are lowered (which adds host-side bookkeeping) and
/// `afterLowering` right after; each is "" or a comma-separated list.
std::string bufferizedStagePasses(std::string_view placeBuffers = {},
                                  std::string_view afterLowering = {});

} // namespace aot
