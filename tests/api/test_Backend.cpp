// The back-end interface seen through the public API: stage tables per
// target kind, target specs parsed by the back end of their kind, a second
// back end (cuda) that declares its stages and refuses to compile, and the
// link table that replaces guessing libraries from undefined symbols.
#include "aot/Compiler.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {
bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

std::vector<std::string> names(const aot::Target &target) {
  std::vector<std::string> out;
  for (const aot::StageInfo &info : aot::stagesOf(target))
    out.emplace_back(info.stage.name());
  return out;
}
} // namespace

TEST_CASE("each target kind has its back end's stage table") {
  CHECK(aot::Target::kinds() == std::vector<std::string>{"cpu", "cuda"});
  aot::Target cuda = aot::Target::cuda("sm_90");
  CHECK(names(cuda) ==
        std::vector<std::string>{"input", "linalg", "bufferized", "gpu-mapped",
                                 "kernels", "nvvm", "ptx", "cubin", "llvm-ir",
                                 "llvm-ir-opt", "asm", "object"});
  // Every back end starts where the front end ends and ends in host code.
  for (const aot::Target &t : {aot::Target::host(), cuda}) {
    CHECK(aot::stagesOf(t).front().stage == aot::Stage::Input);
    CHECK(aot::stagesOf(t).back().stage == aot::Stage::Object);
  }
  auto ptx = aot::parseStage("ptx", cuda);
  REQUIRE(ptx);
  CHECK(aot::stageFileName(*ptx, false, cuda) == "06-ptx.ptx");
  CHECK(aot::stageFileName(aot::Stage::Object, false, cuda) == "11-object.o");
  CHECK(aot::stageDescription(*ptx, cuda) == "the kernels as PTX");
  CHECK(!aot::isMlirStage(*ptx, cuda));
  CHECK(aot::isMlirStage(aot::Stage("nvvm"), cuda));
  // A stage of another back end is not one of the host's.
  CHECK(!aot::parseStage("ptx"));
  CHECK(aot::parseAnyStage("ptx") == ptx);
  CHECK(!aot::parseAnyStage("lowered"));
  CHECK(aot::replaceableStageNames() == "linalg, tiled, bufferized and llvm");
}

TEST_CASE("cuda target specs parse and round-trip through their back end") {
  auto t = aot::Target::parse("cuda:sm_90,ptx=80,features=+ptx80");
  REQUIRE(t);
  CHECK(t->kind == aot::Target::Kind::Cuda);
  CHECK(t->chip == "sm_90");
  CHECK(t->ptx == "80");
  CHECK(t->features == "+ptx80");
  CHECK(t->str() == "cuda:sm_90,ptx=80,features=+ptx80");
  CHECK(!t->isHost());
  CHECK(aot::Target::parse("cuda:sm_80")->str() == "cuda:sm_80");

  auto chip = aot::Target::parse("cuda:90");
  REQUIRE(!chip);
  CHECK(contains(chip.error().str(), "like sm_90"));
  auto option = aot::Target::parse("cuda:sm_90,fast=1");
  REQUIRE(!option);
  CHECK(contains(option.error().str(), "'fast=1'"));
  auto kind = aot::Target::parse("rocm:gfx90a");
  REQUIRE(!kind);
  CHECK(contains(kind.error().str(), "unknown target 'rocm:gfx90a'"));
  CHECK(
      contains(kind.error().str(), "or 'cuda:CHIP[,ptx=NN][,features=LIST]'"));
}

TEST_CASE("the cuda back end compiles kernels and host code") {
  aot::Compiler compiler;
  const char *kAdd = R"(
func.func @add(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
})";
  aot::Target cuda = aot::Target::cuda("sm_90");
  auto artifact = compiler.compile(aot::Source::memory(kAdd, "add.mlir"),
                                   aot::Pipeline(), cuda);
  REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
  const auto &ptx = artifact->stage(*aot::parseAnyStage("ptx"));
  REQUIRE(ptx);
  CHECK(contains(*ptx, ".target sm_90"));
  CHECK(contains(*ptx, ".version 7.8"));
  CHECK(contains(*ptx, ".visible .entry add$"));
  CHECK(artifact->manifest().target == "cuda:sm_90");

  // Stages are checked against the target's table, not the CPU's.
  auto tiled = aot::Pipeline().compileTo(aot::Stage::Tiled).validate(cuda);
  REQUIRE(!tiled);
  CHECK(contains(tiled.error().str(),
                 "--compile-to=tiled: target cuda:sm_90 has no such stage"));
  auto ptxOnHost =
      aot::Pipeline().compileTo(*aot::parseAnyStage("ptx")).validate();
  REQUIRE(!ptxOnHost);
  CHECK(contains(ptxOnHost.error().str(), "its stages are input, linalg"));
  // The front end is the CPU target's.
  CHECK(aot::Pipeline::defaultStagePasses(aot::Stage::Linalg, cuda) ==
        aot::Pipeline::defaultStagePasses(aot::Stage::Linalg,
                                          aot::Target::host()));
}

TEST_CASE("link requirements come from the link table, never a guess") {
  aot::Compiler compiler;
  // erf on f64 is a libm call (f32 vector math is arithmetic).
  const char *kExp = R"(
func.func @e(%a: tensor<8xf64>) -> tensor<8xf64> {
  %0 = math.erf %a : tensor<8xf64>
  return %0 : tensor<8xf64>
})";
  auto libm = compiler.compile(aot::Source::memory(kExp, "e.mlir"));
  REQUIRE(libm);
  CHECK(libm->manifest().link ==
        std::vector<std::string>{"aot_runtime", "m"});

  // LLVM IR that calls a function no library of the table defines: an
  // error naming it (it used to be taken for libm).
  const char *kMystery = R"(
declare void @mystery_function()
define void @f() {
  call void @mystery_function()
  ret void
}
)";
  auto unknown =
      compiler.compile(aot::Source::memory(kMystery, "m.ll"),
                       aot::Pipeline().compileFrom(aot::Stage::LlvmIrOpt));
  REQUIRE(!unknown);
  CHECK(contains(unknown.error().str(), "'mystery_function'"));
  CHECK(contains(unknown.error().str(), "link table"));
}
