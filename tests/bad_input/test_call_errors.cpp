//===- test_call_errors.cpp - bad calls, bad sources and bad .npz files ---===//
//
// Through the public API only: every misuse comes back as an aot::Error
// (compile, load, call) or throws aot::abi::Error (.npz), with a message that
// says which function, argument, dim, file or member is wrong. Nothing
// aborts, and a rejected call leaves the module usable.
//
//===----------------------------------------------------------------------===//
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "aot/Compiler.h"
#include "aot/abi/Npz.h"

#include <zip.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using aot::abi::DType;
using aot::abi::Tensor;

namespace {

/// The module every call test uses: static, partly dynamic, fully dynamic
/// and scalar arguments.
const char *const kModule = R"mlir(
func.func @add(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

func.func @rowsum(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x4xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}

func.func @transpose(%x: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xi32>
  %n = tensor.dim %x, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%n, %m) : tensor<?x?xi32>
  %r = linalg.transpose ins(%x : tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) permutation = [1, 0]
  return %r : tensor<?x?xi32>
}

func.func @axpy(%a: f32, %x: tensor<16xf32>, %k: i64) -> tensor<16xf32> {
  %kf = arith.sitofp %k : i64 to f32
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    %s = arith.addf %m, %kf : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
)mlir";

std::string errorText(const aot::Error &e) { return e.str(); }

/// The module above, compiled and loaded once for all call tests.
aot::LoadedModule &calls() {
  static aot::LoadedModule *module = [] {
    aot::Compiler compiler;
    auto artifact =
        compiler.compile(aot::Source::memory(kModule, "calls.mlir"));
    if (!artifact)
      FAIL("the test module does not compile: " << artifact.error().str());
    auto loaded = artifact->load();
    if (!loaded)
      FAIL("the test module does not load: " << loaded.error().str());
    return new aot::LoadedModule(std::move(*loaded));
  }();
  return *module;
}

/// The error message of a call that must fail.
std::string callError(std::string_view function,
                      const std::vector<aot::CallArg> &args) {
  auto result = calls().call(function, args);
  if (result) {
    FAIL_CHECK("call to '" << function << "' succeeded; it should fail");
    return "";
  }
  return errorText(result.error());
}

/// The error message of a compile that must fail.
std::string compileError(const aot::Source &source,
                         const aot::Pipeline &pipeline = aot::Pipeline(),
                         const aot::Target &target = aot::Target::host()) {
  aot::Compiler compiler;
  auto artifact = compiler.compile(source, pipeline, target);
  if (artifact) {
    FAIL_CHECK("compiling '" << source.name() << "' succeeded; it should fail");
    return "";
  }
  return errorText(artifact.error());
}

/// A fresh directory under the system temporary directory, removed (with
/// its contents) when the object goes.
class TempDir {
public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("aot-bad-input-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter++));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(const std::string &name) const {
    return (path_ / name).string();
  }

private:
  fs::path path_;
};

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

/// The bytes of a .npy file with the given header dictionary and data, laid
/// out as numpy lays them out (version 1.0, header padded to 64 bytes).
std::string npyBytes(const std::string &dict, const std::string &data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  return out + header + data;
}

/// Writes a stored zip archive whose members have exactly these names and
/// bytes: .npz files that writeNpz would never write.
void writeRawZip(const std::string &path,
                 const std::map<std::string, std::string> &members) {
  int code = 0;
  zip_t *z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  REQUIRE(z != nullptr);
  for (const auto &[name, bytes] : members) {
    zip_source_t *src = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
    REQUIRE(src != nullptr);
    REQUIRE(zip_file_add(z, name.c_str(), src, ZIP_FL_ENC_UTF_8) >= 0);
  }
  REQUIRE(zip_close(z) == 0);
}

std::vector<float> iota(std::size_t n, float start = 0.0f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = start + float(i);
  return v;
}

} // namespace

