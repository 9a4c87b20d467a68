// External weights through the API: what the compile writes, what the
// object keeps, and a load that refuses a file that is not the one the code
// was compiled with, naming the tensor.
#include "aot/Compiler.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
namespace fs = std::filesystem;

/// x (4x64) @ W (64x32, f32, 8 KB) + b (32, f32, 128 B: stays in the code).
std::string model() {
  std::string hex;
  for (int i = 0; i < 64 * 32; ++i) {
    float v = float((i * 37) % 101 - 50) / 64.0f;
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    static const char *digits = "0123456789ABCDEF";
    for (int b = 0; b < 4; ++b) {
      uint8_t byte = uint8_t(bits >> (8 * b));
      hex += digits[byte >> 4];
      hex += digits[byte & 15];
    }
  }
  std::string bias = "dense<[";
  for (int i = 0; i < 32; ++i)
    bias += (i ? ", " : "") + std::to_string(i) + ".0";
  bias += "]>";
  return "func.func @f(%x: tensor<4x64xf32>) -> tensor<4x32xf32> {\n"
         "  %w = arith.constant dense<\"0x" +
         hex +
         "\"> : tensor<64x32xf32>\n"
         "  %b = arith.constant " +
         bias +
         " : tensor<32xf32>\n"
         "  %z = arith.constant 0.0 : f32\n"
         "  %e = tensor.empty() : tensor<4x32xf32>\n"
         "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x32xf32>) -> "
         "tensor<4x32xf32>\n"
         "  %m = linalg.matmul ins(%x, %w : tensor<4x64xf32>, "
         "tensor<64x32xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>\n"
         "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,"
         " affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],"
         " iterator_types = [\"parallel\", \"parallel\"]}"
         " ins(%m, %b : tensor<4x32xf32>, tensor<32xf32>)"
         " outs(%e : tensor<4x32xf32>) {\n"
         "  ^bb0(%a: f32, %c: f32, %o: f32):\n"
         "    %s = arith.addf %a, %c : f32\n"
         "    linalg.yield %s : f32\n"
         "  } -> tensor<4x32xf32>\n"
         "  return %r : tensor<4x32xf32>\n"
         "}\n";
}

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("aot-weights-" + std::to_string(::getpid()));
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void writeFile(const fs::path &p, const std::string &bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

std::vector<float> call(const aot::Artifact &artifact, std::vector<float> &x) {
  auto loaded = artifact.load();
  REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().str()));
  auto r = loaded->call("f", {aot::abi::Tensor::borrow(x.data(), {4, 64})});
  REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
  const float *data = (*r)[0].data<float>();
  return std::vector<float>(data, data + 4 * 32);
}
} // namespace

TEST_CASE("external weights: the file holds them, the object does not") {
  TempDir dir;
  fs::path file = dir.path / "w.safetensors";
  aot::Compiler compiler;
  auto source = aot::Source::memory(model(), "w.mlir");
  auto embedded = compiler.compile(source);
  REQUIRE_MESSAGE(embedded, (embedded ? "" : embedded.error().str()));
  auto external =
      compiler.compile(source, aot::Pipeline().externalWeights(file.string()));
  REQUIRE_MESSAGE(external, (external ? "" : external.error().str()));

  CHECK(embedded->manifest().weights.empty());
  const aot::ExternalWeights &weights = external->manifest().weights;
  REQUIRE(weights.tensors.size() == 1); // the 128-byte bias stays in the code
  CHECK(weights.file == file.string());
  CHECK(weights.load.rfind("_aot_load_weights_", 0) == 0);
  CHECK(weights.load.size() == 18 + 16);
  CHECK(weights.tensors[0].name == "w.mlir:2:8");
  CHECK(weights.tensors[0].dtype == aot::abi::DType::F32);
  CHECK(weights.tensors[0].shape == std::vector<int64_t>{64, 32});
  CHECK(weights.tensors[0].bytes == 64 * 32 * 4);
  CHECK(weights.tensors[0].xxh3.size() == 16);
  CHECK(external->manifest().link ==
        std::vector<std::string>{"aot_runtime", "stdc++"});
  // The manifest says the same after a round trip through JSON.
  auto back = aot::Manifest::fromJson(external->manifest().toJson());
  REQUIRE(back);
  CHECK(back->weights == weights);

  // The safetensors layout: length, JSON header, 64-byte aligned data.
  std::string bytes = readFile(file);
  REQUIRE(bytes.size() >= 8);
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i)
    headerSize = headerSize << 8 | uint8_t(bytes[i]);
  CHECK((8 + headerSize) % 64 == 0);
  CHECK(bytes.size() == 8 + headerSize + 64 * 32 * 4);
  std::string header = bytes.substr(8, headerSize);
  CHECK(header.find("\"w.mlir:2:8\":{\"data_offsets\":[0,8192],"
                    "\"dtype\":\"F32\",\"shape\":[64,32]}") !=
        std::string::npos);

  const std::optional<std::string> &withWeights =
      embedded->stage(aot::Stage::Object);
  const std::optional<std::string> &without =
      external->stage(aot::Stage::Object);
  REQUIRE(withWeights);
  REQUIRE(without);
  // The table and its strings take some room; the 8 KB are gone.
  CHECK(without->size() < 64 * 32 * 4);
  CHECK(withWeights->size() > without->size() + 4096);

  // The same code either way: the same results, bit for bit.
  std::vector<float> x(4 * 64);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(int(i % 13) - 6) / 8.0f;
  CHECK(call(*embedded, x) == call(*external, x));
}

