#include "aot/Compiler.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <thread>

namespace {
const char *kAdd = R"(
func.func @add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @ident(%a: tensor<3xi32>) -> tensor<3xi32> { return %a : tensor<3xi32> }
)";

std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
} // namespace

TEST_CASE("compile, load and call in one process") {
  aot::Compiler compiler;
  auto artifact = compiler.compile(aot::Source::memory(kAdd, "add.mlir"));
  REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
  CHECK(artifact->manifest().module == "add");
  REQUIRE(artifact->manifest().functions.size() == 2);
  CHECK(artifact->manifest().functions[0].args[0].shape ==
        std::vector<int64_t>{-1});

  auto loaded = artifact->load();
  REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().str()));
  std::vector<float> a = {1, 2, 3, 4, 5}, b = {10, 20, 30, 40, 50};
  auto r = loaded->call("add", {aot::abi::Tensor::borrow(a.data(), {5}),
                                aot::abi::Tensor::borrow(b.data(), {5})});
  REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
  REQUIRE((*r)[0].shape() == std::vector<int64_t>{5});
  CHECK((*r)[0].ownsMemory());
  for (int i = 0; i < 5; ++i)
    CHECK((*r)[0].data<float>()[i] == a[i] + b[i]);

  // Arguments are checked before the call enters compiled code.
  std::vector<int32_t> ints = {1, 2, 3, 4};
  auto wrongShape =
      loaded->call("ident", {aot::abi::Tensor::borrow(ints.data(), {4})});
  REQUIRE(!wrongShape);
  CHECK(wrongShape.error().str().find("dim 0 must be 3") != std::string::npos);
  auto wrongDtype =
      loaded->call("add", {aot::abi::Tensor::borrow(ints.data(), {4}),
                           aot::abi::Tensor::borrow(b.data(), {5})});
  REQUIRE(!wrongDtype);
  CHECK(wrongDtype.error().str().find("dtype i32") != std::string::npos);
  auto missing = loaded->call("sub", {});
  REQUIRE(!missing);
  CHECK(missing.error().str().find("no function 'sub'") != std::string::npos);
  auto count = loaded->call("add", {1.0f});
  REQUIRE(!count);
  CHECK(count.error().str().find("1 arguments given") != std::string::npos);
}

TEST_CASE("errors carry file:line:col") {
  aot::Compiler compiler;
  auto bad = compiler.compile(
      aot::Source::memory("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                          "  %m = memref.alloc() : memref<4xf32>\n"
                          "  return %a : tensor<4xf32>\n}\n",
                          "bad.mlir"));
  REQUIRE(!bad);
  const aot::Diagnostic &d = bad.error().diagnostics().front();
  CHECK(d.file == "bad.mlir");
  CHECK(d.line == 2);
  CHECK(d.column == 8);
  CHECK(d.message.find("memref.alloc") != std::string::npos);
  CHECK(bad.error().str().rfind("bad.mlir:2:8: error:", 0) == 0);

  auto missing = compiler.compile(aot::Source::file("/nonexistent/x.mlir"));
  REQUIRE(!missing);
  CHECK(missing.error().str().find("/nonexistent/x.mlir") != std::string::npos);
}