TEST_SUITE("calls") {

  TEST_CASE("a correct call succeeds (the baseline of the cases below)") {
    std::vector<float> a = iota(32), b = iota(32, 100.0f);
    auto r = calls().call("add", {Tensor::borrow(a.data(), {4, 8}),
                                  Tensor::borrow(b.data(), {4, 8})});
    REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
    REQUIRE(r->size() == 1);
    CHECK((*r)[0].shape() == std::vector<std::int64_t>{4, 8});
    CHECK((*r)[0].data<float>()[9] == doctest::Approx(9.0f + 109.0f));
  }

  TEST_CASE("an unknown function is named") {
    CHECK(callError("sub", {}) == "error: no function 'sub' in module 'calls'");
    // Only public functions are callable; the C symbol is not a function name.
    CHECK(callError("_mlir_ciface_add", {})
              .find("no function '_mlir_ciface_add'") != std::string::npos);
  }

  TEST_CASE("the argument count must match") {
    std::vector<float> a = iota(32);
    CHECK(callError("add", {Tensor::borrow(a.data(), {4, 8})}) ==
          "error: call to 'add': 1 arguments given, the function takes 2");
    CHECK(callError("add", {}) ==
          "error: call to 'add': 0 arguments given, the function takes 2");
    CHECK(callError("add", {Tensor::borrow(a.data(), {4, 8}),
                            Tensor::borrow(a.data(), {4, 8}),
                            Tensor::borrow(a.data(), {4, 8})}) ==
          "error: call to 'add': 3 arguments given, the function takes 2");
  }

  TEST_CASE("a tensor's dtype must match") {
    std::vector<float> a = iota(32);
    std::vector<std::int32_t> i(32);
    std::vector<double> d(32);
    CHECK(callError("add", {Tensor::borrow(a.data(), {4, 8}),
                            Tensor::borrow(i.data(), {4, 8})}) ==
          "error: call to 'add': argument 1 has dtype i32, but the function "
          "takes tensor<4x8xf32>");
    CHECK(callError("add", {Tensor::borrow(d.data(), {4, 8}),
                            Tensor::borrow(a.data(), {4, 8})}) ==
          "error: call to 'add': argument 0 has dtype f64, but the function "
          "takes tensor<4x8xf32>");
    std::vector<float> f(6);
    CHECK(callError("transpose", {Tensor::borrow(f.data(), {2, 3})}) ==
          "error: call to 'transpose': argument 0 has dtype f32, but the "
          "function takes tensor<?x?xi32>");
  }

  TEST_CASE("a tensor's rank must match") {
    std::vector<float> a = iota(32);
    CHECK(callError("add", {Tensor::borrow(a.data(), {32}),
                            Tensor::borrow(a.data(), {4, 8})}) ==
          "error: call to 'add': argument 0 has rank 1 (shape [32]), but the "
          "function takes tensor<4x8xf32>");
    CHECK(callError("add", {Tensor::borrow(a.data(), {4, 8}),
                            Tensor::borrow(a.data(), {2, 2, 8})}) ==
          "error: call to 'add': argument 1 has rank 3 (shape [2, 2, 8]), but "
          "the function takes tensor<4x8xf32>");
    // Dynamic dims do not relax the rank.
    CHECK(
        callError("rowsum", {Tensor::borrow(a.data(), {32})}) ==
        "error: call to 'rowsum': argument 0 has rank 1 (shape [32]), but the "
        "function takes tensor<?x4xf32>");
    std::vector<std::int32_t> i(8);
    CHECK(
        callError("transpose", {Tensor::borrow(i.data(), {2, 2, 2})}) ==
        "error: call to 'transpose': argument 0 has rank 3 (shape [2, 2, 2]), "
        "but the function takes tensor<?x?xi32>");
    float scalar = 1.0f;
    CHECK(callError("rowsum", {Tensor::borrow(&scalar, {})}) ==
          "error: call to 'rowsum': argument 0 has rank 0 (shape []), but the "
          "function takes tensor<?x4xf32>");
  }

  TEST_CASE("a static dim must match; the message names the dim") {
    std::vector<float> a = iota(64);
    CHECK(callError("add", {Tensor::borrow(a.data(), {4, 7}),
                            Tensor::borrow(a.data(), {4, 8})}) ==
          "error: call to 'add': argument 0 has shape [4, 7], but the function "
          "takes tensor<4x8xf32> (dim 1 must be 8)");
    CHECK(callError("add", {Tensor::borrow(a.data(), {4, 8}),
                            Tensor::borrow(a.data(), {8, 4})}) ==
          "error: call to 'add': argument 1 has shape [8, 4], but the function "
          "takes tensor<4x8xf32> (dim 0 must be 4)");
  }

  TEST_CASE("the static dims of a dynamic shape must match") {
    std::vector<float> a = iota(64);
    CHECK(callError("rowsum", {Tensor::borrow(a.data(), {3, 5})}) ==
          "error: call to 'rowsum': argument 0 has shape [3, 5], but the "
          "function takes tensor<?x4xf32> (dim 1 must be 4)");
    CHECK(callError("rowsum", {Tensor::borrow(a.data(), {16, 1})}) ==
          "error: call to 'rowsum': argument 0 has shape [16, 1], but the "
          "function takes tensor<?x4xf32> (dim 1 must be 4)");

    // Any size of the dynamic dim is fine, zero included.
    for (std::int64_t rows : {0, 1, 3, 16}) {
      CAPTURE(rows);
      auto r = calls().call("rowsum", {Tensor::borrow(a.data(), {rows, 4})});
      REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
      CHECK((*r)[0].shape() == std::vector<std::int64_t>{rows});
      if (rows > 1)
        CHECK((*r)[0].data<float>()[1] == doctest::Approx(4 + 5 + 6 + 7));
    }
    std::vector<std::int32_t> i = {1, 2, 3, 4, 5, 6};
    auto t = calls().call("transpose", {Tensor::borrow(i.data(), {2, 3})});
    REQUIRE_MESSAGE(t, (t ? "" : t.error().str()));
    CHECK((*t)[0].shape() == std::vector<std::int64_t>{3, 2});
  }

  TEST_CASE("a negative size or missing data is refused before the call") {
    std::vector<float> a = iota(16);
    CHECK(callError("rowsum",
                    {Tensor::view(DType::F32, a.data(), {-3, 4}, {4, 1})}) ==
          "error: call to 'rowsum': argument 0 has a negative size in dim 0");
    CHECK(callError("add", {Tensor::view(DType::F32, nullptr, {4, 8}, {8, 1}),
                            Tensor::borrow(a.data(), {4, 8})}) ==
          "error: call to 'add': argument 0 has no data");
  }

  TEST_CASE("scalars and tensors are not interchangeable") {
    std::vector<float> x = iota(16);
    Tensor tx = Tensor::borrow(x.data(), {16});
    // A tensor where a scalar is expected.
    CHECK(
        callError("axpy", {tx, tx, std::int64_t(1)}) ==
        "error: call to 'axpy': argument 0 must be a f32 scalar, got a tensor");
    // A rank-0 tensor is still a tensor.
    float two = 2.0f;
    CHECK(
        callError("axpy", {Tensor::borrow(&two, {}), tx, std::int64_t(1)}) ==
        "error: call to 'axpy': argument 0 must be a f32 scalar, got a tensor");
    // A scalar where a tensor is expected.
    CHECK(
        callError("axpy", {2.0f, 3.0f, std::int64_t(1)}) ==
        "error: call to 'axpy': argument 1 must be a tensor (tensor<16xf32>), "
        "got a scalar");
    CHECK(
        callError("add", {1.0f, 2.0f}) ==
        "error: call to 'add': argument 0 must be a tensor (tensor<4x8xf32>), "
        "got a scalar");
  }

  TEST_CASE("a scalar's dtype must match exactly") {
    std::vector<float> x = iota(16);
    Tensor tx = Tensor::borrow(x.data(), {16});
    CHECK(callError("axpy", {2.0, tx, std::int64_t(1)}) ==
          "error: call to 'axpy': argument 0 must be a f32 scalar, got f64 "
          "scalar");
    CHECK(callError("axpy", {std::int32_t(2), tx, std::int64_t(1)}) ==
          "error: call to 'axpy': argument 0 must be a f32 scalar, got i32 "
          "scalar");
    CHECK(callError("axpy", {2.0f, tx, std::int32_t(1)}) ==
          "error: call to 'axpy': argument 2 must be a i64 scalar, got i32 "
          "scalar");
    CHECK(callError("axpy", {2.0f, tx, true}) ==
          "error: call to 'axpy': argument 2 must be a i64 scalar, got i1 "
          "scalar");

    auto r = calls().call("axpy", {2.0f, tx, std::int64_t(3)});
    REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
    CHECK((*r)[0].data<float>()[5] == doctest::Approx(2.0f * 5 + 3));
  }

  TEST_CASE("the first bad argument is the one reported") {
    std::vector<float> a = iota(32);
    std::vector<std::int32_t> i(32);
    CHECK(callError("add", {Tensor::borrow(a.data(), {4, 7}),
                            Tensor::borrow(i.data(), {4, 8})}) ==
          "error: call to 'add': argument 0 has shape [4, 7], but the function "
          "takes tensor<4x8xf32> (dim 1 must be 8)");
  }

  TEST_CASE("a rejected call leaves the module usable") {
    std::vector<float> a = iota(32);
    for (int k = 0; k < 3; ++k)
      CHECK_FALSE(calls().call("add", {Tensor::borrow(a.data(), {4, 7}),
                                       Tensor::borrow(a.data(), {4, 8})}));
    auto r = calls().call("add", {Tensor::borrow(a.data(), {4, 8}),
                                  Tensor::borrow(a.data(), {4, 8})});
    REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
    CHECK((*r)[0].data<float>()[31] == doctest::Approx(62.0f));
  }

} // TEST_SUITE("calls")

