//===- test_Debug.cpp - DebugOptions through the library ------------------===//
#include "aot/Compiler.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace {
// Two modules whose ops sit on different lines of differently named files.
const char *kScale = R"(func.func @scale(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = arith.mulf %a, %a : tensor<8xf32>
  return %r : tensor<8xf32>
}
)";
const char *kShift = R"(

func.func @shift(%a: tensor<8xi32>) -> tensor<8xi32> {
  %r = arith.addi %a, %a : tensor<8xi32>
  return %r : tensor<8xi32>
}
)";

std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::filesystem::path scratch(const std::string &name) {
  auto dir = std::filesystem::temp_directory_path() / "aot-api-debug";
  std::filesystem::create_directories(dir);
  return dir / name;
}
} // namespace

TEST_CASE("two compiles on two threads keep their action logs apart") {
  aot::Compiler compiler;
  const std::filesystem::path logs[2] = {scratch("scale.log"),
                                         scratch("shift.log")};
  std::string errors[2];
  auto work = [&](int i) {
    aot::DebugOptions debug;
    debug.logActionsTo = logs[i].string();
    // Only the arithmetic op's line of each module.
    debug.logActionsFilter = {i == 0 ? "scale.mlir:2" : "shift.mlir:4"};
    auto a = compiler.compile(
        aot::Source::memory(i == 0 ? kScale : kShift,
                            i == 0 ? "scale.mlir" : "shift.mlir"),
        aot::Pipeline().debug(debug));
    if (!a)
      errors[i] = a.error().str();
  };
  std::thread t0(work, 0), t1(work, 1);
  t0.join();
  t1.join();
  REQUIRE(errors[0].empty());
  REQUIRE(errors[1].empty());
  const std::string scale = readFile(logs[0]), shift = readFile(logs[1]);
  CHECK(scale.find("on 'arith.mulf' at scale.mlir:2:") != std::string::npos);
  CHECK(shift.find("on 'arith.addi' at shift.mlir:4:") != std::string::npos);
  CHECK(scale.find("shift.mlir") == std::string::npos);
  CHECK(shift.find("scale.mlir") == std::string::npos);
  // Every entry of each log is about its own filtered line.
  for (const auto &[text, where] :
       {std::pair{scale, "scale.mlir:2:"}, std::pair{shift, "shift.mlir:4:"}}) {
    std::istringstream lines(text);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count)
      CHECK_MESSAGE(line.find(where) != std::string::npos, line);
    CHECK(count > 0);
  }
}

TEST_CASE("bad debug options are errors before compiling") {
  aot::Compiler compiler;
  aot::DebugOptions debug;
  debug.skipActions = {"apply-pattern:1"};
  auto a = compiler.compile(aot::Source::memory(kScale, "scale.mlir"),
                            aot::Pipeline().debug(debug));
  REQUIRE_FALSE(a);
  CHECK(a.error().str().find("--skip-actions 'apply-pattern:1' is not "
                             "TAG:SKIP:COUNT") != std::string::npos);
}

TEST_CASE("a timing report is written for a failed compile too") {
  aot::Compiler compiler;
  aot::DebugOptions debug;
  debug.timingTo = scratch("failed-timing.txt").string();
  std::filesystem::remove(debug.timingTo);
  // Without its elementwise-to-linalg pass the linalg stage leaves arith on
  // tensors, which bufferization then rejects.
  auto a = compiler.compile(
      aot::Source::memory(kScale, "scale.mlir"),
      aot::Pipeline()
          .setStagePasses(aot::Stage::Linalg, "canonicalize")
          .debug(debug));
  REQUIRE_FALSE(a);
  CHECK(a.error().str().find("bufferiz") != std::string::npos);
  CHECK(readFile(debug.timingTo).find("bufferized") != std::string::npos);
  CHECK(readFile(debug.timingTo).find("linalg") != std::string::npos);
}
