//===- PassLists.cpp - the pass lists of the stages both back ends run ----===//
#include "Backend/PassLists.h"

namespace aot {

std::string linalgStagePasses() {
  return "lift-cf-to-scf,"
         "func.func(aot-keep-constants-narrow,aot-fold-tosa-shapes,"
         "tosa-optional-decompositions,tosa-to-scf,tosa-to-linalg-named,"
         "tosa-to-linalg,tosa-to-arith{include-apply-rescale=true},"
         "tosa-to-tensor,"
         "convert-elementwise-to-linalg,aot-decompose-aggregates,"
         "math-extend-to-supported-types,aot-expand-math-predicates,"
         "aot-accumulate-half-in-f32),"
         "aot-promote-i4,canonicalize,"
         "aot-fuse-elementwise,canonicalize,cse,aot-form-dispatches,"
         "aot-deduplicate-dispatches";
}

std::string bufferizedStagePasses(std::string_view placeBuffers,
                                  std::string_view afterLowering) {
  std::string passes =
      "aot-protect-arguments,aot-split-shared-reads,"
      "one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map "
      "allow-return-allocs-from-loops},"
      "aot-number-constants,canonicalize,drop-equivalent-buffer-results,"
      "aot-hide-dispatch-buffers,"
      "buffer-deallocation-pipeline,aot-free-dispatch-buffers,";
  if (!placeBuffers.empty())
    passes.append(placeBuffers).append(",");
  passes += "convert-bufferization-to-memref,";
  if (!afterLowering.empty())
    passes.append(afterLowering).append(",");
  return passes + "canonicalize";
}

} // namespace aot
