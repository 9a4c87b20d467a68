//===- ScalingBench.cpp - how compile cost grows with model size ----------===//
//
// Two tables, each row measured side by side in this run:
// - a deep MLP (N layers of 8x64 @ 64x64 + bias + relu, weights shared),
//   compiled in-process next to the chain of upstream tools on their
//   shortest route (kLoweringPasses in Chain.h: no tiling or vectorization,
//   so the chain does less work than the in-process compile);
// - a matmul with a constant weight of M MB, compiled keeping only the
//   object (what `aot-compile -o m.o` does), keeping every stage's text and
//   bytecode (the library's default, what dumps need), and by the chain.
// Each compile runs in a child process, so its peak memory is its own (for
// the chain, that of its largest process).
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Chain.h"

#include "aot/Compiler.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace aot::bench {
namespace {

struct Measured {
  bool ran = false; ///< false: not run (too slow, or no tools)
  bool ok = false;
  double seconds = 0;
  long peakMb = 0;
};

/// Runs `work` in a child process: wall time, and the peak resident memory
/// of the child or of the largest process it waited for.
Measured inChild(const std::function<bool()> &work) {
  auto start = std::chrono::steady_clock::now();
  std::fflush(stdout);
  pid_t pid = ::fork();
  if (pid == 0)
    ::_exit(work() ? 0 : 1);
  Measured m;
  m.ran = true;
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

/// Compiles `source` to object code in a child process.
Measured compileInChild(const std::string &source, const Pipeline &pipeline) {
  return inChild([&] {
    Compiler compiler;
    auto artifact = compiler.compile(Source::memory(source, "scaling.mlir"),
                                     pipeline, Target::host());
    if (!artifact)
      std::fprintf(stderr, "%s\n", artifact.error().str().c_str());
    return artifact && artifact->stage(Stage::Object);
  });
}

/// Compiles `source` with the chain of upstream tools, in a child process;
/// not run when the chain cannot run here.
Measured chainInChild(const std::string &source, const std::string &function,
                      const std::string &dir) {
  if (dir.empty())
    return {};
  const std::string model = dir + "/scaling.mlir";
  std::ofstream(model, std::ios::binary) << source;
  Chain chain = makeChain(model, dir, kLoweringPasses);
  if (!chain.skipReason.empty())
    return {};
  return inChild([&] {
    int status = runShell(chain.command);
    std::string why = checkChainRun(chain, status, "_mlir_ciface_" + function);
    if (!why.empty())
      std::fprintf(stderr, "chain: %s\n", why.c_str());
    return why.empty();
  });
}

std::string deepMlp(int layers) {
  // llvm.emit_c_interface: the chain's stand-in for aot-export-c-interface.
  std::string s = "func.func @mlp(%x: tensor<8x64xf32>, %w: tensor<64x64xf32>,"
                  " %b: tensor<64xf32>) -> tensor<8x64xf32>"
                  " attributes {llvm.emit_c_interface} {\n"
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
  return "func.func @f(%x: " + t + ") -> " + t +
         " attributes {llvm.emit_c_interface} {\n" +
         "  %w = arith.constant dense<\"0x" + hex + "\"> : tensor<" + N + "x" +
         N +
         "xf32>\n  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : " +
         t + "\n  %i = linalg.fill ins(%z : f32) outs(%e : " + t + ") -> " + t +
         "\n  %r = linalg.matmul ins(%x, %w : " + t + ", tensor<" + N + "x" +
         N + "xf32>) outs(%i : " + t + ") -> " + t + "\n  return %r : " + t +
         "\n}\n";
}

void printCell(const Measured &m) {
  if (!m.ran)
    std::printf("  %18s", "not run");
  else if (m.ok)
    std::printf("  %7.2f s %6ld MB", m.seconds, m.peakMb);
  else
    std::printf("  %18s", "FAILED");
}

/// How many times faster `fast` is than `slow`, or blanks.
void printRatio(const Measured &fast, const Measured &slow) {
  if (fast.ok && slow.ok)
    std::printf("  %7.1fx", slow.seconds / fast.seconds);
  else
    std::printf("  %8s", "");
}

} // namespace

bool runScalingBench(const Options &options) {
  char dirTemplate[] = "/tmp/aot-scaling-XXXXXX";
  // Empty when no directory could be made: then the chain is not run.
  const std::string dir = ::mkdtemp(dirTemplate) ? dirTemplate : "";
  if (dir.empty())
    std::printf("(the chain is not run: no temporary directory)\n");
  else if (std::string why = makeChain(dir + "/none.mlir", dir).skipReason;
           !why.empty())
    std::printf("(the chain is not run: %s)\n", why.c_str());

  bool ok = true;
  std::printf("== compile scaling (-O2, one thread; a child process per "
              "compile) ==\n");
  std::printf("deep MLP: N layers of 8x64 @ 64x64 + bias + relu, weights "
              "shared\n");
  std::printf("  %6s  %18s  %10s  %18s  %8s\n", "layers", "aot-compile",
              "per layer", "upstream chain", "faster");
  std::vector<int> layers = options.quick
                                ? std::vector<int>{10}
                                : std::vector<int>{10, 100, 400, 1000, 2000};
  for (int n : layers) {
    std::string source = deepMlp(n);
    Measured aot = compileInChild(source, Pipeline());
    // The chain's one function grows its bufferization and deallocation
    // quadratically: minutes past 1000 layers, not run there.
    Measured chain = n > 1000 ? Measured{} : chainInChild(source, "mlp", dir);
    std::printf("  %6d", n);
    printCell(aot);
    std::printf("  %7.2f ms", aot.ok ? aot.seconds * 1e3 / n : 0.0);
    printCell(chain);
    printRatio(aot, chain);
    std::printf("\n");
    ok = aot.ok && ok;
  }

  // Linear at every -O: the time per layer at 2000 layers against 100.
  if (!options.quick) {
    std::printf("deep MLP, time per layer at each -O\n");
    std::printf("  %6s  %10s  %10s  %8s\n", "-O", "100", "2000", "2000/100");
    const std::string small = deepMlp(100), large = deepMlp(2000);
    for (int level = 0; level <= 3; ++level) {
      Measured a = compileInChild(small, Pipeline().optLevel(level));
      Measured b = compileInChild(large, Pipeline().optLevel(level));
      std::printf("  %6d", level);
      std::printf("  %7.2f ms", a.ok ? a.seconds * 1e3 / 100 : 0.0);
      std::printf("  %7.2f ms", b.ok ? b.seconds * 1e3 / 2000 : 0.0);
      if (a.ok && b.ok)
        std::printf("  %7.2fx", (b.seconds / 2000) / (a.seconds / 100));
      std::printf("\n");
      ok = a.ok && b.ok && ok;
    }
  }

  std::printf("constant weight: 8xN @ NxN, the NxN f32 weight a hex dense\n");
  std::printf("  %6s  %18s  %18s  %18s\n", "MB", "object kept",
              "every stage kept", "upstream chain");
  std::vector<int> sizes = options.quick ? std::vector<int>{256}
                                         : std::vector<int>{1024, 4096, 8192};
  for (int n : sizes) {
    std::string source = weightMatmul(n);
    Measured lean =
        compileInChild(source, Pipeline().keepOnly({Stage::Object}, {}));
    // Decimal text of every weight at every stage, and the chain's, take
    // minutes and gigabytes past 64 MB: not run there.
    bool big = n > 4096;
    Measured full = big ? Measured{} : compileInChild(source, Pipeline());
    Measured chain = big ? Measured{} : chainInChild(source, "f", dir);
    std::printf("  %6.1f", double(n) * n * 4 / (1 << 20));
    printCell(lean);
    printCell(full);
    printCell(chain);
    std::printf("\n");
    ok = lean.ok && (big || full.ok) && ok;
  }
  if (!dir.empty())
    std::filesystem::remove_all(dir);
  return ok;
}

} // namespace aot::bench
