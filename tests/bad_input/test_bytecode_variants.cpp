//===- test_bytecode_variants.cpp - damaged bytecode, compiled in-process -===//
//
// MLIR 22's bytecode reader crashes or hangs on some corrupted input
// (llvm-project issue 99626). A thousand damaged copies of a valid module's
// bytecode (bit flips anywhere in the file, truncations at any length) go to
// aot::Compiler::compile in this very process: each must compile or come back
// as a clean error naming the source, within the time limit; and the process
// that ran them all must still compile the intact module the same as before.
// At least one copy must have needed the guard (a crash or hang contained),
// or the test proves nothing.
//
// The source is given on the command line: --text=FILE.mlir and
// --bytecode=FILE.mlirbc, the bytecode written from the text by aot-compile.
// With --keep=DIR, every variant that needed the guard or failed the test is
// written to DIR, to replay with aot-compile.
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "aot/Compiler.h"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

namespace {

std::string textPath, bytecodePath, keepDir;

/// Fixed, so that every run feeds the same variants.
constexpr std::uint64_t kSeed = 99626;
constexpr int kFlipVariants = 700;
constexpr int kTruncatedVariants = 300;
/// The guard's time limit in this test (seconds), unless the environment
/// sets one: a small module parses in milliseconds, and every hang the
/// reader falls into costs the whole limit.
constexpr const char *kTestTimeLimit = "1";

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

struct Variant {
  std::string name;
  std::string bytes;
};

/// Bit flips: 1 to 4 bits each, at positions drawn over the whole file (the
/// header is a few percent of it). Truncations: lengths spread evenly from 1
/// byte to the whole file less one. Uses the engine's raw output, which the
/// standard fixes, not a distribution, which it does not.
std::vector<Variant> makeVariants(const std::string &original) {
  std::mt19937_64 engine(kSeed);
  auto below = [&](std::size_t n) { return std::size_t(engine() % n); };
  std::vector<Variant> out;
  for (int i = 0; i < kFlipVariants; ++i) {
    Variant v{"flip-" + std::to_string(i) + ".mlirbc", original};
    for (int flip = 0, flips = 1 + i % 4; flip < flips; ++flip) {
      std::size_t at = below(v.bytes.size());
      v.bytes[at] ^= char(1u << below(8));
    }
    out.push_back(std::move(v));
  }
  for (int i = 0; i < kTruncatedVariants; ++i) {
    std::size_t length = 1 + i * (original.size() - 1) / kTruncatedVariants;
    out.push_back({"cut-" + std::to_string(length) + ".mlirbc",
                   original.substr(0, length)});
  }
  return out;
}

enum class Outcome { Compiled, Rejected, Crashed, Hung, OtherContained };

const char *outcomeName(Outcome o) {
  switch (o) {
  case Outcome::Compiled:
    return "compiled";
  case Outcome::Rejected:
    return "rejected (parse, verifier or contract)";
  case Outcome::Crashed:
    return "reader crash contained";
  case Outcome::Hung:
    return "reader hang contained";
  case Outcome::OtherContained:
    return "reader fatal error or OOM contained";
  }
  return "?";
}

Outcome classify(const std::string &error) {
  if (error.find("the bytecode reader crashed") != std::string::npos)
    return Outcome::Crashed;
  if (error.find("the bytecode reader did not finish") != std::string::npos)
    return Outcome::Hung;
  if (error.find("the bytecode reader") != std::string::npos)
    return Outcome::OtherContained;
  return Outcome::Rejected;
}

/// An error is clean when it is one: its first diagnostic an error with a
/// message, and the variant named (by a reader error's location or, when
/// the reader failed without a word, by the compiler's fallback message) or
/// a location the bytecode recorded given (a verifier error names the .mlir
/// the bytecode was written from).
bool isClean(const aot::Error &error, const std::string &name) {
  const auto &ds = error.diagnostics();
  if (ds.empty() || ds[0].severity != aot::Severity::Error ||
      ds[0].message.empty())
    return false;
  if (error.str().find(name) != std::string::npos)
    return true;
  for (const aot::Diagnostic &d : ds)
    if (!d.file.empty())
      return true;
  return false;
}

void keep(const Variant &v) {
  if (keepDir.empty())
    return;
  std::ofstream out(keepDir + "/" + v.name, std::ios::binary);
  out << v.bytes;
}

/// What of this process the guard must leave as it found it.
struct ProcessState {
  int openDescriptors = 0;
  std::map<int, void *> handlers;