TEST_CASE("an artifact writes every emit kind") {
  aot::Compiler compiler;
  auto artifact = compiler.compile(aot::Source::memory(kAdd, "add.mlir"));
  REQUIRE(artifact);
  auto dir = std::filesystem::temp_directory_path() / "aot-api-test-emit";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char *ext :
       {".o", ".a", ".so", ".ll", ".s", ".mlir", ".mlirbc", ".h", ".json"}) {
    auto path = dir / (std::string("add") + ext);
    aot::Status s = artifact->write(path.string());
    CHECK_MESSAGE(s, ext << ": " << (s ? "" : s.error().str()));
  }
  CHECK(readFile(dir / "add.o").substr(0, 4) == "\x7f"
                                                "ELF");
  CHECK(readFile(dir / "add.so").substr(0, 4) == "\x7f"
                                                 "ELF");
  CHECK(readFile(dir / "add.a").substr(0, 8) == "!<arch>\n");
  CHECK(readFile(dir / "add.mlirbc").substr(0, 4) == "ML\xef"
                                                     "R");
  CHECK(readFile(dir / "add.ll").find("define void @_mlir_ciface_add") !=
        std::string::npos);
  CHECK(readFile(dir / "add.mlir").find("llvm.func") != std::string::npos);
  CHECK(readFile(dir / "add.h").find("aot::abi::MemRef<float, 1>") !=
        std::string::npos);
  CHECK(readFile(dir / "add.json").find("\"name\": \"ident\"") !=
        std::string::npos);
  CHECK(!artifact->write((dir / "add.txt").string()));

  REQUIRE(artifact->writeStages((dir / "stages").string()));
  for (const aot::StageInfo &s : aot::stagesOf())
    CHECK(
        std::filesystem::exists(dir / "stages" / aot::stageFileName(s.stage)));
  std::filesystem::remove_all(dir);
}

TEST_CASE("compileTo stops early and says what is missing") {
  aot::Compiler compiler;
  auto artifact =
      compiler.compile(aot::Source::memory(kAdd, "add.mlir"),
                       aot::Pipeline().compileTo(aot::Stage::Bufferized));
  REQUIRE(artifact);
  CHECK(artifact->lastStage() == aot::Stage::Bufferized);
  CHECK(artifact->stage(aot::Stage::Bufferized)->find("memref<?xf32>") !=
        std::string::npos);
  CHECK(!artifact->stage(aot::Stage::Llvm));
  auto load = artifact->load();
  REQUIRE(!load);
  CHECK(load.error().str().find("stopped at stage 'bufferized'") !=
        std::string::npos);
}

TEST_CASE("one Compiler compiles on two threads at once") {
  aot::Compiler compiler;
  std::vector<std::string> errors(2);
  std::vector<size_t> functions(2);
  auto work = [&](int i) {
    auto a = compiler.compile(aot::Source::memory(kAdd, "t.mlir"),
                              aot::Pipeline().optLevel(i == 0 ? 0 : 3));
    if (!a)
      errors[i] = a.error().str();
    else
      functions[i] = a->manifest().functions.size();
  };
  std::thread t0(work, 0), t1(work, 1);
  t0.join();
  t1.join();
  CHECK(errors[0].empty());
  CHECK(errors[1].empty());
  CHECK(functions == std::vector<size_t>{2, 2});
}

