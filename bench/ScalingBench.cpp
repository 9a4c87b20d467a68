//===- ScalingBench.cpp - how compile cost grows with model size ----------===//
//
// Two tables, each row measured side by side in this run:
// - a deep MLP (N layers of 8x64 @ 64x64 + bias + relu, weights shared),
//   compiled with dispatch formation (the default) and without it (the
//   linalg stage's passes minus aot-form-dispatches, one big function);
// - a matmul with a constant weight of M MB, compiled keeping only the
//   object (what `aot-compile -o m.o` does) and keeping every stage's text
//   and bytecode (the library's default, what dumps need).
// Each compile runs in a child process, so its peak memory is its own.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"

#include "aot/Compiler.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace aot::bench {
namespace {

struct Measured {
  bool ok = false;
  double seconds = 0;
  long peakMb = 0;
};

/// Compiles `source` to object code in a child process: wall time and the
/// child's peak resident memory.
Measured compileInChild(const std::string &source, const Pipeline &pipeline) {
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    Compiler compiler;
    auto artifact = compiler.compile(Source::memory(source, "scaling.mlir"),
                                     pipeline, Target::host());
    if (!artifact)
      std::fprintf(stderr, "%s\n", artifact.error().str().c_str());
    ::_exit(artifact && artifact->stage(Stage::Object) ? 0 : 1);
  }
  Measured m;
  if (pid < 0)
    return m;
  int status = 0;
  struct rusage usage {};
  if (::wait4(pid, &status, 0, &usage) != pid)
    return m;
  m.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  m.peakMb = usage.ru_maxrss / 1024;
  m.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return m;
}

std::string deepMlp(int layers) {
  std::string s = "func.func @mlp(%x: tensor<8x64xf32>, %w: tensor<64x64xf32>,"
                  " %b: tensor<64xf32>) -> tensor<8x64xf32> {\n"
                  "  %z = arith.constant 0.0 : f32\n";
  std::string prev = "%x", t = "tensor<8x64xf32>";
  for (int i = 0; i < layers; ++i) {
    std::string n = std::to_string(i);
    s += "  %e" + n + " = tensor.empty() : " + t + "\n";
    s += "  %f" + n + " = linalg.fill ins(%z : f32) outs(%e" + n + " : " + t +
         ") -> " + t + "\n";
    s += "  %m" + n + " = linalg.matmul ins(" + prev + ", %w : " + t +
         ", tensor<64x64xf32>) outs(%f" + n + " : " + t + ") -> " + t + "\n";
    s += "  %bb" + n + " = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e" +
         n + " : " + t + ") dimensions = [0]\n";
    s += "  %a" + n + " = arith.addf %m" + n + ", %bb" + n + " : " + t + "\n";
    s +=
        "  %r" + n + " = arith.maximumf %a" + n + ", %f" + n + " : " + t + "\n";
    prev = "%r" + n;
  }
  return s + "  return " + prev + " : " + t + "\n}\n";
}

/// A matmul 8xN @ NxN with the NxN weight a hex dense constant.
std::string weightMatmul(int n) {
  static const char digits[] = "0123456789ABCDEF";
  std::mt19937 random(1);
  std::uniform_real_distribution<float> value(-1, 1);
  std::string hex;
  hex.reserve(std::size_t(n) * n * 8);
  for (long i = 0; i < long(n) * n; ++i) {
    float f = value(random);
    const auto *bytes = reinterpret_cast<const unsigned char *>(&f);
    for (int b = 0; b < 4; ++b) {
      hex += digits[bytes[b] >> 4];
      hex += digits[bytes[b] & 15];
    }
  }
  std::string N = std::to_string(n), t = "tensor<8x" + N + "xf32>";
  return "func.func @f(%x: " + t + ") -> " + t + " {\n" +
         "  %w = arith.constant dense<\"0x" + hex + "\"> : tensor<" + N + "x" +
         N +
         "xf32>\n  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : " +
         t + "\n  %i = linalg.fill ins(%z : f32) outs(%e : " + t + ") -> " + t +
         "\n  %r = linalg.matmul ins(%x, %w : " + t + ", tensor<" + N + "x" +
         N + "xf32>) outs(%i : " + t + ") -> " + t + "\n  return %r : " + t +
         "\n}\n";
}

/// The default linalg stage without dispatch formation.
Pipeline oneFunction() {
  std::string passes = Pipeline::defaultStagePasses(Stage::Linalg);
  const std::string dispatches = ",aot-form-dispatches";
  if (std::size_t at = passes.find(dispatches); at != std::string::npos)
    passes.erase(at, dispatches.size());
  Pipeline p;
  p.setStagePasses(Stage::Linalg, passes);
  return p;
}

void printCell(const Measured &m) {
  if (m.ok)
    std::printf("  %7.2f s %6ld MB", m.seconds, m.peakMb);
  else
    std::printf("  %18s", "FAILED");
}

/// One row: the new path, the old one, and how much faster the new one is.
/// False when either compile failed.
bool printRow(const Measured &fresh, const Measured &old) {
  printCell(fresh);
  printCell(old);
  if (fresh.ok && old.ok)
    std::printf("  %7.1fx", old.seconds / fresh.seconds);
  std::printf("\n");
  return fresh.ok && old.ok;
}

} // namespace

bool runScalingBench(const Options &options) {
  bool ok = true;
  std::printf("== compile scaling (in-process, -O2, one thread; a child "
              "process per compile) ==\n");
  std::printf("deep MLP: N layers of 8x64 @ 64x64 + bias + relu\n");
  std::printf("  %6s  %18s  %18s  %8s\n", "layers", "dispatches",
              "one function", "speedup");
  std::vector<int> layers =
      options.quick ? std::vector<int>{10} : std::vector<int>{10, 100, 400};
  for (int n : layers) {
    std::string source = deepMlp(n);
    Measured split = compileInChild(source, Pipeline());
    Measured whole = compileInChild(source, oneFunction());
    std::printf("  %6d", n);
    ok = printRow(split, whole) && ok;
  }

  std::printf("constant weight: 8xN @ NxN, the NxN f32 weight a hex dense\n");
  std::printf("  %6s  %18s  %18s  %8s\n", "MB", "object kept",
              "every stage kept", "speedup");
  std::vector<int> sizes =
      options.quick ? std::vector<int>{256} : std::vector<int>{1024, 4096};
  for (int n : sizes) {
    std::string source = weightMatmul(n);
    Measured lean =
        compileInChild(source, Pipeline().keepOnly({Stage::Object}, {}));
    Measured full = compileInChild(source, Pipeline());
    std::printf("  %6.1f", double(n) * n * 4 / (1 << 20));
    ok = printRow(lean, full) && ok;
  }
  return ok;
}

} // namespace aot::bench
