//===- test_KernelImage.cpp - the kernel blob of GPU objects --------------===//
#include "aot/abi/KernelImage.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace aot::abi;

namespace {

/// `n` bytes that differ from their neighbours, so a misplaced image shows.
std::string pattern(std::size_t n, char seed) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i)
    s[i] = static_cast<char>(seed + 7 * i);
  return s;
}

} // namespace

TEST_SUITE("KernelImage") {
  TEST_CASE("images of every size come back whole, each 8-byte aligned") {
    // A cubin whose size is a multiple of 8 followed by PTX is what the
    // compiler writes; odd and empty sizes around it.
    for (std::size_t first : {0u, 1u, 7u, 8u, 31792u, 31795u}) {
      CAPTURE(first);
      std::string cubin = pattern(first, 'c'), ptx = pattern(1001, 'p');
      std::string blob = packKernelImages(
          {{KernelImageKind::Cubin, cubin}, {KernelImageKind::Ptx, ptx}});
      CHECK(blob.size() % 8 == 0);
      auto images = unpackKernelImages(blob.data(), blob.size());
      REQUIRE(images);
      REQUIRE(images->size() == 2);
      CHECK((*images)[0].kind == KernelImageKind::Cubin);
      CHECK((*images)[0].bytes == cubin);
      CHECK((*images)[1].kind == KernelImageKind::Ptx);
      CHECK((*images)[1].bytes == ptx);
      for (const KernelImage &image : *images)
        CHECK((image.bytes.data() - blob.data()) % 8 == 0);
    }
  }

  TEST_CASE("a blob that is not one, or is cut short, is refused") {
    std::string blob =
        packKernelImages({{KernelImageKind::Cubin, pattern(40, 'c')},
                          {KernelImageKind::Ptx, pattern(9, 'p')}});
    for (std::size_t cut = 0; cut < blob.size(); ++cut) {
      CAPTURE(cut);
      auto images = unpackKernelImages(blob.data(), cut);
      // Only the trailing padding of the last image may be missing.
      if (images)
        CHECK(cut >= blob.size() - 7);
    }
    std::string wrongMagic = blob;
    wrongMagic[7] = '1';
    CHECK_FALSE(unpackKernelImages(wrongMagic.data(), wrongMagic.size()));
    std::string tooMany = blob;
    tooMany[8] = 3;
    CHECK_FALSE(unpackKernelImages(tooMany.data(), tooMany.size()));
  }
}
