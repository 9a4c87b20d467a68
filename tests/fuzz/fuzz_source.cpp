//===- fuzz_source.cpp - libFuzzer target: MLIR text and bytecode sources -===//
//
// Every input goes to aot::Compiler::compile as an in-memory source, up to
// the input stage: parsing (text, or bytecode through the guard of
// lib/Frontend/BytecodeGuard.h), verification, the input contract and the
// signatures, the front door all of a user's bytes pass. Bytecode that makes
// MLIR's reader crash or hang must come back as an error: an input that
// brings this process down is a bug in the guard, not in MLIR.
//
//===----------------------------------------------------------------------===//
#include "aot/Compiler.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
/// How the inputs fared, printed when the run ends, to show how often the
/// guard had to step in.
struct Tally {
  long compiled = 0, rejected = 0, contained = 0;
  ~Tally() {
    std::fprintf(stderr,
                 "aot_fuzz_source: %ld compiled, %ld rejected, %ld refused "
                 "after the bytecode reader crashed, hung or ran out of "
                 "memory\n",
                 compiled, rejected, contained);
  }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  // One compiler for the whole run, as in a program that embeds it.
  static const aot::Compiler compiler;
  static const aot::Pipeline pipeline =
      aot::Pipeline().compileTo(aot::Stage::Input);
  std::string bytes(reinterpret_cast<const char *>(data), size);
  auto artifact = compiler.compile(
      aot::Source::memory(std::move(bytes), "fuzz.mlirbc"), pipeline);
  static Tally tally;
  if (artifact) {
    ++tally.compiled;
    return 0;
  }
  // A failure says what failed.
  const std::string error = artifact.error().str();
  if (error.empty())
    std::abort();
  if (error.find("the bytecode reader") != std::string::npos)
    ++tally.contained;
  else
    ++tally.rejected;
  return 0;
}
