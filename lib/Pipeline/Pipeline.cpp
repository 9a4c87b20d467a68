//===- Pipeline.cpp - stage names and the default pass lists --------------===//
//
// The default pass lists live here as text so that `--list-stages` can show
// them and a user can start from them when replacing a stage. Every name in
// them is registered by registerPipelinePasses (lib/Pipeline/Stages.cpp),
// and a test parses each list, so a typo cannot ship.
//
//===----------------------------------------------------------------------===//
#include "aot/Pipeline.h"

#include "Debug/DebugSession.h"
#include "Debug/SourceView.h"

namespace aot {

namespace {
struct StageInfo {
  Stage stage;
  std::string_view name;
  std::string_view extension;
  std::string_view description;
};

constexpr StageInfo kStageInfo[] = {
    {Stage::Input, "input", ".mlir",
     "parsed, verified, checked against the input contract"},
    {Stage::Linalg, "linalg", ".mlir",
     "TOSA and tensor ops lowered to linalg; elementwise ops fused"},
    {Stage::Tiled, "tiled", ".mlir",
     "linalg ops tiled for the cache and vectorized"},
    {Stage::Bufferized, "bufferized", ".mlir",
     "tensors turned into buffers; deallocations inserted"},
    {Stage::Llvm, "llvm", ".mlir",
     "lowered to the LLVM dialect with C interface wrappers"},
    {Stage::LlvmIr, "llvm-ir", ".ll", "translated to LLVM IR"},
    {Stage::LlvmIrOpt, "llvm-ir-opt", ".ll",
     "LLVM IR after the -O optimisation pipeline"},
    {Stage::Asm, "asm", ".s", "target assembly"},
    {Stage::Object, "object", ".o", "relocatable object code"},
};

const StageInfo &info(Stage s) { return kStageInfo[static_cast<int>(s)]; }
} // namespace

std::string_view stageName(Stage stage) { return info(stage).name; }

std::optional<Stage> parseStage(std::string_view name) {
  for (const StageInfo &i : kStageInfo)
    if (i.name == name)
      return i.stage;
  return std::nullopt;
}

std::string stageFileName(Stage stage, bool bytecode) {
  int index = static_cast<int>(stage);
  std::string name = index < 10 ? "0" : "";
  name += std::to_string(index) + "-" + std::string(info(stage).name);
  if (bytecode && isMlirStage(stage))
    return name + ".mlirbc";
  return name + std::string(info(stage).extension);
}

std::string_view stageDescription(Stage stage) {
  return info(stage).description;
}

bool isMlirStage(Stage stage) { return stage <= Stage::Llvm; }

Pipeline &Pipeline::compileFrom(Stage stage) {
  first_ = stage;
  return *this;
}
Pipeline &Pipeline::compileTo(Stage stage) {
  last_ = stage;
  return *this;
}
Pipeline &Pipeline::setStagePasses(Stage stage, std::string passes) {
  replaced_[stage] = std::move(passes);
  return *this;
}
Pipeline &Pipeline::appendPasses(Stage stage, std::string passes) {
  std::string &list = appended_[stage];
  list += (list.empty() ? "" : ",") + passes;
  return *this;
}
Pipeline &Pipeline::optLevel(int level) {
  optLevel_ = level;
  return *this;
}

Pipeline &Pipeline::debug(DebugOptions options) {
  debug_ = std::move(options);
  return *this;
}

std::string Pipeline::stagePasses(Stage stage) const {
  auto it = replaced_.find(stage);
  return it != replaced_.end() ? it->second : defaultStagePasses(stage);
}

std::string Pipeline::appendedPasses(Stage stage) const {
  auto it = appended_.find(stage);
  return it != appended_.end() ? it->second : std::string();
}

std::string Pipeline::defaultStagePasses(Stage stage) {
  switch (stage) {
  case Stage::Input:
    return "";
  case Stage::Linalg:
    return "lift-cf-to-scf,"
           "func.func(tosa-optional-decompositions,tosa-to-linalg-named,"
           "tosa-to-linalg,tosa-to-arith,tosa-to-tensor,"
           "convert-elementwise-to-linalg),canonicalize,"
           "linalg-fuse-elementwise-ops,canonicalize,cse";
  case Stage::Tiled:
    return "func.func(aot-tile-and-vectorize),canonicalize,cse";
  case Stage::Bufferized:
    return "aot-protect-arguments,"
           "one-shot-bufferize{bufferize-function-boundaries "
           "function-boundary-type-conversion=identity-layout-map "
           "allow-return-allocs-from-loops},"
           "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
           "canonicalize";
  case Stage::Llvm:
    // Math ops without an LLVM intrinsic become libm calls, unrolled per
    // vector lane, so that lowering runs before the vector dialect goes.
    return "aot-export-c-interface,convert-linalg-to-loops,"
           "convert-vector-to-scf,lower-affine,convert-scf-to-cf,"
           "expand-strided-metadata,lower-affine,"
           "arith-emulate-unsupported-floats{source-types=bf16 "
           "target-type=f32},arith-expand{include-bf16=true},"
           "convert-math-to-llvm,convert-math-to-libm,"
           "convert-vector-to-llvm,finalize-memref-to-llvm,"
           "convert-arith-to-llvm,"
           "convert-cf-to-llvm,convert-func-to-llvm,convert-ub-to-llvm,"
           "reconcile-unrealized-casts";
  default:
    return "";
  }
}

Status Pipeline::validate() const {
  if (first_ > last_)
    return Error::message(
        "--compile-from=" + std::string(stageName(first_)) +
        " comes after --compile-to=" + std::string(stageName(last_)));
  if (optLevel_ < 0 || optLevel_ > 3)
    return Error::message("optimisation level " + std::to_string(optLevel_) +
                          " is not in 0..3");
  for (const auto *map : {&replaced_, &appended_})
    for (const auto &[stage, passes] : *map)
      if (!isMlirStage(stage) || stage == Stage::Input)
        return Error::message("stage '" + std::string(stageName(stage)) +
                              "' has no MLIR passes to replace; only "
                              "linalg, tiled, bufferized and llvm do");
  if (Status s = validateSourceViewOptions(debug_, first_, last_); !s)
    return s;
  return validateDebugOptions(debug_);
}

} // namespace aot
