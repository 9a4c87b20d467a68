//===- test_Abi.cpp - the umbrella header is self-contained ---------------===//
#include "aot/abi/Abi.h"

#include <doctest/doctest.h>

TEST_SUITE_BEGIN("Abi");

TEST_CASE("everything is reachable through Abi.h") {
  aot::abi::Tensor t = aot::abi::Tensor::zeros(aot::abi::DType::F32, {2});
  auto e = aot::abi::asEigen<float, 1>(t);
  e(1) = 1.0f;
  aot::abi::Tensor back = aot::abi::parseNpy(aot::abi::serializeNpy(t), "t");
  CHECK(aot::abi::compare(back, t).ok);
  CHECK(AOT_ABI_VERSION == 1);
}

TEST_SUITE_END();
