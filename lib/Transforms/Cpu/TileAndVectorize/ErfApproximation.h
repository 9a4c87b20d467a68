//===- ErfApproximation.h - f32 erf as one rational function ---*- C++ -*-===//
//
// Part of aot-tile-and-vectorize, with the other math approximations.
//
//===----------------------------------------------------------------------===//
#ifndef AOT_TRANSFORMS_CPU_TILEANDVECTORIZE_ERFAPPROXIMATION_H
#define AOT_TRANSFORMS_CPU_TILEANDVECTORIZE_ERFAPPROXIMATION_H

#include "mlir/IR/PatternMatch.h"

namespace aot::tile_and_vectorize {

/// Adds a pattern that rewrites math.erf on f32 vectors as
/// sign(x) * a * P(a^2) / Q(a^2), a = min(|x|, 3.925): one division and
/// no per-interval selects, where MLIR's approximation selects the
/// coefficients of three intervals lane by lane. Its benefit is above
/// MLIR's patterns, so it wins where both are added.
void populateErfApproximationPattern(mlir::RewritePatternSet &patterns);

} // namespace aot::tile_and_vectorize

#endif // AOT_TRANSFORMS_CPU_TILEANDVECTORIZE_ERFAPPROXIMATION_H
