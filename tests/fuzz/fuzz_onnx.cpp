//===- fuzz_onnx.cpp - libFuzzer target: ONNX models ----------------------===//
//
// Every input goes to aot::Compiler::compile as an in-memory ONNX model, up
// to the input stage: the protobuf parser, ONNX's checker, version
// converter and shape inference, the shape folding and every converter a
// damaged graph reaches. An input that brings the process down, or a
// failure without a message, is a bug.
//
//===----------------------------------------------------------------------===//
#include "aot/Compiler.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
/// How the inputs fared, printed when the run ends.
struct Tally {
  long compiled = 0, rejected = 0;
  ~Tally() {
    std::fprintf(stderr, "aot_fuzz_onnx: %ld compiled, %ld rejected\n",
                 compiled, rejected);
  }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data,
                                      std::size_t size) {
  static const aot::Compiler compiler;
  static const aot::Pipeline pipeline =
      aot::Pipeline().compileTo(aot::Stage::Input);
  std::string bytes(reinterpret_cast<const char *>(data), size);
  auto artifact =
      compiler.compile(aot::Source::memory(std::move(bytes), "fuzz.onnx")
                           .format(aot::SourceFormat::Onnx),
                       pipeline);
  static Tally tally;
  if (artifact) {
    ++tally.compiled;
    return 0;
  }
  if (artifact.error().str().empty())
    std::abort();
  ++tally.rejected;
  return 0;
}
