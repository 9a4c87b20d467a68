//===- ScalingBench.cpp - how compile cost grows with model size ----------===//
//
// Each row measured side by side in this run:
// - a deep MLP (N layers of 8x64 @ 64x64 + bias + relu, weights shared,
//   so that the layers are one dispatch; then each layer with a splat
//   weight of its own, so that every layer is compiled), compiled on one
//   and on two threads, next to the chain of upstream tools on their
//   shortest route (kLoweringPasses in Chain.h: no tiling or vectorization,
//   so the chain does less work); the time per layer at 100 and 2000
//   layers at each -O;
// - a matmul with a constant weight of M MB (up to 1 GB), compiled by
//   aot-compile to an object from text (hex dense) and from bytecode
//   (dense_resource), with the weight in the object and in an external
//   file, each against the same compile with a 64x64 weight;
// - the same matmul in-process keeping every stage's text and bytecode
//   (the library's default, what dumps need), and by the chain.
// Each compile runs in a child process, so its peak memory is its own (for
// the chain, that of its largest process) plus what the child inherits.
//
//===----------------------------------------------------------------------===//
#include "Bench.h"
#include "Chain.h"

#include "aot/Compiler.h"

#include <chrono>
#include <cstdio>
#include <fcntl.h>
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

/// The deep MLP; with `distinct`, each layer multiplies by its own splat
/// weight (a constant copied into the dispatch), so no two layers are the
/// same dispatch and every one is compiled.
std::string deepMlp(int layers, bool distinct = false) {
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
    std::string w = "%w";
    if (distinct) {
      w = "%w" + n;
      s += "  " + w + " = arith.constant dense<" +
           std::to_string(0.001 * (i + 1)) + "> : tensor<64x64xf32>\n";
    }
    s += "  %m" + n + " = linalg.matmul ins(" + prev + ", " + w + " : " + t +
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

/// Writes a matmul 8xN @ NxN whose NxN f32 weight is a hex `dense`
/// constant, or with `resource` a `dense_resource` whose blob follows the
/// module, to `path`, a row at a time (a 1 GB weight is 2 GB of text).
bool writeWeightModel(const std::string &path, int n, bool resource) {
  static const char digits[] = "0123456789ABCDEF";
  std::ofstream out(path, std::ios::binary);
  std::string N = std::to_string(n), t = "tensor<8x" + N + "xf32>";
  std::string w = "tensor<" + N + "x" + N + "xf32>";
  out << "func.func @f(%x: " << t << ") -> " << t
      << " attributes {llvm.emit_c_interface} {\n  %w = arith.constant "
      << (resource ? "dense_resource<weight>" : "dense<\"0x");
  auto writeWeights = [&] {
    std::mt19937 random(1);
    std::uniform_real_distribution<float> value(-1, 1);
    std::string row;
    for (int i = 0; i < n; ++i) {
      row.clear();
      for (int j = 0; j < n; ++j) {
        float f = value(random);
        const auto *bytes = reinterpret_cast<const unsigned char *>(&f);
        for (int b = 0; b < 4; ++b) {
          row += digits[bytes[b] >> 4];
          row += digits[bytes[b] & 15];
        }
      }
      out << row;
    }
  };
  if (!resource)
    writeWeights();
  out << (resource ? "" : "\">") << " : " << w
      << "\n  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : " << t
      << "\n  %i = linalg.fill ins(%z : f32) outs(%e : " << t << ") -> " << t
      << "\n  %r = linalg.matmul ins(%x, %w : " << t << ", " << w
      << ") outs(%i : " << t << ") -> " << t << "\n  return %r : " << t
      << "\n}\n";
  if (resource) {
    // The blob's first 4 bytes are its alignment (little-endian).
    out << "{-#\n  dialect_resources: {\n    builtin: {\n      weight: "
           "\"0x04000000";
    writeWeights();
    out << "\"\n    }\n  }\n#-}\n";
  }
  return bool(out);
}

/// Runs aot-compile with `args` in a child process. The child starts as a
/// copy of this process, so its peak includes this process's resident size;
/// the tables compare each peak with a baseline measured the same way.
Measured aotCompileInChild(const std::vector<std::string> &args) {
  return inChild([&] {
    std::vector<char *> argv;
    std::string program = AOT_COMPILE_PATH;
    argv.push_back(program.data());
    std::vector<std::string> copies = args;
    for (std::string &a : copies)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::execv(program.c_str(), argv.data());
    return false;
  });
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
  std::printf("== compile scaling (-O2; a child process per compile) ==\n");
  // The chain's one function grows its bufferization and deallocation
  // quadratically: minutes past 1000 layers, not run there.
  std::vector<int> layers = options.quick
                                ? std::vector<int>{10}
                                : std::vector<int>{10, 100, 400, 1000, 2000};
  for (bool distinct : {false, true}) {
    if (options.weightsOnly)
      break;
    std::printf(distinct ? "deep MLP, every layer its own splat weight (no "
                           "two dispatches alike)\n"
                         : "deep MLP: N layers of 8x64 @ 64x64 + bias + "
                           "relu, weights shared\n");
    std::printf("  %6s  %18s  %10s  %18s  %18s  %8s\n", "layers",
                "aot-compile -j1", "per layer", "aot-compile -j2",
                "upstream chain", "faster");
    for (int n : layers) {
      std::string source = deepMlp(n, distinct);
      Measured one = compileInChild(source, Pipeline().threads(1));
      Measured two = compileInChild(source, Pipeline().threads(2));
      Measured chain = n > 1000 ? Measured{} : chainInChild(source, "mlp", dir);
      std::printf("  %6d", n);
      printCell(one);
      std::printf("  %7.2f ms", one.ok ? one.seconds * 1e3 / n : 0.0);
      printCell(two);
      printCell(chain);
      printRatio(one, chain);
      std::printf("\n");
      ok = one.ok && two.ok && ok;
    }
  }

  // Linear at every -O: the time per layer at 2000 layers against 100, for
  // layers that are one dispatch and for layers that are all different.
  if (!options.quick && !options.weightsOnly) {
    for (bool distinct : {false, true}) {
      std::printf("deep MLP%s, time per layer at each -O (1 thread)\n",
                  distinct ? ", no two layers alike" : "");
      std::printf("  %6s  %10s  %10s  %8s\n", "-O", "100", "2000", "2000/100");
      const std::string small = deepMlp(100, distinct),
                        large = deepMlp(2000, distinct);
      // The faster of two compiles each: on a shared machine a slow spell
      // during one compile would otherwise read as growth.
      auto best = [&](const std::string &source, int level) {
        Pipeline pipeline = Pipeline().optLevel(level).threads(1);
        Measured first = compileInChild(source, pipeline);
        Measured second = compileInChild(source, pipeline);
        return first.ok && second.ok && second.seconds < first.seconds ? second
                                                                       : first;
      };
      for (int level = 0; level <= 3; ++level) {
        Measured a = best(small, level);
        Measured b = best(large, level);
        std::printf("  %6d", level);
        std::printf("  %7.2f ms", a.ok ? a.seconds * 1e3 / 100 : 0.0);
        std::printf("  %7.2f ms", b.ok ? b.seconds * 1e3 / 2000 : 0.0);
        if (a.ok && b.ok)
          std::printf("  %7.2fx", (b.seconds / 2000) / (a.seconds / 100));
        std::printf("\n");
        ok = a.ok && b.ok && ok;
      }
    }
  }

  // Weights: `aot-compile -O2 m -o m.o` in a child process, from text
  // (hex dense) and from bytecode (dense_resource), with the weight in the
  // object or in an external file; "added" is the time and peak memory
  // beyond those of the same model with a 64x64 weight.
  std::printf("constant weight: 8xN @ NxN f32, aot-compile -O2 m -o m.o; "
              "added to a 64x64 weight's compile\n");
  std::printf("  %6s  %8s  %18s  %18s  %18s  %18s\n", "MB", "input", "embedded",
              "added", "external", "added");
  std::vector<int> sizes = options.quick
                               ? std::vector<int>{256}
                               : std::vector<int>{1024, 4096, 8192, 16384};
  const std::string work = dir.empty() ? "/tmp" : dir;
  for (bool bytecode : {false, true}) {
    Measured base[2];
    auto compileBoth = [&](int n, Measured out[2]) {
      std::string text = work + "/weights.mlir";
      std::string input = text;
      if (!writeWeightModel(text, n, bytecode))
        return false;
      if (bytecode) {
        input = work + "/weights.mlirbc";
        Measured convert = aotCompileInChild(
            {text, "--compile-to=input", "--emit=bytecode", "-o", input});
        std::filesystem::remove(text);
        if (!convert.ok)
          return false;
      }
      out[0] = aotCompileInChild({input, "-o", work + "/weights.o"});
      out[1] = aotCompileInChild(
          {input, "--external-weights=" + work + "/weights.safetensors", "-o",
           work + "/weights.o"});
      std::filesystem::remove(input);
      std::filesystem::remove(work + "/weights.safetensors");
      return out[0].ok && out[1].ok;
    };
    // Twice: the first run also brings the compiler, and the data it reads,
    // into the page cache, which every later compile finds there.
    ok = compileBoth(64, base) && compileBoth(64, base) && ok;
    for (int n : sizes) {
      Measured m[2];
      ok = compileBoth(n, m) && ok;
      std::printf("  %6.1f  %8s", double(n) * n * 4 / (1 << 20),
                  bytecode ? "bytecode" : "text");
      for (int k = 0; k < 2; ++k) {
        printCell(m[k]);
        if (m[k].ok && base[k].ok)
          std::printf("  %7.2f s %6ld MB", m[k].seconds - base[k].seconds,
                      m[k].peakMb - base[k].peakMb);
        else
          std::printf("  %18s", "");
      }
      std::printf("\n");
    }
  }

  // In process, keeping every stage (the library's default: decimal text
  // of every weight at every stage), and the chain, on the same text.
  std::printf("constant weight, every stage kept (in-process) and the "
              "upstream chain\n");
  std::printf("  %6s  %18s  %18s\n", "MB", "every stage kept",
              "upstream chain");
  for (int n :
       options.quick ? std::vector<int>{256} : std::vector<int>{1024, 4096}) {
    std::string path = work + "/weights.mlir";
    if (!writeWeightModel(path, n, false)) {
      ok = false;
      continue;
    }
    std::string source = readFile(path);
    std::filesystem::remove(path);
    Measured full = compileInChild(source, Pipeline());
    Measured chain = chainInChild(source, "f", dir);
    std::printf("  %6.1f", double(n) * n * 4 / (1 << 20));
    printCell(full);
    printCell(chain);
    std::printf("\n");
    ok = full.ok && ok;
  }
  if (!dir.empty())
    std::filesystem::remove_all(dir);
  return ok;
}

} // namespace aot::bench
