//===- test_DebugInfo.cpp - debug info, location snapshots, bytecode ------===//
#include "aot/Compiler.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

namespace {
const char *kScale = R"(func.func @scale(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = arith.mulf %a, %a : tensor<8xf32>
  return %r : tensor<8xf32>
}
)";
// The same function as an importer writes it: names, no file positions.
const char *kNamed = R"(func.func @scale(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = arith.mulf %a, %a : tensor<8xf32> loc("square")
  return %r : tensor<8xf32> loc("result")
} loc("scale")
)";

std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::filesystem::path scratch(const std::string &name) {
  auto dir = std::filesystem::temp_directory_path() / "aot-api-debug-info";
  std::filesystem::create_directories(dir);
  return dir / name;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

aot::Pipeline withDebug(aot::DebugOptions debug) {
  return aot::Pipeline().debug(std::move(debug));
}
} // namespace

TEST_CASE("debug info: line tables of the source, code that still runs") {
  aot::Compiler compiler;
  aot::DebugOptions debug;
  debug.debugInfo = aot::DebugInfo::LineTables;
  auto artifact = compiler.compile(aot::Source::memory(kScale, "scale.mlir"),
                                   withDebug(debug));
  REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
  CHECK(artifact->warnings().empty());
  const std::string &ir = *artifact->stage(aot::Stage::LlvmIr);
  CHECK(contains(ir, "emissionKind: LineTablesOnly"));
  CHECK(contains(ir, "!DIFile(filename: \"scale.mlir\""));
  CHECK(contains(ir, "!DILocation(line: 2, column: 8"));
  CHECK(contains(*artifact->stage(aot::Stage::Object), ".debug_line"));
  // MLIR text of the compile keeps the locations for a later compile.
  CHECK(
      contains(*artifact->stage(aot::Stage::Llvm), "loc(\"scale.mlir\":2:8)"));

  auto loaded = artifact->load();
  REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().str()));
  std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8};
  auto r = loaded->call("scale", {aot::abi::Tensor::borrow(a.data(), {8})});
  REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
  CHECK((*r)[0].data<float>()[7] == 64.0f);

  // Without the option: no debug info, no locations in the text.
  auto plain = compiler.compile(aot::Source::memory(kScale, "scale.mlir"));
  REQUIRE(plain);
  CHECK(!contains(*plain->stage(aot::Stage::LlvmIr), "DICompileUnit"));
  CHECK(!contains(*plain->stage(aot::Stage::Llvm), " loc("));
}

TEST_CASE("name-only locations: a warning, or a snapshot that gives lines") {
  aot::Compiler compiler;
  aot::DebugOptions debug;
  debug.debugInfo = aot::DebugInfo::Full;
  auto warned = compiler.compile(aot::Source::memory(kNamed, "named.mlir"),
                                 withDebug(debug));
  REQUIRE_MESSAGE(warned, (warned ? "" : warned.error().str()));
  REQUIRE(warned->warnings().size() == 1);
  const aot::Diagnostic &warning = warned->warnings()[0];
  CHECK(warning.severity == aot::Severity::Warning);
  CHECK(warning.file == "named.mlir");
  CHECK(contains(warning.message, "--location-snapshot"));
  CHECK(!contains(*warned->stage(aot::Stage::LlvmIr), "!DILocation(line: 2"));

  const std::filesystem::path snapshot = scratch("named.04-llvm.mlir");
  std::filesystem::remove(snapshot);
  debug.locationSnapshot = aot::Stage::Llvm;
  debug.locationSnapshotTo = snapshot.string();
  auto located = compiler.compile(aot::Source::memory(kNamed, "named.mlir"),
                                  withDebug(debug));
  REQUIRE_MESSAGE(located, (located ? "" : located.error().str()));
  CHECK(located->warnings().empty());
  const std::string text = readFile(snapshot);
  CHECK(contains(text, "llvm.func @scale("));
  CHECK(contains(text, "loc(\"square\")"));
  const std::string &ir = *located->stage(aot::Stage::LlvmIr);
  CHECK(contains(ir, "!DIFile(filename: \"named.04-llvm.mlir\", directory: \"" +
                         snapshot.parent_path().string() + "\")"));
}