  static ProcessState now() {
    ProcessState state;
    for (const auto &entry :
         std::filesystem::directory_iterator("/proc/self/fd")) {
      (void)entry;
      ++state.openDescriptors;
    }
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGCHLD, SIGPIPE, SIGINT}) {
      struct sigaction action;
      ::sigaction(sig, nullptr, &action);
      state.handlers[sig] = reinterpret_cast<void *>(action.sa_handler);
    }
    return state;
  }
};

/// Whether a child of this process has ended without being waited for.
bool hasZombie() {
  siginfo_t info = {};
  return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid != 0;
}

/// The variants that needed the guard in the sweep, for the tests after it.
std::vector<Variant> &guardedVariants() {
  static std::vector<Variant> variants;
  return variants;
}

} // namespace

TEST_CASE("bytecode and text compile to the same object code") {
  aot::Compiler compiler;
  auto fromText = compiler.compile(aot::Source::file(textPath));
  auto fromBytecode = compiler.compile(
      aot::Source::memory(readFile(bytecodePath), "tosa_mlp.mlirbc"));
  REQUIRE_MESSAGE(fromText, fromText.error().str());
  REQUIRE_MESSAGE(fromBytecode, fromBytecode.error().str());
  CHECK(fromText->stage(aot::Stage::Input) ==
        fromBytecode->stage(aot::Stage::Input));
  CHECK(fromText->stage(aot::Stage::Object) ==
        fromBytecode->stage(aot::Stage::Object));
}

TEST_CASE("bytecode whose resources ask for 64-byte alignment, from memory") {
  // A buffer of bytecode must be aligned as its resources ask, or the reader
  // refuses it; the guard's child and the compiler both get aligned copies.
  const char *const text = R"mlir(
func.func @addc(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense_resource<blob1> : tensor<4xf32>
  %0 = arith.addf %a, %c : tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x400000000000803F0000004000004040000080400000"
    }
  }
#-}
)mlir";
  aot::Compiler compiler;
  auto fromText = compiler.compile(aot::Source::memory(text, "addc.mlir"));
  REQUIRE_MESSAGE(fromText, fromText.error().str());
  const auto &bytecode = fromText->stageBytecode(aot::Stage::Input);
  REQUIRE(bytecode);
  auto fromBytecode =
      compiler.compile(aot::Source::memory(*bytecode, "addc.mlirbc"));
  REQUIRE_MESSAGE(fromBytecode, fromBytecode.error().str());
  CHECK(fromText->stage(aot::Stage::Input) ==
        fromBytecode->stage(aot::Stage::Input));
  CHECK(fromText->stage(aot::Stage::Object) ==
        fromBytecode->stage(aot::Stage::Object));
}

TEST_CASE("a thousand damaged bytecode files: errors, never a crash or hang") {
  const std::string original = readFile(bytecodePath);
  REQUIRE(original.size() > kTruncatedVariants);
  REQUIRE(original.compare(0, 4, "ML\xefR") == 0);
  const std::vector<Variant> variants = makeVariants(original);
  REQUIRE(variants.size() == kFlipVariants + kTruncatedVariants);

  const double limit = std::atof(std::getenv("AOT_BYTECODE_PARSE_TIMEOUT"));
  aot::Compiler compiler;
  const ProcessState before = ProcessState::now();
  std::map<Outcome, int> counts;
  double slowest = 0;
  for (const Variant &v : variants) {
    auto start = std::chrono::steady_clock::now();
    auto artifact = compiler.compile(aot::Source::memory(v.bytes, v.name));
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    slowest = std::max(slowest, seconds);
    // The limit bounds the reader; the rest of a compile takes well under a
    // second for this module.
    CHECK_MESSAGE(seconds < limit + 5, v.name << " took " << seconds << " s");
    if (artifact) {
      ++counts[Outcome::Compiled];
      CHECK_MESSAGE(artifact->stage(aot::Stage::Object), v.name);
      continue;
    }
    const std::string text = artifact.error().str();
    Outcome outcome = classify(text);
    ++counts[outcome];
    bool clean = isClean(artifact.error(), v.name);
    CHECK_MESSAGE(clean, v.name << ": unclean error: " << text);
    if (!clean || outcome != Outcome::Rejected)
      keep(v);
    if (outcome != Outcome::Rejected) {
      // A refusal is about the file as a whole, and names it.
      CHECK_MESSAGE(artifact.error().diagnostics()[0].file == v.name, text);
      guardedVariants().push_back(v);
    }
  }

  std::cout << variants.size() << " damaged bytecode files (" << kFlipVariants
            << " with flipped bits, " << kTruncatedVariants
            << " truncated), time limit " << limit << " s, slowest compile "
            << slowest << " s:\n";
  for (const auto &[outcome, count] : counts)
    std::cout << "  " << count << " " << outcomeName(outcome) << "\n";
  CHECK_MESSAGE(counts[Outcome::Crashed] + counts[Outcome::Hung] +
                        counts[Outcome::OtherContained] >
                    0,
                "no variant needed the guard: the test proves nothing");

  // Every child reaped, every pipe closed, no handler of ours left behind.
  const ProcessState after = ProcessState::now();
  CHECK(after.openDescriptors == before.openDescriptors);
  CHECK(after.handlers == before.handlers);
  CHECK_FALSE(hasZombie());

  // The process that went through all of that still works.
  auto intact =
      compiler.compile(aot::Source::memory(original, "tosa_mlp.mlirbc"));
  REQUIRE_MESSAGE(intact, intact.error().str());
  auto reference = compiler.compile(aot::Source::file(textPath));
  REQUIRE_MESSAGE(reference, reference.error().str());
  CHECK(intact->stage(aot::Stage::Object) ==
        reference->stage(aot::Stage::Object));
}