TEST_SUITE("loading") {

  TEST_CASE("an artifact without object code cannot be loaded") {
    aot::Compiler compiler;
    auto artifact =
        compiler.compile(aot::Source::memory(kModule, "calls.mlir"),
                         aot::Pipeline().compileTo(aot::Stage::Llvm));
    REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
    auto loaded = artifact->load();
    REQUIRE_FALSE(loaded);
    CHECK(loaded.error().str() ==
          "error: cannot load: the compile stopped at stage 'llvm', before "
          "object code");
  }

  TEST_CASE("code for another architecture cannot be loaded") {
#if defined(__x86_64__)
    const char *other = "aarch64-unknown-linux-gnu";
#else
    const char *other = "x86_64-unknown-linux-gnu";
#endif
    aot::Compiler compiler;
    auto artifact =
        compiler.compile(aot::Source::memory(kModule, "calls.mlir"),
                         aot::Pipeline(), aot::Target::cpuTarget(other));
    REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
    auto loaded = artifact->load();
    REQUIRE_FALSE(loaded);
    std::string message = loaded.error().str();
    CHECK(
        message.find("cannot load code compiled for cpu:" + std::string(other) +
                     " into this ") != std::string::npos);
  }

} // TEST_SUITE("loading")

TEST_SUITE("compile errors") {

  TEST_CASE(
      "malformed text: the diagnostic has the source name, line and column") {
    aot::Compiler compiler;
    auto artifact = compiler.compile(aot::Source::memory(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = arith.addf %a, %a : tensor<4xf32\n"
        "  return %0 : tensor<4xf32>\n"
        "}\n",
        "bad.mlir"));
    REQUIRE_FALSE(artifact);
    const aot::Diagnostic &d = artifact.error().diagnostics().front();
    CHECK(d.severity == aot::Severity::Error);
    CHECK(d.file == "bad.mlir");
    CHECK(d.line == 2);
    CHECK(d.column == 40);
    CHECK(d.message == "expected '>' in tensor type");
    CHECK(d.str() == "bad.mlir:2:40: error: expected '>' in tensor type");
  }

  TEST_CASE("an op outside the contract: named, with its location") {
    std::string e = compileError(aot::Source::memory(
        "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %m = memref.alloc() : memref<4xf32>\n"
        "  return %a : tensor<4xf32>\n"
        "}\n",
        "alloc.mlir"));
    CHECK(e.rfind("alloc.mlir:2:8: error: op 'memref.alloc' is outside the "
                  "input contract",
                  0) == 0);
  }

  TEST_CASE("a type outside the contract is named") {
    std::string e = compileError(aot::Source::memory(
        "func.func @f(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {\n"
        "  return %a : tensor<4xcomplex<f32>>\n"
        "}\n",
        "complex.mlir"));
    CHECK(e.find("complex.mlir:1:1: error: type 'tensor<4xcomplex<f32>>'") ==
          0);
  }

  TEST_CASE("a missing file is named") {
    std::string e =
        compileError(aot::Source::file("/nonexistent-dir/model.mlir"));
    CHECK(e == "/nonexistent-dir/model.mlir: error: cannot open input file "
               "'/nonexistent-dir/model.mlir': No such file or directory");
  }

  TEST_CASE("an empty source has no public function") {
    for (const char *text : {"", "module {}", "// only a comment\n"}) {
      CAPTURE(text);
      std::string e = compileError(aot::Source::memory(text, "empty.mlir"));
      CHECK(e.find("error: the module has no public function to compile") !=
            std::string::npos);
      CHECK(e.rfind("empty.mlir", 0) == 0);
    }
  }

  TEST_CASE("truncated bytecode in memory is an error, at every length") {
    aot::Compiler compiler;
    auto artifact =
        compiler.compile(aot::Source::memory(kModule, "calls.mlir"),
                         aot::Pipeline().compileTo(aot::Stage::Input));
    REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
    const std::string &bytecode = *artifact->stageBytecode(aot::Stage::Input);
    REQUIRE(bytecode.substr(0, 4) == "ML\xef\x52");
    for (std::size_t n = 1; n < bytecode.size(); n += 7) {
      CAPTURE(n);
      auto cut = compiler.compile(
          aot::Source::memory(bytecode.substr(0, n), "cut.mlirbc"));
      REQUIRE_FALSE(cut);
      CHECK(cut.error().diagnostics().front().severity == aot::Severity::Error);
      CHECK(cut.error().str().find("cut.mlirbc") == 0);
    }
  }

  TEST_CASE("pipeline and target errors say what is wrong") {
    auto source = aot::Source::memory(kModule, "calls.mlir");
    CHECK(compileError(source, aot::Pipeline()
                                   .compileFrom(aot::Stage::Asm)
                                   .compileTo(aot::Stage::Linalg)) ==
          "error: --compile-from=asm comes after --compile-to=linalg");
    CHECK(compileError(source, aot::Pipeline().optLevel(7)) ==
          "error: optimisation level 7 is not in 0..3");
    CHECK(compileError(source, aot::Pipeline().setStagePasses(aot::Stage::Input,
                                                              "cse")) ==
          "error: stage 'input' has no MLIR passes to replace; only linalg, "
          "tiled, bufferized and llvm do");
    CHECK(compileError(source, aot::Pipeline().setStagePasses(aot::Stage::Tiled,
                                                              "no-such-pass"))
              .find("error: cannot parse the pass list of stage 'tiled' "
                    "(\"no-such-pass\")") == 0);
    CHECK(
        compileError(source, aot::Pipeline().appendPasses(aot::Stage::Llvm,
                                                          "no-such-pass"))
            .find("error: cannot parse the appended passes of stage 'llvm'") ==
        0);
    CHECK(compileError(
              source, aot::Pipeline(),
              aot::Target::cpuTarget("x86_64-unknown-linux-gnu", "pentium9")) ==
          "error: unknown CPU 'pentium9' for target x86_64-unknown-linux-gnu");

    auto target = aot::Target::parse("tpu:v5");
    REQUIRE_FALSE(target);
    CHECK(target.error().str() ==
          "error: unknown target 'tpu:v5': expected 'host', "
          "'cpu:TRIPLE[,cpu=NAME][,features=LIST]' or "
          "'cuda:CHIP[,ptx=NN][,features=LIST]'");
  }

} // TEST_SUITE("compile errors")