TEST_CASE("a pinned bytecode version is the version of every bytecode") {
  aot::Compiler compiler;
  aot::DebugOptions debug;
  debug.bytecodeVersion = 2;
  auto artifact =
      compiler.compile(aot::Source::memory(kScale, "scale.mlir"),
                       withDebug(debug).compileTo(aot::Stage::Bufferized));
  REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
  for (aot::Stage stage : {aot::Stage::Input, aot::Stage::Linalg,
                           aot::Stage::Tiled, aot::Stage::Bufferized}) {
    const std::string &bytes = *artifact->stageBytecode(stage);
    REQUIRE(bytes.size() > 5);
    CHECK(bytes.substr(0, 4) == "ML\xefR");
    CHECK(static_cast<unsigned char>(bytes[4]) == 2 * 2 + 1);
  }

  debug.bytecodeVersion = 9;
  auto tooNew = compiler.compile(aot::Source::memory(kScale, "scale.mlir"),
                                 withDebug(debug));
  REQUIRE(!tooNew);
  CHECK(contains(tooNew.error().str(),
                 "--bytecode-version=9: MLIR 22 writes bytecode versions 0 to "
                 "6"));

  // The LLVM dialect loses its overflow flags in versions before 5.
  debug.bytecodeVersion = 4;
  auto lossy = compiler.compile(
      aot::Source::memory(
          "func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {\n"
          "  %r = arith.muli %a, %a overflow<nsw> : tensor<4xi32>\n"
          "  return %r : tensor<4xi32>\n}\n",
          "muli.mlir"),
      withDebug(debug).compileTo(aot::Stage::Llvm));
  REQUIRE(!lossy);
  CHECK(contains(lossy.error().str(), "--bytecode-version=4: the output of "
                                      "stage 'llvm' does not survive"));
}

TEST_CASE("a snapshot of a stage the compile does not run is an error") {
  aot::DebugOptions debug;
  debug.locationSnapshot = aot::Stage::Llvm;
  debug.locationSnapshotTo = scratch("unused.mlir").string();
  aot::Status s = withDebug(debug).compileTo(aot::Stage::Tiled).validate();
  REQUIRE(!s);
  CHECK(contains(s.error().str(), "--location-snapshot=llvm: stage 'llvm' "
                                  "does not run in this compile"));
  debug.locationSnapshotTo.clear();
  aot::Status noFile = withDebug(debug).validate();
  REQUIRE(!noFile);
  CHECK(contains(noFile.error().str(), "DebugOptions::locationSnapshotTo"));
}

TEST_CASE("text and bytecode of one module give the same debug info") {
  aot::Compiler compiler;
  auto input = compiler.compile(aot::Source::memory(kScale, "scale.mlir"),
                                aot::Pipeline().compileTo(aot::Stage::Input));
  REQUIRE(input);
  aot::DebugOptions debug;
  debug.debugInfo = aot::DebugInfo::Full;
  auto fromText = compiler.compile(aot::Source::memory(kScale, "scale.mlir"),
                                   withDebug(debug));
  auto fromBytecode = compiler.compile(
      aot::Source::memory(*input->stageBytecode(aot::Stage::Input),
                          "scale.mlirbc"),
      withDebug(debug));
  REQUIRE(fromText);
  REQUIRE(fromBytecode);
  CHECK(*fromText->stage(aot::Stage::Object) ==
        *fromBytecode->stage(aot::Stage::Object));
  CHECK(contains(*fromBytecode->stage(aot::Stage::LlvmIr),
                 "!DIFile(filename: \"scale.mlir\""));
}
