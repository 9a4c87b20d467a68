#include "aot/Pipeline.h"

#include <doctest/doctest.h>

TEST_CASE("stage names, numbers and file names are stable") {
  const char *names[] = {"input",       "linalg", "tiled",
                         "bufferized",  "llvm",   "llvm-ir",
                         "llvm-ir-opt", "asm",    "object"};
  std::span<const aot::StageInfo> stages = aot::stagesOf();
  REQUIRE(stages.size() == std::size(names));
  for (size_t i = 0; i < stages.size(); ++i) {
    CHECK(aot::stageName(stages[i].stage) == names[i]);
    CHECK(aot::parseStage(names[i]) == stages[i].stage);
  }
  CHECK(!aot::parseStage("lowered"));
  CHECK(aot::stageFileName(aot::Stage::Input) == "00-input.mlir");
  CHECK(aot::stageFileName(aot::Stage::Bufferized, true) ==
        "03-bufferized.mlirbc");
  CHECK(aot::stageFileName(aot::Stage::LlvmIrOpt) == "06-llvm-ir-opt.ll");
  CHECK(aot::stageFileName(aot::Stage::Asm, true) == "07-asm.s");
  CHECK(aot::stageFileName(aot::Stage::Object) == "08-object.o");
}

TEST_CASE("Pipeline replaces and appends stage passes") {
  aot::Pipeline p;
  CHECK(p.stagePasses(aot::Stage::Tiled) ==
        aot::Pipeline::defaultStagePasses(aot::Stage::Tiled));
  p.setStagePasses(aot::Stage::Tiled, "canonicalize");
  p.appendPasses(aot::Stage::Tiled, "cse");
  p.appendPasses(aot::Stage::Tiled, "canonicalize");
  CHECK(p.stagePasses(aot::Stage::Tiled) == "canonicalize");
  CHECK(p.appendedPasses(aot::Stage::Tiled) == "cse,canonicalize");
  CHECK(p.validate());
}

TEST_CASE("Pipeline::validate rejects impossible requests") {
  auto reversed = aot::Pipeline()
                      .compileFrom(aot::Stage::Llvm)
                      .compileTo(aot::Stage::Linalg)
                      .validate();
  REQUIRE(!reversed);
  CHECK(reversed.error().str().find("comes after") != std::string::npos);
  auto opt = aot::Pipeline().optLevel(4).validate();
  REQUIRE(!opt);
  CHECK(opt.error().str().find("not in 0..3") != std::string::npos);
  auto asmPasses =
      aot::Pipeline().setStagePasses(aot::Stage::Asm, "cse").validate();
  REQUIRE(!asmPasses);
  CHECK(asmPasses.error().str().find("'asm'") != std::string::npos);
}
