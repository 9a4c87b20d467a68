//===- Bench.h - the parts of aot-bench -----------------------------------===//
#pragma once

#include "aot/Compiler.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aot::bench {

/// What the command line asked for.
struct Options {
  /// Only N = 256 and one compile repetition (the smoke test).
  bool quick = false;
  /// The model whose compile time is measured.
  std::string modelPath;
  /// Of the scaling part, only the weights' tables (--only=weights).
  bool weightsOnly = false;
};

/// `mlir` compiled in-process at -O3 for this machine, its code running on
/// `threads` (Pipeline::runThreads), and loaded; on failure, the error is
/// printed and nullopt returned.
std::optional<LoadedModule> compileAndLoad(const std::string &mlir,
                                           const std::string &name,
                                           unsigned threads = 1);

/// A statically shaped matmul for a benchmark's module.
struct MatmulText {
  std::string name;
  /// `batch` matrices (1: no batch dim) of A (m x k) by B (k x n).
  std::int64_t batch = 1, m = 0, k = 0, n = 0;
  /// B stored transposed (n x k).
  bool transposedB = false;
  /// The operands' element type, the accumulator's, and its zero.
  std::string in = "f32", acc = "f32", zero = "0.0";
};

/// MLIR text of `func.func @NAME(%a, %b) -> C`: C = A·B (or A·Bᵀ), its
/// accumulator zero-filled by linalg.fill.
std::string matmulText(const MatmulText &spec);

/// `count` values uniform in [-1, 1) from the fixed `seed`.
std::vector<float> randomValues(std::size_t count, unsigned seed);

/// The median time of one call of `sig`'s function in `module` with
/// arguments uniform in [-1, 1) (f32 tensors); 0 when a call fails.
double timeCall(LoadedModule &module, const FunctionSig &sig, bool quick);

/// Prints the CPU model, core count, compiler version and Eigen's SIMD set.
void printMachine();

/// Times the compiled f32 matmul against Eigen and checks its results.
/// Returns false when a compile, a call or a result check failed.
bool runMatmulBench(const Options &options);

/// Times the compiled f32 matmul on unaligned operands against Eigen on the
/// same memory, and the i8 x i8 -> i32 matmul against Eigen's int32 GEMM.
/// Returns false when a compile, a call or a result check failed.
bool runMatmulVariantsBench(const Options &options);

/// Times compiled f32 matmuls with B stored transposed, and batch matmuls,
/// against Eigen on the same memory, checking their results. Returns false
/// when a compile, a call or a result check failed.
bool runMatmulLayoutsBench(const Options &options);

/// Times an in-process compile of the model against the chain of separate
/// tools. Returns false when the in-process compile failed; a chain that
/// cannot run is reported and skipped.
bool runCompileTimeBench(const Options &options);
/// Compile time and peak memory as models grow: a deep MLP with and without
/// dispatch formation, and constant weights kept as the object only or as
/// every stage (only those with Options::weightsOnly). Returns false when a
/// compile failed.
bool runScalingBench(const Options &options);

/// Times compiled NHWC convolutions against Eigen's im2col + GEMM and
/// checks their results. Returns false when a compile, a call or a check
/// failed.
bool runConvBench(const Options &options);

/// Times a compiled softmax and layer norm against Eigen and a bias add
/// against memcpy, checking the results. Returns false when a compile, a
/// call or a check failed.
bool runReductionBench(const Options &options);

/// A transformer encoder layer: the whole layer, then each of its matmul
/// dispatches as the layer formed them next to the same matmul compiled
/// alone. Returns false when a compile or a call failed.
bool runEncoderBench(const Options &options);

/// A deep MLP whose layers slice their weights from one stacked tensor,
/// timed next to the same layers given each weight as an argument of its
/// own. Returns false when a compile or a call failed.
bool runStackedWeightsBench(const Options &options);

} // namespace aot::bench