TEST_SUITE("npz") {

  TEST_CASE("a missing .npz is named") {
    TempDir dir;
    std::string path = dir.file("missing.npz");
    try {
      aot::abi::readNpz(path);
      FAIL("reading a missing file succeeded");
    } catch (const aot::abi::Error &e) {
      std::string message = e.what();
      CHECK(message.rfind(path + ": cannot open for reading: No such file",
                          0) == 0);
    }
  }

  TEST_CASE("a truncated .npz is an error naming the file, at every length") {
    TempDir dir;
    std::string good = dir.file("good.npz");
    std::vector<float> a = iota(12);
    std::vector<std::int32_t> b = {1, 2, 3};
    aot::abi::writeNpz(good, {{"a", Tensor::borrow(a.data(), {3, 4})},
                              {"b", Tensor::borrow(b.data(), {3})}});
    REQUIRE(aot::abi::readNpz(good).size() == 2);
    std::string bytes = readBytes(good);
    REQUIRE(bytes.size() > 100);

    std::string cut = dir.file("cut.npz");
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      CAPTURE(n);
      writeBytes(cut, bytes.substr(0, n));
      try {
        aot::abi::readNpz(cut);
        FAIL_CHECK("a truncated archive was read");
      } catch (const aot::abi::Error &e) {
        CHECK(std::string(e.what()).rfind(cut + ": ", 0) == 0);
      }
    }
  }

  TEST_CASE("a corrupt member is named with the archive") {
    TempDir dir;
    std::string path = dir.file("bad.npz");
    auto readError = [&](const std::map<std::string, std::string> &members) {
      writeRawZip(path, members);
      try {
        aot::abi::readNpz(path);
      } catch (const aot::abi::Error &e) {
        return std::string(e.what());
      }
      FAIL_CHECK("a corrupt archive was read");
      return std::string();
    };
    std::string floats(16, '\0');

    // Element types the ABI does not have.
    CHECK(readError({{"x.npy", npyBytes("{'descr': '<c8', 'fortran_order': "
                                        "False, 'shape': (2,), }",
                                        floats)}})
              .rfind(path + ": member 'x': unsupported dtype '<c8'", 0) == 0);
    CHECK(readError({{"x.npy", npyBytes("{'descr': '>f4', 'fortran_order': "
                                        "False, 'shape': (4,), }",
                                        floats)}})
              .rfind(path + ": member 'x': unsupported dtype '>f4'", 0) == 0);
    CHECK(readError({{"x.npy", npyBytes("{'descr': '<U3', 'fortran_order': "
                                        "False, 'shape': (1,), }",
                                        std::string(12, 'a'))}})
              .rfind(path + ": member 'x': unsupported dtype '<U3'", 0) == 0);
    // Layout and size.
    CHECK(readError({{"x.npy", npyBytes("{'descr': '<f4', 'fortran_order': "
                                        "True, 'shape': (2, 2), }",
                                        floats)}})
              .rfind(path + ": member 'x': fortran_order=True is not supported",
                     0) == 0);
    CHECK(readError({{"x.npy", npyBytes("{'descr': '<f4', 'fortran_order': "
                                        "False, 'shape': (4, 8), }",
                                        floats)}}) ==
          path + ": member 'x': data is truncated: shape [4, 8] of f32 needs "
                 "128 bytes, the input has 16");
    CHECK(readError({{"x.npy", std::string("\x93NUMPY\x01\x00", 8)}})
              .rfind(path + ": member 'x': truncated header", 0) == 0);
    CHECK(readError({{"x.npy", "not a numpy array at all"}}) ==
          path + ": member 'x': bad magic: not a .npy file");
    // Names.
    CHECK(readError({{"x.txt", floats}}) ==
          path +
              ": member 'x.txt' is not a .npy array (its name lacks '.npy')");
  }

  TEST_CASE("a tensor read from an .npz with the wrong dtype is refused by the "
            "call") {
    TempDir dir;
    std::string path = dir.file("inputs.npz");
    std::vector<std::int32_t> i(32, 1);
    std::vector<float> f = iota(32);
    aot::abi::writeNpz(path, {{"a", Tensor::borrow(i.data(), {4, 8})},
                              {"b", Tensor::borrow(f.data(), {4, 8})},
                              {"wide", Tensor::borrow(f.data(), {2, 16})}});
    auto inputs = aot::abi::readNpz(path);
    CHECK(callError("add", {inputs.at("a"), inputs.at("b")}) ==
          "error: call to 'add': argument 0 has dtype i32, but the function "
          "takes tensor<4x8xf32>");
    CHECK(
        callError("add", {inputs.at("b"), inputs.at("wide")}) ==
        "error: call to 'add': argument 1 has shape [2, 16], but the function "
        "takes tensor<4x8xf32> (dim 0 must be 4)");
    auto r = calls().call("add", {inputs.at("b"), inputs.at("b")});
    REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
    CHECK((*r)[0].data<float>()[3] == doctest::Approx(6.0f));
  }

} // TEST_SUITE("npz")
