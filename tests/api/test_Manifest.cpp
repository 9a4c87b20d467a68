#include "aot/Manifest.h"

#include <doctest/doctest.h>

TEST_CASE("Manifest JSON round-trips and spells the documented fields") {
  aot::Manifest m;
  m.module = "model";
  m.target = "host";
  m.link = {"aot_runtime", "m"};
  aot::FunctionSig f;
  f.name = "f";
  f.symbol = "_mlir_ciface_f";
  f.args = {{aot::ValueSig::Kind::Tensor, aot::abi::DType::BF16, {-1, 4}},
            {aot::ValueSig::Kind::Scalar, aot::abi::DType::I32, {}}};
  f.results = {{aot::ValueSig::Kind::Tensor, aot::abi::DType::F64, {}}};
  m.functions = {f};

  std::string json = m.toJson();
  CHECK(json.find("\"kind\": \"scalar\"") != std::string::npos);
  CHECK(json.find("\"dtype\": \"bf16\"") != std::string::npos);
  CHECK(json.find("\"symbol\": \"_mlir_ciface_f\"") != std::string::npos);
  auto back = aot::Manifest::fromJson(json);
  REQUIRE(back);
  CHECK(back->functions == m.functions);
  CHECK(back->link == m.link);
  CHECK(back->find("f")->args[0].str() == "tensor<?x4xbf16>");
  CHECK(back->find("f")->results[0].str() == "tensor<f64>");
  CHECK(back->find("g") == nullptr);
  CHECK(aot::Manifest::fromJson(m.toJson(false))->functions == m.functions);
}

TEST_CASE("Manifest::fromJson names the offending field") {
  auto notJson = aot::Manifest::fromJson("{");
  REQUIRE(!notJson);
  CHECK(notJson.error().str().find("not valid JSON") != std::string::npos);
  auto badDtype = aot::Manifest::fromJson(
      R"({"abi_version": 1, )"
      R"("functions": [{"name": "f", "symbol": "s", "args": [)"
      R"({"kind": "tensor", "dtype": "f8", "shape": []}], "results": []}]})");
  REQUIRE(!badDtype);
  CHECK(badDtype.error().str().find("functions[0].args[0].dtype") !=
        std::string::npos);
}

TEST_CASE("Manifest::fromJson refuses a missing or unknown abi_version") {
  const std::string body = R"("module": "m", "functions": [])";
  auto current = aot::Manifest::fromJson(
      "{\"abi_version\": " + std::to_string(AOT_ABI_VERSION) + ", " + body +
      "}");
  REQUIRE(current);
  CHECK(current->module == "m");

  auto future = aot::Manifest::fromJson(R"({"abi_version": 7, )" + body + "}");
  REQUIRE(!future);
  CHECK(future.error().str() ==
        "error: manifest: abi_version 7 is not supported by this build "
        "(ABI v1)");

  auto missing = aot::Manifest::fromJson("{" + body + "}");
  REQUIRE(!missing);
  CHECK(missing.error().str() ==
        "error: manifest: abi_version is missing (this build reads ABI v1)");

  auto text = aot::Manifest::fromJson(R"({"abi_version": "1", )" + body + "}");
  REQUIRE(!text);
  CHECK(text.error().str() == "error: manifest: abi_version must be an "
                              "integer (this build reads ABI v1)");
}
