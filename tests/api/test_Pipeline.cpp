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
  // External weights are written on the way to LLVM IR: a compile that
  // stops before it, or starts after it, is told so.
  auto early = aot::Pipeline()
                   .externalWeights("w.safetensors")
                   .compileTo(aot::Stage::Llvm)
                   .validate();
  REQUIRE(!early);
  CHECK(early.error().str().find("from 'input' to 'llvm' does not take") !=
        std::string::npos);
  auto late = aot::Pipeline()
                  .externalWeights("w.safetensors")
                  .compileFrom(aot::Stage::LlvmIrOpt)
                  .validate();
  REQUIRE(!late);
  CHECK(late.error().str().find("(stage 'llvm-ir')") != std::string::npos);
  CHECK(aot::Pipeline()
            .externalWeights("w.safetensors")
            .compileFrom(aot::Stage::LlvmIr)
            .compileTo(aot::Stage::LlvmIrOpt)
            .validate());
  auto zero = aot::Pipeline().externalWeights("w.safetensors", 0).validate();
  REQUIRE(!zero);
  CHECK(zero.error().str().find("at least 1 byte") != std::string::npos);
}