TEST_CASE("keepOnly keeps just the outputs asked for, and says what is not") {
  aot::Compiler compiler;
  std::vector<aot::Stage> text, bytecode;
  aot::Pipeline pipeline;
  aot::Artifact::keepFor(aot::EmitKind::Object, pipeline, aot::Target::host(),
                         text, bytecode);
  aot::Artifact::keepFor(aot::EmitKind::Bytecode,
                         aot::Pipeline().compileTo(aot::Stage::Bufferized),
                         aot::Target::host(), text, bytecode);
  CHECK(text == std::vector<aot::Stage>{aot::Stage::Object});
  CHECK(bytecode == std::vector<aot::Stage>{aot::Stage::Bufferized});

  auto artifact =
      compiler.compile(aot::Source::memory(kAdd, "add.mlir"),
                       aot::Pipeline().keepOnly({aot::Stage::Object}, {}));
  REQUIRE(artifact);
  CHECK(artifact->stage(aot::Stage::Object));
  CHECK(artifact->lastStage() == aot::Stage::Object);
  for (aot::Stage s : {aot::Stage::Input, aot::Stage::Llvm, aot::Stage::LlvmIr,
                       aot::Stage::LlvmIrOpt, aot::Stage::Asm}) {
    CHECK(artifact->ran(s));
    CHECK(!artifact->stage(s));
    CHECK(!artifact->stageBytecode(s));
  }
  // The manifest still knows what the object links.
  CHECK(artifact->manifest().functions.size() == 2);
  CHECK(artifact->load());

  auto dir = std::filesystem::temp_directory_path() / "aot_keep_only";
  std::filesystem::create_directories(dir);
  aot::Status mlir = artifact->write((dir / "add.mlir").string());
  REQUIRE(!mlir);
  CHECK(mlir.error().str().find(
            "stage 'llvm' ran, but the compile did not keep its output "
            "(Pipeline::keepOnly)") != std::string::npos);
  aot::Status ll = artifact->write((dir / "add.ll").string());
  REQUIRE(!ll);
  CHECK(ll.error().str().find("stage 'llvm-ir-opt' ran") != std::string::npos);
  CHECK(artifact->write((dir / "add.o").string()));
  CHECK(!std::filesystem::exists(dir / "add.mlir"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("the thread count does not change the output, and is checked") {
  aot::Compiler compiler;
  std::string objects[3];
  for (unsigned threads : {1u, 2u, 4u}) {
    auto artifact = compiler.compile(aot::Source::memory(kAdd, "add.mlir"),
                                     aot::Pipeline().threads(threads));
    REQUIRE(artifact);
    REQUIRE(artifact->stage(aot::Stage::Object));
    objects[threads / 2] = std::string(*artifact->stage(aot::Stage::Object));
  }
  CHECK(!objects[0].empty());
  CHECK(objects[0] == objects[1]);
  CHECK(objects[0] == objects[2]);

  auto tooMany = compiler.compile(aot::Source::memory(kAdd, "add.mlir"),
                                  aot::Pipeline().threads(5000));
  REQUIRE(!tooMany);
  CHECK(tooMany.error().str().find("thread count 5000 is more than 1024") !=
        std::string::npos);
}

TEST_CASE("a written shared library describes itself and loads by itself") {
  auto dir = std::filesystem::temp_directory_path() / "aot-api-open";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  aot::Compiler compiler;
  auto artifact = compiler.compile(aot::Source::memory(kAdd, "add.mlir"));
  REQUIRE_MESSAGE(artifact, (artifact ? "" : artifact.error().str()));
  std::string so = (dir / "add.so").string(), obj = (dir / "add.o").string();
  REQUIRE(artifact->write(so));
  REQUIRE(artifact->write(obj));

  // The object's manifest is the compile's, link list included.
  auto fromObject = aot::embeddedManifests(obj);
  REQUIRE_MESSAGE(fromObject, (fromObject ? "" : fromObject.error().str()));
  REQUIRE(fromObject->size() == 1);
  CHECK(fromObject->front() == artifact->manifest());

  auto loaded = aot::LoadedModule::open(so);
  REQUIRE_MESSAGE(loaded, (loaded ? "" : loaded.error().str()));
  CHECK(loaded->manifest().module == "add");
  CHECK(loaded->manifest().functions == artifact->manifest().functions);
  std::vector<float> a = {1, 2, 3}, b = {4, 5, 6};
  auto r = loaded->call("add", {aot::abi::Tensor::borrow(a.data(), {3}),
                                aot::abi::Tensor::borrow(b.data(), {3})});
  REQUIRE_MESSAGE(r, (r ? "" : r.error().str()));
  for (int i = 0; i < 3; ++i)
    CHECK((*r)[0].data<float>()[i] == a[i] + b[i]);
  auto wrong = loaded->call("ident", {aot::abi::Tensor::borrow(a.data(), {3})});
  REQUIRE(!wrong);
  CHECK(wrong.error().str().find("dtype f32") != std::string::npos);

  // A file mlir-aot did not write: an error naming it, never a load.
  std::string text = (dir / "notes.so").string();
  std::ofstream(text) << "not an object";
  auto notObject = aot::LoadedModule::open(text);
  REQUIRE(!notObject);
  CHECK(notObject.error().str().find("notes.so") != std::string::npos);
  CHECK(notObject.error().str().find("cannot read it as object code") !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}