TEST_CASE("a weights file that is not the compiled one is refused by name") {
  TempDir dir;
  fs::path file = dir.path / "w.safetensors";
  aot::Compiler compiler;
  auto artifact =
      compiler.compile(aot::Source::memory(model(), "w.mlir"),
                       aot::Pipeline().externalWeights(file.string()));
  REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
  std::string good = readFile(file);
  auto loadError = [&](const std::string &contents) {
    writeFile(file, contents);
    auto loaded = artifact->load();
    REQUIRE(!loaded);
    return loaded.error().str();
  };

  std::string changed = good;
  changed[changed.size() - 3] ^= 1;
  std::string error = loadError(changed);
  CHECK(error.find("tensor 'w.mlir:2:8' is not the one the code was "
                   "compiled with") != std::string::npos);

  error = loadError(good.substr(0, good.size() - 100));
  CHECK(error.find("is truncated: tensor 'w.mlir:2:8' needs bytes [0, 8192)") !=
        std::string::npos);

  std::string renamed = good;
  renamed.replace(renamed.find("w.mlir:2:8"), 10, "w.mlir:9:9");
  error = loadError(renamed);
  CHECK(error.find("has no tensor 'w.mlir:2:8'") != std::string::npos);

  std::string retyped = good;
  retyped.replace(retyped.find("\"F32\""), 5, "\"I32\"");
  error = loadError(retyped);
  CHECK(error.find("tensor 'w.mlir:2:8' has dtype I32, the code needs F32") !=
        std::string::npos);

  error = loadError(good.substr(0, 4));
  CHECK(error.find("is not a safetensors file") != std::string::npos);

  fs::remove(file);
  auto missing = artifact->load();
  REQUIRE(!missing);
  CHECK(missing.error().str().find("cannot open it") != std::string::npos);
  CHECK(missing.error().str().find(file.string()) != std::string::npos);

  writeFile(file, good);
  CHECK(artifact->load());
}

TEST_CASE("external weights that cannot be written are an error naming the "
          "file") {
  aot::Compiler compiler;
  auto artifact = compiler.compile(
      aot::Source::memory(model(), "w.mlir"),
      aot::Pipeline().externalWeights("/nonexistent-dir/w.safetensors"));
  REQUIRE(!artifact);
  CHECK(artifact.error().str().find("/nonexistent-dir/w.safetensors") !=
        std::string::npos);
  CHECK(artifact.error().str().find("cannot write weights") !=
        std::string::npos);
}

TEST_CASE("object file: written as it is made, the same bytes as in memory") {
  TempDir dir;
  fs::path object = dir.path / "w.o";
  aot::Compiler compiler;
  auto source = aot::Source::memory(model(), "w.mlir");
  auto inMemory = compiler.compile(source);
  REQUIRE_MESSAGE(inMemory, (inMemory ? "" : inMemory.error().str()));
  REQUIRE(inMemory->stage(aot::Stage::Object));

  auto streamed = compiler.compile(
      source, aot::Pipeline().objectFile(object.string()).keepOnly({}, {}));
  REQUIRE_MESSAGE(streamed, (streamed ? "" : streamed.error().str()));
  CHECK(streamed->ran(aot::Stage::Object));
  CHECK_FALSE(streamed->stage(aot::Stage::Object));
  CHECK(readFile(object) == *inMemory->stage(aot::Stage::Object));
  CHECK(streamed->manifest().link == inMemory->manifest().link);
  // The 8 KB weight is in the file as the model spells it: -50/64 first.
  std::string bytes = readFile(object);
  float first = -50.0f / 64.0f;
  CHECK(bytes.find(std::string(reinterpret_cast<const char *>(&first), 4)) !=
        std::string::npos);

  // Kept as well when keepOnly asks for it.
  auto both = compiler.compile(source, aot::Pipeline()
                                           .objectFile(object.string())
                                           .keepOnly({aot::Stage::Object}, {}));
  REQUIRE_MESSAGE(both, (both ? "" : both.error().str()));
  REQUIRE(both->stage(aot::Stage::Object));
  CHECK(*both->stage(aot::Stage::Object) == readFile(object));

  // A compile that stops before the object cannot write it.
  auto early = aot::Pipeline()
                   .objectFile(object.string())
                   .compileTo(aot::Stage::Llvm)
                   .validate();
  REQUIRE_FALSE(early);
  CHECK(early.error().str().find("written by stage 'object'") !=
        std::string::npos);
  // A directory that does not exist: an error naming the file, no crash.
  auto missing = compiler.compile(
      source, aot::Pipeline().objectFile((dir.path / "no" / "w.o").string()));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().str().find("w.o") != std::string::npos);
}
