//===- test_gpu_errors.cpp - a cuda target without a GPU ------------------===//
//
// Code compiled for a cuda target builds, links and loads on any machine;
// where there is no CUDA driver, a call is an aot::Error naming what is
// missing, the process survives, and the next call fails the same way.
// Target specs the NVPTX back end cannot serve are refused before any work.
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "aot/Compiler.h"

#include <dlfcn.h>

#include <string>
#include <vector>

using aot::abi::Tensor;

namespace {

const char *const kModule = R"mlir(
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
)mlir";

std::string compileError(const aot::Target &target) {
  aot::Compiler compiler;
  auto artifact = compiler.compile(aot::Source::memory(kModule, "gpu.mlir"),
                                   aot::Pipeline(), target);
  return artifact ? std::string("compiled") : artifact.error().str();
}

bool hasDriver() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib)
    dlclose(lib);
  return lib != nullptr;
}

} // namespace

TEST_CASE("a call without a CUDA driver is an error naming libcuda") {
  if (hasDriver()) {
    // Where a driver is installed the call reaches the GPU; the gpu-labelled
    // tests check what it computes.
    MESSAGE("skipped: this machine has libcuda.so.1, so a call does not fail");
    return;
  }
  aot::Compiler compiler;
  auto artifact = compiler.compile(aot::Source::memory(kModule, "gpu.mlir"),
                                   aot::Pipeline(), aot::Target::cuda("sm_90"));
  REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
  CHECK(artifact->manifest().target == "cuda:sm_90");
  auto loaded = artifact->load();
  REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().str()));
  std::vector<float> a(32, 1.0f), b(32, 2.0f);
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto r = loaded->call("add", {Tensor::borrow(a.data(), {4, 8}),
                                  Tensor::borrow(b.data(), {4, 8})});
    REQUIRE_FALSE(r);
    std::string message = r.error().str();
    CHECK(message.find("call to 'add' failed on the GPU: no CUDA driver: "
                       "libcuda.so.1 could not be loaded") !=
          std::string::npos);
  }
  // The arguments are the caller's and untouched.
  CHECK(a[0] == 1.0f);
  CHECK(b[31] == 2.0f);
}

TEST_CASE("GPU architectures and PTX versions are checked before any work") {
  CHECK(compileError(aot::Target::cuda("sm_999")).find(
            "unknown GPU architecture 'sm_999'") != std::string::npos);
  CHECK(compileError(aot::Target::cuda("sm_90", "60"))
            .find("PTX 60 cannot target sm_90: it needs PTX 78 or newer") !=
        std::string::npos);
  CHECK(compileError(aot::Target::cuda("sm_90", "12"))
            .find("unknown PTX version '12'") != std::string::npos);
  CHECK(compileError(aot::Target::cuda("sm_80", "", "+nosuchfeature"))
            .find("unknown NVPTX feature '+nosuchfeature'") !=
        std::string::npos);
}