TEST_CASE("a host that ignores SIGCHLD, whose children are never waited for") {
  // Then the kernel reaps the guard's children itself and their exit status
  // is lost; the answer they wrote, or its absence, still decides.
  REQUIRE_MESSAGE(!guardedVariants().empty(), "needs the sweep above");
  struct sigaction ignore = {}, old;
  ignore.sa_handler = SIG_IGN;
  REQUIRE(::sigaction(SIGCHLD, &ignore, &old) == 0);
  aot::Compiler compiler;
  for (const Variant &v : guardedVariants()) {
    auto artifact = compiler.compile(aot::Source::memory(v.bytes, v.name));
    if (!artifact)
      CHECK_MESSAGE(isClean(artifact.error(), v.name),
                    v.name << ": " << artifact.error().str());
  }
  auto intact = compiler.compile(
      aot::Source::memory(readFile(bytecodePath), "tosa_mlp.mlirbc"));
  CHECK_MESSAGE(intact, intact.error().str());
  ::sigaction(SIGCHLD, &old, nullptr);
}

TEST_CASE("two threads compile damaged and intact bytecode at once") {
  // Each thread's child inherits the other's pipe; neither may wait for the
  // other's child to end, and both must get their own answer.
  REQUIRE_MESSAGE(!guardedVariants().empty(), "needs the sweep above");
  const std::string intact = readFile(bytecodePath);
  aot::Compiler compiler;
  auto work = [&](std::vector<std::string> &problems) {
    for (int round = 0; round < 2; ++round) {
      for (const Variant &v : guardedVariants()) {
        auto artifact = compiler.compile(aot::Source::memory(v.bytes, v.name));
        if (!artifact && !isClean(artifact.error(), v.name))
          problems.push_back(v.name + ": " + artifact.error().str());
        auto good =
            compiler.compile(aot::Source::memory(intact, "tosa_mlp.mlirbc"));
        if (!good)
          problems.push_back("intact: " + good.error().str());
      }
    }
  };
  std::vector<std::string> first, second;
  std::thread other(work, std::ref(second));
  work(first);
  other.join();
  for (const auto &problems : {first, second})
    for (const std::string &problem : problems)
      FAIL_CHECK(problem);
  CHECK_FALSE(hasZombie());
}

int main(int argc, char **argv) {
  doctest::Context context;
  std::vector<char *> rest;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--text=", 0) == 0)
      textPath = arg.substr(7);
    else if (arg.rfind("--bytecode=", 0) == 0)
      bytecodePath = arg.substr(11);
    else if (arg.rfind("--keep=", 0) == 0)
      keepDir = arg.substr(7);
    else
      rest.push_back(argv[i]);
  }
  if (textPath.empty() || bytecodePath.empty()) {
    std::cerr << "usage: " << argv[0]
              << " --text=FILE.mlir --bytecode=FILE.mlirbc [--keep=DIR] "
                 "[doctest options]\n";
    return 2;
  }
  ::setenv("AOT_BYTECODE_PARSE_TIMEOUT", kTestTimeLimit, /*overwrite=*/0);
  context.applyCommandLine(int(rest.size()), rest.data());
  return context.run();
}
