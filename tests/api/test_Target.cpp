#include "aot/Target.h"

#include <doctest/doctest.h>

TEST_CASE("Target::parse accepts host and cpu specs and round-trips") {
  auto host = aot::Target::parse("host");
  REQUIRE(host);
  CHECK(host->isHost());
  CHECK(host->str() == "host");

  auto t = aot::Target::parse("cpu:x86_64-unknown-linux-gnu,cpu=skylake,"
                              "features=+avx2,-avx512f");
  REQUIRE(t);
  CHECK(t->triple == "x86_64-unknown-linux-gnu");
  CHECK(t->cpu == "skylake");
  CHECK(t->features == "+avx2,-avx512f");
  CHECK(aot::Target::parse(t->str())->str() == t->str());
}

TEST_CASE("Target::parse names what is wrong") {
  auto unknown = aot::Target::parse("gpu");
  REQUIRE(!unknown);
  CHECK(unknown.error().str().find("unknown target 'gpu'") != std::string::npos);
  auto noTriple = aot::Target::parse("cpu:");
  REQUIRE(!noTriple);
  CHECK(noTriple.error().str().find("no triple") != std::string::npos);
  auto option = aot::Target::parse("cpu:x86_64-linux-gnu,speed=fast");
  REQUIRE(!option);
  CHECK(option.error().str().find("'speed=fast'") != std::string::npos);
}
